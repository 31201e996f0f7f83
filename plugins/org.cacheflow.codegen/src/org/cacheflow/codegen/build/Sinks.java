package org.cacheflow.codegen.build;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.cacheflow.codegen.model.Sink;
import org.cacheflow.model.ActorKind;
import org.cacheflow.analysis.FlatActor;
import org.cacheflow.analysis.FlatFifo;

/**
 * Pass 7: what validation digests: the FIFOs into sink actors, else (no sink actor) those carrying persistent
 * delays, each firing's data a part of its sink's digest.
 */
final class Sinks implements Pass {

  private BuildContext c;

  @Override
  public void run(BuildContext context) {
    this.c = context;
    c.sinkOfFifo.putAll(sinks(c.sinks));
  }

  /** The FIFOs whose data validation digests: those into sink actors, else those carrying persistent delays. */
  private Map<Integer, Integer> sinks(List<Sink> sinks) {
    Map<Integer, Integer> sinkOfFifo = new HashMap<>();
    for (FlatFifo fifo : c.graph.fifos()) {
      FlatActor target = c.graph.actor(fifo.target());
      if (fifo.carriesTokens() && target.kind() == ActorKind.NORMAL
          && c.graph.outputFifos(target.index()).length == 0) {
        sinkOfFifo.put(fifo.index(), sinks.size());
        sinks.add(new Sink(sinks.size(), c.label(fifo), (int) target.repetitions(), nextPart(sinks)));
      }
    }
    if (sinks.isEmpty()) {
      c.delaySinks = true;
      for (int i = 0; i < c.srdag.persistentDelayCount(); i++) {
        int fifo = c.srdag.vertexFifo(c.srdag.persistentEnd(i));
        if (!sinkOfFifo.containsKey(fifo)) {
          sinkOfFifo.put(fifo, sinks.size());
          sinks.add(new Sink(sinks.size(), c.label(c.graph.fifo(fifo)) + " (delay)", (int) c.graph.fifo(fifo)
              .delaySegments(), nextPart(sinks)));
        }
      }
    }
    return sinkOfFifo;
  }

  private static int nextPart(List<Sink> sinks) {
    return sinks.isEmpty() ? 0 : sinks.get(sinks.size() - 1).firstPart() + sinks.get(sinks.size() - 1).parts();
  }
}
