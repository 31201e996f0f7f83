package org.cacheflow.pipeline;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.cacheflow.analysis.FlatFifo;
import org.cacheflow.analysis.FlatGraph;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * The delays of a graph generated as one program switching between the variants of its dynamic parameters. A delay
 * that starts afresh at every run (persistence {@code none}, {@code local} in a sub-graph, or a setter) carries
 * nothing from one iteration to the next: each variant keeps it as the variant alone does. A persistent delay
 * ({@code permanent}, or {@code local} at the top graph) hands its final tokens to the next iteration, whichever
 * variant runs it: the program keeps one state for it that every variant shares, so its tokens and bytes must be the
 * same in every variant.
 */
final class VariantDelays {

  /** A persistent delay in one variant. */
  private record Persistent(FlatFifo fifo, String name, long tokens, long bytes) {
  }

  private final SourceLocation graphFile;
  /** Per variant checked, its label. */
  private final List<String> labels = new ArrayList<>();
  /** Per variant checked, its values. */
  private final List<Map<String, String>> values = new ArrayList<>();
  /** Per variant checked, its persistent delays in the order of the single-rate graph's states. */
  private final List<List<Persistent>> delays = new ArrayList<>();

  VariantDelays(SourceLocation graphFile) {
    this.graphFile = graphFile;
  }

  /**
   * Adds a variant's graph, checking its persistent delays against the first variant's.
   *
   * @throws InputException at the FIFO whose persistent delay has other tokens or bytes than in the first variant,
   *     naming both variants and the dynamic parameters whose values differ
   */
  void add(DynamicParameters.Variant variant, FlatGraph graph, Srdag srdag) {
    List<Persistent> own = new ArrayList<>();
    for (int i = 0; i < srdag.persistentDelayCount(); i++) {
      FlatFifo fifo = graph.fifo(srdag.vertexFifo(srdag.persistentEnd(i)));
      own.add(new Persistent(fifo, name(graph, fifo), fifo.delay(), fifo.bytesFor(fifo.delay())));
    }
    labels.add(variant.label());
    values.add(variant.values());
    delays.add(own);
    if (delays.size() == 1) {
      return;
    }
    Map<String, Persistent> first = byName(delays.get(0));
    Map<String, Persistent> here = byName(own);
    for (String fifo : union(first, here)) {
      Persistent a = first.get(fifo);
      Persistent b = here.get(fifo);
      if (a == null || b == null || a.tokens() != b.tokens() || a.bytes() != b.bytes()) {
        FlatFifo at = (b != null ? b : a).fifo();
        throw new InputException(at.location() != null ? at.location() : graphFile, "FIFO " + fifo + " has a "
            + "persistent delay of " + size(a) + " with " + labels.get(0) + " but " + size(b) + " with "
            + variant.label() + ": a program switching between the variants of dynamic parameter"
            + (changed(variant).size() == 1 ? " " : "s ") + String.join(", ", changed(variant)) + " keeps one state "
            + "for each persistent delay, carried from one iteration to the next whichever variant runs it, so its "
            + "size must not depend on them; generate one program per value with --param NAME=V, or make the delay "
            + "start afresh at every iteration (persistence none)");
      }
    }
    for (int i = 0; i < own.size(); i++) {
      if (i >= delays.get(0).size() || !own.get(i).name().equals(delays.get(0).get(i).name())) {
        throw new IllegalStateException("the persistent delays of " + variant.label() + " are not in the order of "
            + labels.get(0) + "'s");
      }
    }
  }

  private static String size(Persistent delay) {
    return delay == null ? "no tokens" : delay.tokens() + " tokens (" + delay.bytes() + " bytes)";
  }

  /** The dynamic parameters whose value differs between the first variant and this one. */
  private List<String> changed(DynamicParameters.Variant variant) {
    List<String> names = new ArrayList<>();
    variant.values().forEach((name, value) -> {
      if (!Objects.equals(values.get(0).get(name), value)) {
        names.add(name);
      }
    });
    return names;
  }

  private static Map<String, Persistent> byName(List<Persistent> delays) {
    Map<String, Persistent> named = new LinkedHashMap<>();
    delays.forEach(d -> named.put(d.name(), d));
    return named;
  }

  private static List<String> union(Map<String, Persistent> a, Map<String, Persistent> b) {
    List<String> names = new ArrayList<>(a.keySet());
    b.keySet().stream().filter(n -> !a.containsKey(n)).forEach(names::add);
    return names;
  }

  private static String name(FlatGraph graph, FlatFifo fifo) {
    return graph.actor(fifo.source()).name() + "." + fifo.sourcePort() + " -> " + graph.actor(fifo.target()).name()
        + "." + fifo.targetPort();
  }
}
