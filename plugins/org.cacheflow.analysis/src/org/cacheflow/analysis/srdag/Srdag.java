package org.cacheflow.analysis.srdag;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.cacheflow.model.ActorKind;
import org.cacheflow.analysis.FlatActor;
import org.cacheflow.analysis.FlatFifo;
import org.cacheflow.analysis.FlatGraph;

/**
 * A single-rate directed acyclic graph (SRDAG): one vertex per actor firing plus the FORK, JOIN, INIT and
 * END vertices the expansion inserts, and edges carrying a fixed number of tokens. Built by
 * {@link SingleRateExpansion}. Immutable.
 *
 * <p>
 * Stored column-wise in primitive arrays (about 17 bytes per vertex and 28 per edge) so that millions of
 * vertices fit; vertices and edges are addressed by int index, and {@link #vertex(int)} / {@link #edge(int)}
 * give record views for convenience. Vertex names are computed on demand.
 *
 * <p>
 * Vertex names follow PREESM's: a firing is {@code PATH_K} (the flat actor path and the firing index, e.g.
 * {@code top/sub/filter_3}); a fork is {@code explode_SOURCE_PORT}, a join {@code implode_SINK_PORT}; an
 * init is {@code TARGET_init_PORT}, an end {@code SOURCE_end_PORT}, suffixed {@code _S} with the segment
 * index when a delay restarts several times per iteration. Port names too: a fork's outputs are
 * {@code PORT_I} and a join's inputs {@code PORT_I} with I the position; an init's output takes the
 * consumer's port name and an end's input the producer's.
 *
 * <p>
 * A delay with a setter actor has no INIT vertex: the setter's firings are linked where the init would be
 * and their edges leave the setter's port (a fork of a setter firing is named after that port); likewise a
 * getter's firings take the END vertex's place. Those edges are ordinary actor-to-actor data, not delay
 * tokens: {@link #isFromInit(int)} and {@link #isToEnd(int)} are false for them, {@link #isFromSetter(int)} and
 * {@link #isToGetter(int)} true.
 */
public final class Srdag {

  private static final ActorKind[] KINDS = ActorKind.values();

  /** Edge role bit: the tokens were written by a delay's setter (through a fork of its firing, maybe). */
  static final byte FROM_SETTER = 1;
  /** Edge role bit: the tokens are read by a delay's getter (through a join into its firing, maybe). */
  static final byte TO_GETTER = 2;

  private final FlatGraph graph;
  private final int vertexCount;
  private final byte[] kind;
  private final int[] actor;
  private final int[] fifo;
  private final int[] index;
  private final int[] firstFiring;
  private final int edgeCount;
  private final int[] edgeSource;
  private final int[] edgeTarget;
  private final int[] edgeFifo;
  private final int[] edgeSourceSlot;
  private final int[] edgeTargetSlot;
  private final long[] edgeTokens;
  private final byte[] edgeRole;
  private final int[] persistentEnds;
  private final int[] persistentInits;
  private volatile int[][] outgoing;
  private volatile int[][] incoming;

  Srdag(FlatGraph graph, int vertexCount, byte[] kind, int[] actor, int[] fifo, int[] index, int[] firstFiring,
      int edgeCount, int[] edgeSource, int[] edgeTarget, int[] edgeFifo, int[] edgeSourceSlot,
      int[] edgeTargetSlot, long[] edgeTokens, byte[] edgeRole, int[] persistentEnds, int[] persistentInits) {
    this.graph = graph;
    this.vertexCount = vertexCount;
    this.kind = kind;
    this.actor = actor;
    this.fifo = fifo;
    this.index = index;
    this.firstFiring = firstFiring;
    this.edgeCount = edgeCount;
    this.edgeSource = edgeSource;
    this.edgeTarget = edgeTarget;
    this.edgeFifo = edgeFifo;
    this.edgeSourceSlot = edgeSourceSlot;
    this.edgeTargetSlot = edgeTargetSlot;
    this.edgeTokens = edgeTokens;
    this.edgeRole = edgeRole;
    this.persistentEnds = persistentEnds;
    this.persistentInits = persistentInits;
  }

