package org.cacheflow.analysis;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * The hierarchy-free graph that analysis, expansion and scheduling work on: actors with their repetition
 * vector entries and FIFOs with evaluated rates. Immutable. Built by {@link Flattener}; it holds one entry
 * per actor definition (not per firing), so it stays small even when the single-rate graph is huge.
 */
public final class FlatGraph {

  private final String name;
  private final SourceLocation location;
  private final List<FlatActor> actors;
  private final List<FlatFifo> fifos;
  private final Map<String, FlatActor> byPath = new HashMap<>();
  private final int[][] inputFifos;
  private final int[][] outputFifos;

  FlatGraph(String name, SourceLocation location, List<FlatActor> actors, List<FlatFifo> fifos) {
    this.name = name;
    this.location = location;
    this.actors = Collections.unmodifiableList(new ArrayList<>(actors));
    this.fifos = Collections.unmodifiableList(new ArrayList<>(fifos));
    for (FlatActor actor : actors) {
      byPath.put(actor.path(), actor);
    }
    int[] inputCount = new int[actors.size()];
    int[] outputCount = new int[actors.size()];
    for (FlatFifo fifo : fifos) {
      inputCount[fifo.target()]++;
      outputCount[fifo.source()]++;
    }
    inputFifos = new int[actors.size()][];
    outputFifos = new int[actors.size()][];
    for (int a = 0; a < actors.size(); a++) {
      inputFifos[a] = new int[inputCount[a]];
      outputFifos[a] = new int[outputCount[a]];
      inputCount[a] = 0;
      outputCount[a] = 0;
    }
    for (FlatFifo fifo : fifos) {
      inputFifos[fifo.target()][inputCount[fifo.target()]++] = fifo.index();
      outputFifos[fifo.source()][outputCount[fifo.source()]++] = fifo.index();
    }
  }

  /** The top graph's name. */
  public String name() {
    return name;
  }

  /** Where the top graph was read from. */
  public SourceLocation location() {
    return location;
  }

  public List<FlatActor> actors() {
    return actors;
  }

  public List<FlatFifo> fifos() {
    return fifos;
  }

  public FlatActor actor(int index) {
    return actors.get(index);
  }

  public FlatFifo fifo(int index) {
    return fifos.get(index);
  }

  /** The actor with that path, or null. */
  public FlatActor actor(String path) {
    return byPath.get(path);
  }

  /** Indices of the FIFOs the actor consumes from, in FIFO order. */
  public int[] inputFifos(int actor) {
    return inputFifos[actor].clone();
  }

  /** Indices of the FIFOs the actor produces into, in FIFO order. */
  public int[] outputFifos(int actor) {
    return outputFifos[actor].clone();
  }

  /** The internal array, not to be modified: for loops that must not copy. */
  int[] inputsOf(int actor) {
    return inputFifos[actor];
  }

  /** The internal array, not to be modified: for loops that must not copy. */
  int[] outputsOf(int actor) {
    return outputFifos[actor];
  }

  /** Repetition vector entries by actor path, in actor order. */
  public Map<String, Long> repetitions() {
    Map<String, Long> result = new LinkedHashMap<>();
    for (FlatActor actor : actors) {
      result.put(actor.path(), actor.repetitions());
    }
    return Collections.unmodifiableMap(result);
  }

  /** Firings of all actors per iteration: the number of actor vertices of the single-rate graph. */
  public long totalFirings() {
    long total = 0;
    for (FlatActor actor : actors) {
      total = saturatedAdd(total, actor.repetitions());
    }
    return total;
  }

  /** The FIFO as users read it: {@code source.port -> target.port}. */
  public String describe(FlatFifo fifo) {
    return actors.get(fifo.source()).path() + "." + fifo.sourcePort() + " -> "
        + actors.get(fifo.target()).path() + "." + fifo.targetPort();
  }

  static long saturatedAdd(long a, long b) {
    long sum = a + b;
    return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
  }

  @Override
  public String toString() {
    return "FlatGraph[" + name + ": " + actors.size() + " actors, " + fifos.size() + " fifos]";
  }
}
