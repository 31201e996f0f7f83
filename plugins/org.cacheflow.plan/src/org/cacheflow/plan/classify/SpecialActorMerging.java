package org.cacheflow.plan.classify;

import java.util.Set;

import org.cacheflow.model.ActorKind;
import org.cacheflow.model.MemoryAnnotation;
import org.cacheflow.plan.analysis.FlatActor;
import org.cacheflow.plan.analysis.FlatFifo;
import org.cacheflow.plan.analysis.FlatPort;
import org.cacheflow.plan.schedule.Topology;
import org.cacheflow.plan.srdag.Srdag;
import org.cacheflow.scripts.FifoMark;

/**
 * The merges PREESM's default memory scripts of the special actors give, worked out from the graph's
 * structure without evaluating scripts (actors' own scripts are not run, and nothing is marked):
 * <ul>
 * <li>a fork's outputs are consecutive slices of its input, and a join's inputs consecutive slices of its
 * output: the fork (join) consumes the one buffer and produces the other, so they are never live together
 * and always merge;</li>
 * <li>a broadcast's outputs alias its input (wrapping when larger), and a round buffer's output the last
 * tokens of its input, when every consumer downstream only reads (READ_ONLY or UNUSED ports): outputs of
 * one broadcast are live together, so they may share memory only if nobody writes it;</li>
 * <li>buffers holding a delay's tokens (leaving an init, entering an end) keep their own memory.</li>
 * </ul>
 * Connected merges form one group; its root is its largest buffer (the lowest edge index among equals).
 */
public final class SpecialActorMerging implements MemoryFacts {

  private static final byte NONE = 0;
  private static final byte FORK_SLICE = 1;
  private static final byte JOIN_SLICE = 2;
  private static final byte BROADCAST_ALIAS = 3;
  private static final byte ROUNDBUFFER_TAIL = 4;
  private static final byte HOST = 5;

  private final Srdag srdag;
  private final int[] root;
  private final byte[] how;
  private final int[] via;

  private SpecialActorMerging(Srdag srdag, int[] root, byte[] how, int[] via) {
    this.srdag = srdag;
    this.root = root;
    this.how = how;
    this.via = via;
  }

  /** Works out the merges of a single-rate graph. */
  public static SpecialActorMerging of(Srdag srdag) {
    return of(srdag, Topology.of(srdag), ConsumerAccess.of(srdag, Topology.of(srdag)));
  }

  /** As {@link #of(Srdag)}, reusing a topology and consumer access already computed. */
  public static SpecialActorMerging of(Srdag srdag, Topology topology, ConsumerAccess access) {
    int edges = srdag.edgeCount();
    int[] parent = new int[edges];
    for (int e = 0; e < edges; e++) {
      parent[e] = e;
    }
    byte[] how = new byte[edges];
    int[] via = new int[edges];
    java.util.Arrays.fill(via, -1);
    for (int v = 0; v < srdag.vertexCount(); v++) {
      ActorKind kind = srdag.vertexKind(v);
      if (kind == ActorKind.FORK || kind == ActorKind.BROADCAST || kind == ActorKind.ROUNDBUFFER) {
        if (topology.inDegree(v) != 1) {
          continue;
        }
        int input = topology.inEdge(v, 0);
        if (srdag.isFromInit(input)) {
          continue;
        }
        for (int i = 0; i < topology.outDegree(v); i++) {
          int output = topology.outEdge(v, i);
          if (srdag.isToEnd(output)) {
            continue;
          }
          boolean merge = kind == ActorKind.FORK || access.readOnly(output);
          if (merge) {
            union(parent, output, input);
            how[output] = kind == ActorKind.FORK ? FORK_SLICE
                : kind == ActorKind.BROADCAST ? BROADCAST_ALIAS : ROUNDBUFFER_TAIL;
            via[output] = v;
            if (how[input] == NONE) {
              how[input] = HOST;
              via[input] = v;
            }
          }
        }
      } else if (kind == ActorKind.JOIN) {
        if (topology.outDegree(v) != 1) {
          continue;
        }
        int output = topology.outEdge(v, 0);
        if (srdag.isToEnd(output)) {
          continue;
        }
        for (int i = 0; i < topology.inDegree(v); i++) {
          int input = topology.inEdge(v, i);
          if (srdag.isFromInit(input)) {
            continue;
          }
          union(parent, input, output);
          how[input] = JOIN_SLICE;
          via[input] = v;
          if (how[output] == NONE) {
            how[output] = HOST;
            via[output] = v;
          }
        }
      }
    }
    // each group's root: its largest buffer, lowest index among equals
    int[] best = new int[edges];
    java.util.Arrays.fill(best, -1);
    int[] size = new int[edges];
    long[] bytes = new long[edges];
    for (int e = 0; e < edges; e++) {
      bytes[e] = srdag.edgeBytes(e);
    }
    for (int e = 0; e < edges; e++) {
      int r = find(parent, e);
      size[r]++;
      if (best[r] < 0 || bytes[e] > bytes[best[r]]) {
        best[r] = e;
      }
    }
    int[] root = new int[edges];
    for (int e = 0; e < edges; e++) {
      int r = find(parent, e);
      root[e] = size[r] > 1 ? best[r] : -1;
    }
    return new SpecialActorMerging(srdag, root, how, via);
  }

  private static int find(int[] parent, int e) {
    int r = e;
    while (parent[r] != r) {
      r = parent[r];
    }
    while (parent[e] != r) {
      int next = parent[e];
      parent[e] = r;
      e = next;
    }
    return r;
  }

  private static void union(int[] parent, int a, int b) {
    int ra = find(parent, a);
    int rb = find(parent, b);
    if (ra != rb) {
      parent[Math.max(ra, rb)] = Math.min(ra, rb);
    }
  }

  @Override
  public int mergeRoot(int edge) {
    return root[edge];
  }

  @Override
  public Set<FifoMark> marks(int edge) {
    return Set.of();
  }

  @Override
  public String describeMerge(int edge) {
    if (root[edge] < 0) {
      return null;
    }
    String vertex = via[edge] >= 0 ? srdag.vertexName(via[edge]) : "?";
    return switch (how[edge]) {
      case FORK_SLICE -> "a slice of the input of fork " + vertex + " (default fork script)";
      case JOIN_SLICE -> "a slice of the output of join " + vertex + " (default join script)";
      case BROADCAST_ALIAS -> "aliases the input of broadcast " + vertex
          + ", whose consumers downstream only read (default broadcast script)";
      case ROUNDBUFFER_TAIL -> "the last tokens of the input of round buffer " + vertex
          + ", whose consumers downstream only read (default roundbuffer script)";
      case HOST -> "hosts the buffers merged by " + vertex;
      default -> "in the merge group of " + srdag.vertexName(srdag.edgeSource(root[edge])) + " -> "
          + srdag.vertexName(srdag.edgeTarget(root[edge]));
    };
  }

  /**
   * Whether the consumers of single-rate buffers write them: a buffer is read-only when every actor port
   * that ends up reading its data (looking through forks, joins, broadcasts and round buffers) is READ_ONLY
   * or UNUSED. A delay's end vertex only keeps the tokens: it reads.
   */
  public static final class ConsumerAccess {

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
}
