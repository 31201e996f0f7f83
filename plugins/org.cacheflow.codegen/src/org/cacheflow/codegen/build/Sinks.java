package org.cacheflow.codegen.build;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.cacheflow.analysis.FlatActor;
import org.cacheflow.analysis.FlatFifo;
import org.cacheflow.codegen.model.Sink;
import org.cacheflow.model.ActorKind;

/**
 * What validation digests: the FIFOs into sink actors, else (no sink actor) those carrying persistent delays, each
 * firing's data a part of its sink's digest.
 */
final class Sinks {

  /**
   * The digested FIFOs.
   *
   * @param sinks the sinks, by index
   * @param sinkOfFifo per digested FIFO, its sink
   * @param delaySinks whether the digested FIFOs are those of persistent delays (the graph has no sink actor)
   */
  record Digests(List<Sink> sinks, Map<Integer, Integer> sinkOfFifo, boolean delaySinks) {

    /** The sink of a FIFO, null when it is not digested. */
    Integer sinkOf(int fifo) {
      return sinkOfFifo.get(fifo);
    }
  }

  private Sinks() {
  }

  /** The FIFOs whose data validation digests: those into sink actors, else those carrying persistent delays. */
  static Digests of(BuildInput in) {
    List<Sink> sinks = new ArrayList<>();
    Map<Integer, Integer> sinkOfFifo = new HashMap<>();
    PreesmBufferNames names = null;
    for (FlatFifo fifo : in.graph.fifos()) {
      FlatActor target = in.graph.actor(fifo.target());
      if (fifo.carriesTokens() && target.kind() == ActorKind.NORMAL
          && in.graph.outputFifos(target.index()).length == 0) {
        names = names == null ? PreesmBufferNames.of(in.srdag) : names;
        sinkOfFifo.put(fifo.index(), sinks.size());
        sinks.add(new Sink(sinks.size(), in.label(fifo), (int) target.repetitions(), nextPart(sinks),
            preesmNames(in, names, fifo, target)));
      }
    }
    if (!sinks.isEmpty()) {
      return new Digests(List.copyOf(sinks), sinkOfFifo, false);
    }
    for (int i = 0; i < in.srdag.persistentDelayCount(); i++) {
      int fifo = in.srdag.vertexFifo(in.srdag.persistentEnd(i));
      if (!sinkOfFifo.containsKey(fifo)) {
        sinkOfFifo.put(fifo, sinks.size());
        sinks.add(new Sink(sinks.size(), in.label(in.graph.fifo(fifo)) + " (delay)", (int) in.graph.fifo(fifo)
            .delaySegments(), nextPart(sinks)));
      }
    }
    return new Digests(List.copyOf(sinks), sinkOfFifo, true);
  }

  /**
   * Per firing of a sink actor, PREESM's name of the buffer it reads the FIFO from: the sink buffers PREESM's
   * generated code digests (an actor without outputs, each input of each firing).
   */
  private static List<String> preesmNames(BuildInput in, PreesmBufferNames names, FlatFifo fifo, FlatActor target) {
    List<String> result = new ArrayList<>();
    for (long firing = 0; firing < target.repetitions(); firing++) {
      int vertex = in.srdag.firingVertex(target.index(), firing);
      String name = null;
      for (int e : in.srdag.incomingEdges(vertex)) {
        if (name == null && in.srdag.edgeFifo(e) == fifo.index()) {
          name = names.name(e);
        }
      }
      if (name == null) {
        return List.of(); // the firing reads nothing of it: PREESM has no buffer to digest
      }
      result.add(name);
    }
    return result;
  }

  /** The first part of the next sink: the parts of the sinks before it. */
  static int nextPart(List<Sink> sinks) {
    return sinks.isEmpty() ? 0 : sinks.get(sinks.size() - 1).firstPart() + sinks.get(sinks.size() - 1).parts();
  }
}