  /** The flat graph this was expanded from. */
  public FlatGraph flatGraph() {
    return graph;
  }

  public int vertexCount() {
    return vertexCount;
  }

  public int edgeCount() {
    return edgeCount;
  }

  // ---------------------------------------------------------------------------------------------------
  // Vertices

  /**
   * The vertex's kind: the flat actor's kind for a firing (NORMAL, BROADCAST, ROUNDBUFFER, or a FORK /
   * JOIN written in the graph), FORK / JOIN / INIT / END for inserted vertices.
   */
  public ActorKind vertexKind(int vertex) {
    return KINDS[kind[vertex]];
  }

  /** Whether the expansion inserted the vertex (fork, join, init, end) rather than it being a firing. */
  public boolean isInserted(int vertex) {
    return actor[vertex] < 0;
  }

  /** The flat actor index of a firing, -1 for an inserted vertex. */
  public int vertexActor(int vertex) {
    return actor[vertex];
  }

  /** The firing index of a firing, the delay segment of an init or end, -1 for a fork or join. */
  public int vertexFiring(int vertex) {
    if (actor[vertex] >= 0) {
      return index[vertex];
    }
    ActorKind k = vertexKind(vertex);
    return k == ActorKind.INIT || k == ActorKind.END ? index[vertex] : -1;
  }

  /** The flat FIFO an inserted vertex belongs to, -1 for a firing. */
  public int vertexFifo(int vertex) {
    return fifo[vertex];
  }

  /**
   * The flat actor path a vertex stands for: the actor of a firing; for a fork the producer's, for a join
   * the consumer's, for an init the consumer's and for an end the producer's.
   */
  public String vertexActorPath(int vertex) {
    if (actor[vertex] >= 0) {
      return graph.actor(actor[vertex]).path();
    }
    FlatFifo f = graph.fifo(fifo[vertex]);
    ActorKind k = vertexKind(vertex);
    if ((k == ActorKind.FORK || k == ActorKind.JOIN) && actor[index[vertex]] >= 0) {
      // the firing the fork splits or the join gathers for: a setter's or getter's one included
      return graph.actor(actor[index[vertex]]).path();
    }
    return switch (k) {
      case FORK, END -> graph.actor(f.source()).path();
      default -> graph.actor(f.target()).path();
    };
  }

  /** The vertex's unique name (see the class comment). */
  public String vertexName(int vertex) {
    if (actor[vertex] >= 0) {
      return graph.actor(actor[vertex]).path() + "_" + index[vertex];
    }
    FlatFifo f = graph.fifo(fifo[vertex]);
    String segment = f.delaySegments() > 1 ? "_" + index[vertex] : "";
    return switch (vertexKind(vertex)) {
      case FORK -> "explode_" + vertexName(index[vertex]) + "_" + (isSetterFiring(index[vertex], f) ? f.setterPort()
          : f.sourcePort());
      case JOIN -> "implode_" + vertexName(index[vertex]) + "_" + (isGetterFiring(index[vertex], f) ? f.getterPort()
          : f.targetPort());
      case INIT -> graph.actor(f.target()).path() + "_init_" + f.targetPort() + segment;
      case END -> graph.actor(f.source()).path() + "_end_" + f.sourcePort() + segment;
      default -> throw new IllegalStateException("inserted vertex of kind " + vertexKind(vertex));
    };
  }

  /** Whether the vertex is a firing of the FIFO's setter (which the flattener keeps apart from its producer). */
  private boolean isSetterFiring(int vertex, FlatFifo f) {
    return f.hasSetter() && actor[vertex] == f.setter();
  }

  private boolean isGetterFiring(int vertex, FlatFifo f) {
    return f.hasGetter() && actor[vertex] == f.getter();
  }

  /** The vertex of firing {@code firing} of flat actor {@code flatActor}. */
  public int firingVertex(int flatActor, long firing) {
    FlatActor a = graph.actor(flatActor);
    if (firing < 0 || firing >= a.repetitions()) {
      throw new IndexOutOfBoundsException("firing " + firing + " of " + a.path() + ", which fires "
          + a.repetitions() + " times");
    }
    return firstFiring[flatActor] + (int) firing;
  }

