package org.cacheflow.plan.classify;

import org.cacheflow.model.ActorKind;
import org.cacheflow.model.MemoryAnnotation;
import org.cacheflow.analysis.FlatActor;
import org.cacheflow.analysis.FlatFifo;
import org.cacheflow.analysis.FlatPort;
import org.cacheflow.plan.schedule.Topology;
import org.cacheflow.analysis.srdag.Srdag;

/**
 * Whether the consumers of single-rate buffers write them: a buffer is read-only when every actor port
 * that ends up reading its data (looking through forks, joins, broadcasts and round buffers) is READ_ONLY
 * or UNUSED. A delay's end vertex only keeps the tokens: it reads.
 */
public final class ConsumerAccess {

  private final boolean[] readOnly;

  private ConsumerAccess(boolean[] readOnly) {
    this.readOnly = readOnly;
  }

  public static ConsumerAccess of(Srdag srdag, Topology topology) {
    boolean[] readOnly = new boolean[srdag.edgeCount()];
    boolean[] portReadOnly = new boolean[srdag.flatGraph().fifos().size()];
    for (FlatFifo fifo : srdag.flatGraph().fifos()) {
      FlatActor target = srdag.flatGraph().actor(fifo.target());
      FlatPort port = target.port(fifo.targetPort());
      MemoryAnnotation annotation = port == null ? MemoryAnnotation.NONE : port.annotation();
      portReadOnly[fifo.index()] = annotation == MemoryAnnotation.READ_ONLY
          || annotation == MemoryAnnotation.UNUSED;
    }
    // consumers come after producers: walk the topological order backwards
    for (int i = srdag.vertexCount() - 1; i >= 0; i--) {
      int v = topology.topological(i);
      for (int k = 0; k < topology.inDegree(v); k++) {
        int e = topology.inEdge(v, k);
        readOnly[e] = readsOnly(srdag, topology, v, e, portReadOnly, readOnly);
      }
    }
    return new ConsumerAccess(readOnly);
  }

  private static boolean readsOnly(Srdag srdag, Topology topology, int target, int edge, boolean[] portReadOnly,
      boolean[] readOnly) {
    ActorKind kind = srdag.vertexKind(target);
    switch (kind) {
      case END:
        return true;
      case FORK, JOIN, BROADCAST, ROUNDBUFFER: {
        for (int k = 0; k < topology.outDegree(target); k++) {
          if (!readOnly[topology.outEdge(target, k)]) {
            return false;
          }
        }
        return true;
      }
      default:
        if (srdag.isToGetter(edge)) {
          // a getter reads through its own port, not the delayed FIFO's consumer port
          FlatPort port = srdag.flatGraph().actor(srdag.vertexActor(target)).port(srdag.edgeTargetPort(edge));
          MemoryAnnotation annotation = port == null ? MemoryAnnotation.NONE : port.annotation();
          return annotation == MemoryAnnotation.READ_ONLY || annotation == MemoryAnnotation.UNUSED;
        }
        return portReadOnly[srdag.edgeFifo(edge)];
    }
  }

  /** Whether every consumer of the buffer's data only reads it. */
  public boolean readOnly(int edge) {
    return readOnly[edge];
  }
}
