package org.cacheflow.plan.mapping;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.cacheflow.analysis.FlatFifo;
import org.cacheflow.analysis.FlatGraph;
import org.cacheflow.model.MappingConstraint;
import org.cacheflow.model.Scenario;
import org.cacheflow.model.Timing;

/**
 * PREESM's delay actors as a scenario names them: a delay node of a graph ({@code kind="delay"}, its id such as
 * {@code delay_A_out__B_in}) is an actor PREESM maps and times, named by its graph's path and its id
 * ({@code top/sub/delay_A_out__B_in}). In the single-rate graph it is the init and end vertices of the delay's FIFO
 * (its initial tokens in, its final tokens out); the delays a scenario names get rows of their own in
 * {@link MappingInputs}, after the flat actors', which those vertices use.
 */
final class DelayActors {

  /** Relative path of a named delay's actor to its FIFO. */
  private final Map<String, Integer> fifoByPath;
  /** Per FIFO, its row (-1: the scenario names no actor of its delay). */
  private final int[] rowOfFifo;
  private final int firstRow;
  private final int rows;

  private DelayActors(Map<String, Integer> fifoByPath, int[] rowOfFifo, int firstRow, int rows) {
    this.fifoByPath = fifoByPath;
    this.rowOfFifo = rowOfFifo;
    this.firstRow = firstRow;
    this.rows = rows;
  }

  /** The delay actors {@code scenario}'s constraints and timings name, each given a row after the actors'. */
  static DelayActors of(FlatGraph graph, String top, Scenario scenario) {
    Map<String, Integer> all = new LinkedHashMap<>();
    for (FlatFifo fifo : graph.fifos()) {
      String path = path(graph, fifo);
      if (path != null) {
        all.putIfAbsent(MappingInputs.relative(top, path), fifo.index());
      }
    }
    Map<String, Integer> named = new LinkedHashMap<>();
    int[] rowOfFifo = new int[graph.fifos().size()];
    Arrays.fill(rowOfFifo, -1);
    int next = graph.actors().size();
    for (String path : named(scenario)) {
      String key = MappingInputs.relative(top, MappingInputs.normalise(path));
      Integer fifo = all.get(key);
      if (fifo != null && !named.containsKey(key)) {
        named.put(key, fifo);
        if (rowOfFifo[fifo] < 0) {
          rowOfFifo[fifo] = next++;
        }
      }
    }
    return new DelayActors(named, rowOfFifo, graph.actors().size(), next - graph.actors().size());
  }

  private static Iterable<String> named(Scenario scenario) {
    List<String> paths = new ArrayList<>();
    for (MappingConstraint constraint : scenario.getConstraints()) {
      paths.addAll(constraint.getActorPaths());
    }
    for (Timing timing : scenario.getTimings()) {
      paths.add(timing.getActorPath());
    }
    return paths;
  }

  /**
   * The path of the actor of a FIFO's delay: the path of the graph holding the FIFO (the common parent of its
   * endpoints) and the delay's id; null for a FIFO without a named delay.
   */
  static String path(FlatGraph graph, FlatFifo fifo) {
    if (fifo.delay() <= 0 || fifo.origin() == null || fifo.origin().getDelay() == null) {
      return null;
    }
    String name = fifo.origin().getDelay().getName();
    if (name == null || name.isEmpty()) {
      return null;
    }
    String[] source = graph.actor(fifo.source()).path().split("/");
    String[] target = graph.actor(fifo.target()).path().split("/");
    int common = 0;
    while (common < source.length - 1 && common < target.length - 1 && source[common].equals(target[common])) {
      common++;
    }
    return String.join("/", Arrays.copyOf(source, common)) + "/" + name;
  }

  /** The row of the delay actor a scenario path names, or null. */
  Integer row(String scenarioPath, String top) {
    Integer fifo = fifoByPath.get(MappingInputs.relative(top, MappingInputs.normalise(scenarioPath)));
    return fifo == null ? null : rowOfFifo[fifo];
  }

  /** How many rows the named delays take. */
  int rows() {
    return rows;
  }

  /** The first delay row: the number of flat actors. */
  int firstRow() {
    return firstRow;
  }

  /** The FIFO of a delay row. */
  int fifoOf(int row) {
    for (int f = 0; f < rowOfFifo.length; f++) {
      if (rowOfFifo[f] == row) {
        return f;
      }
    }
    throw new IllegalArgumentException("no delay row " + row);
  }

  /** Per FIFO, its delay's row or -1. */
  int[] rowOfFifo() {
    return rowOfFifo.clone();
  }
}