  /** How many vertices have that kind. */
  public int countVertices(ActorKind vertexKind) {
    int count = 0;
    byte wanted = (byte) vertexKind.ordinal();
    for (int v = 0; v < vertexCount; v++) {
      if (kind[v] == wanted) {
        count++;
      }
    }
    return count;
  }

  /** How many vertices the expansion inserted (forks, joins, inits, ends). */
  public int countInsertedVertices() {
    int count = 0;
    for (int v = 0; v < vertexCount; v++) {
      if (actor[v] < 0) {
        count++;
      }
    }
    return count;
  }

  /** A record view of a vertex. */
  public Vertex vertex(int vertex) {
    return new Vertex(vertex, vertexName(vertex), vertexKind(vertex), vertexActorPath(vertex),
        vertexFiring(vertex), isInserted(vertex));
  }

  /**
   * A vertex.
   *
   * @param index the vertex index
   * @param name the unique name
   * @param kind the kind
   * @param actorPath the flat actor path it stands for (see {@link Srdag#vertexActorPath(int)})
   * @param firing the firing index, the delay segment of an init / end, -1 for a fork / join
   * @param inserted whether the expansion inserted it
   */
  public record Vertex(int index, String name, ActorKind kind, String actorPath, int firing, boolean inserted) {
  }

  // ---------------------------------------------------------------------------------------------------
  // Edges

  public int edgeSource(int edge) {
    return edgeSource[edge];
  }

  public int edgeTarget(int edge) {
    return edgeTarget[edge];
  }

  /** Tokens the edge carries per iteration. */
  public long edgeTokens(int edge) {
    return edgeTokens[edge];
  }

  /** Bytes the edge carries: {@code ceil(tokens x tokenBits / 8)} with its FIFO's token size. */
  public long edgeBytes(int edge) {
    return graph.fifo(edgeFifo[edge]).bytesFor(edgeTokens[edge]);
  }

  /** The flat FIFO whose tokens the edge carries. */
  public int edgeFifo(int edge) {
    return edgeFifo[edge];
  }

  /** The name of the port the edge leaves from (see the class comment). */
  public String edgeSourcePort(int edge) {
    FlatFifo f = graph.fifo(edgeFifo[edge]);
    if (isFromInit(edge)) {
      return f.targetPort();
    }
    int slot = edgeSourceSlot[edge];
    String port = isFromSetter(edge) ? f.setterPort() : f.sourcePort();
    return slot < 0 ? port : port + "_" + slot;
  }

  /** The name of the port the edge enters (see the class comment). */
  public String edgeTargetPort(int edge) {
    FlatFifo f = graph.fifo(edgeFifo[edge]);
    if (isToEnd(edge)) {
      return f.sourcePort();
    }
    int slot = edgeTargetSlot[edge];
    String port = isToGetter(edge) ? f.getterPort() : f.targetPort();
    return slot < 0 ? port : port + "_" + slot;
  }

  /** Whether the edge leaves an init vertex: it carries a delay's initial tokens. */
  public boolean isFromInit(int edge) {
    return kind[edgeSource[edge]] == ActorKind.INIT.ordinal() && actor[edgeSource[edge]] < 0;
  }

  /** Whether the edge enters an end vertex: it carries a delay's final tokens. */
  public boolean isToEnd(int edge) {
    return kind[edgeTarget[edge]] == ActorKind.END.ordinal() && actor[edgeTarget[edge]] < 0;
  }

  /**
   * Whether the edge carries tokens a delay's setter wrote: it leaves a setter firing, or a fork of one. Such
   * an edge takes the place of an init vertex's but is ordinary data between actors.
   */
  public boolean isFromSetter(int edge) {
    return (edgeRole[edge] & FROM_SETTER) != 0;
  }

  /** Whether the edge carries tokens to a delay's getter: it enters a getter firing, or a join into one. */
  public boolean isToGetter(int edge) {
    return (edgeRole[edge] & TO_GETTER) != 0;
  }

  /** The sum of the bytes of all edges. */
  public long totalBytes() {
    long total = 0;
    for (int e = 0; e < edgeCount; e++) {
      total += edgeBytes(e);
      if (total < 0) {
        return Long.MAX_VALUE;
      }
    }
    return total;
  }

  /** A record view of an edge. */
  public Edge edge(int edge) {
    return new Edge(edge, edgeSource[edge], edgeSourcePort(edge), edgeTarget[edge], edgeTargetPort(edge),
        edgeTokens[edge], edgeBytes(edge), edgeFifo[edge], isFromInit(edge), isToEnd(edge));
  }

  /**
   * An edge.
   *
   * @param index the edge index
   * @param source the source vertex
   * @param sourcePort the source port name
   * @param target the target vertex
   * @param targetPort the target port name
   * @param tokens tokens carried
   * @param bytes bytes carried
   * @param fifo the flat FIFO it comes from
   * @param fromInit whether it carries a delay's initial tokens
   * @param toEnd whether it carries a delay's final tokens
   */
  public record Edge(int index, int source, String sourcePort, int target, String targetPort, long tokens,
      long bytes, int fifo, boolean fromInit, boolean toEnd) {
  }

  /** Edges leaving the vertex, in creation order. */
  public int[] outgoingEdges(int vertex) {
    return adjacent(adjacency(true), vertex);
  }

  /**
   * Edges entering ({@code input}) or leaving the vertex in port order: the declaration order of the actor's
   * ports for a firing, creation (slot) order for an inserted vertex. A fork, join or round buffer copies its
   * slices in this order.
   */
  public int[] portOrderedEdges(int vertex, boolean input) {
    int[] adjacent = input ? incomingEdges(vertex) : outgoingEdges(vertex);
    if (isInserted(vertex)) {
      return adjacent;
    }
    FlatActor actor = flatGraph().actor(vertexActor(vertex));
    List<Integer> ordered = new ArrayList<>();
    for (org.cacheflow.analysis.FlatPort port : actor.ports()) {
      if (port.isInput() != input) {
        continue;
      }
      for (int e : adjacent) {
        if ((input ? edgeTargetPort(e) : edgeSourcePort(e)).equals(port.name())) {
          ordered.add(e);
        }
      }
    }
    return ordered.size() == adjacent.length ? ordered.stream().mapToInt(Integer::intValue).toArray() : adjacent;
  }

  /** Edges entering the vertex, in creation order. */
  public int[] incomingEdges(int vertex) {
    return adjacent(adjacency(false), vertex);
  }

  private static int[] adjacent(int[][] rows, int vertex) {
    return Arrays.copyOfRange(rows[1], rows[0][vertex], rows[0][vertex + 1]);
  }

  /** Compressed rows: {offsets (vertexCount + 1), edges}. Built on first use. */
  private int[][] adjacency(boolean out) {
    int[][] result = out ? outgoing : incoming;
    if (result == null) {
      int[] ends = out ? edgeSource : edgeTarget;
      int[] offsets = new int[vertexCount + 1];
      for (int e = 0; e < edgeCount; e++) {
        offsets[ends[e] + 1]++;
      }
      for (int v = 0; v < vertexCount; v++) {
        offsets[v + 1] += offsets[v];
      }
      int[] fill = Arrays.copyOf(offsets, vertexCount);
      int[] edges = new int[edgeCount];
      for (int e = 0; e < edgeCount; e++) {
        edges[fill[ends[e]]++] = e;
      }
      result = new int[][] {offsets, edges};
      if (out) {
        outgoing = result;
      } else {
        incoming = result;
      }
    }
    return result;
  }

  // ---------------------------------------------------------------------------------------------------
  // Persistent delays

  /** How many (end, init) pairs carry tokens from one iteration to the next (PERMANENT delays). */
  public int persistentDelayCount() {
    return persistentEnds.length;
  }

  /** The end vertex of pair {@code i}: its tokens become the initial tokens of the next iteration. */
  public int persistentEnd(int i) {
    return persistentEnds[i];
  }

  /** The init vertex of pair {@code i}. */
  public int persistentInit(int i) {
    return persistentInits[i];
  }

  @Override
  public String toString() {
    return "Srdag[" + vertexCount + " vertices, " + edgeCount + " edges]";
  }
}
