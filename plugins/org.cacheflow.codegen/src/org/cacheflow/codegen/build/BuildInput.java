package org.cacheflow.codegen.build;

import java.util.Arrays;

import org.cacheflow.analysis.FlatActor;
import org.cacheflow.analysis.FlatFifo;
import org.cacheflow.analysis.FlatGraph;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.codegen.model.Core;
import org.cacheflow.model.ActorKind;
import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * What every pass of {@link CodeModelBuilder} reads and none changes: the plan, its single-rate graph, the
 * vertices that start and end persistent delays, the iteration offsets, and the questions about them several
 * passes ask.
 */
final class BuildInput {

  final ExecutionPlan plan;
  final Srdag srdag;
  final FlatGraph graph;
  final CodePreset strategy;
  /** Whether actor bodies are generated instead of calling the actors' prototypes. */
  final boolean synthetic;
  /** The edges of the single-rate graph; the buffers after them are the persistent delays' states. */
  final int edges;
  /** Per vertex, the persistent delay it starts (an inserted init), -1 for none. */
  private final int[] persistentOfInit;
  /** Per vertex, the persistent delay it ends (an inserted end), -1 for none. */
  private final int[] persistentOfEnd;
  /** Per vertex, its iteration offset in its core's loop (the plan's skew; all 0 unless pipelined). */
  private final int[] skew;
  /** The largest iteration offset: the loops run this many passes more than there are iterations. */
  final int maxSkew;

  BuildInput(ExecutionPlan plan, boolean synthetic) {
    if (plan.cores() > Core.MOST) {
      throw new IllegalArgumentException("at most " + Core.MOST + " cores are supported, got " + plan.cores());
    }
    this.plan = plan;
    this.srdag = plan.srdag();
    this.graph = srdag.flatGraph();
    this.strategy = plan.strategy();
    this.synthetic = synthetic;
    this.edges = srdag.edgeCount();
    this.skew = new int[srdag.vertexCount()];
    int largest = 0;
    for (int v = 0; v < skew.length; v++) {
      skew[v] = plan.skew(v);
      largest = Math.max(largest, skew[v]);
    }
    this.maxSkew = largest;
    persistentOfInit = new int[srdag.vertexCount()];
    persistentOfEnd = new int[srdag.vertexCount()];
    Arrays.fill(persistentOfInit, -1);
    Arrays.fill(persistentOfEnd, -1);
    for (int i = 0; i < srdag.persistentDelayCount(); i++) {
      persistentOfInit[srdag.persistentInit(i)] = i;
      persistentOfEnd[srdag.persistentEnd(i)] = i;
    }
  }

  /** Buffers of edges and of persistent delays' states together (the range of {@link BufferId#index()}). */
  int buffers() {
    return edges + srdag.persistentDelayCount();
  }

  /** The buffer of an index: an edge's below {@link #edges}, else a delay's state. */
  BufferId buffer(int index) {
    return index < edges ? BufferId.edge(index) : BufferId.delayState(index - edges, edges);
  }

  BufferId delayState(int delay) {
    return BufferId.delayState(delay, edges);
  }

  /** The state a vertex starts (an inserted init of a persistent delay), else null. */
  BufferId stateStartedBy(int vertex) {
    return persistentOfInit[vertex] < 0 ? null : delayState(persistentOfInit[vertex]);
  }

  /** The state a vertex ends (an inserted end of a persistent delay), else null. */
  BufferId stateEndedBy(int vertex) {
    return persistentOfEnd[vertex] < 0 ? null : delayState(persistentOfEnd[vertex]);
  }

  int skew(int vertex) {
    return skew[vertex];
  }

  boolean isSpecial(int vertex) {
    ActorKind kind = srdag.vertexKind(vertex);
    return srdag.isInserted(vertex) || kind == ActorKind.FORK || kind == ActorKind.JOIN
        || kind == ActorKind.BROADCAST || kind == ActorKind.ROUNDBUFFER;
  }

  /** Whether the vertex touches data at all (an end of a non-persistent delay does not). */
  boolean isDataUser(int vertex) {
    return !(srdag.vertexKind(vertex) == ActorKind.END && srdag.isInserted(vertex) && persistentOfEnd[vertex] < 0);
  }

  /** Input edges in port order: declaration order for actors, creation (slot) order for inserted vertices. */
  int[] inputs(int vertex) {
    return srdag.portOrderedEdges(vertex, true);
  }

  int[] outputs(int vertex) {
    return srdag.portOrderedEdges(vertex, false);
  }

  /** The edge of a vertex's port (an input or output port), -1 when the port has none. */
  int consumerPortEdge(int vertex, String port, boolean input) {
    for (int e : input ? srdag.incomingEdges(vertex) : srdag.outgoingEdges(vertex)) {
      if ((input ? srdag.edgeTargetPort(e) : srdag.edgeSourcePort(e)).equals(port)) {
        return e;
      }
    }
    return -1;
  }

  /** The nodes of a set of cores, one bit per node. */
  long nodesOf(long cores) {
    long nodes = 0;
    for (int core : Cores.members(cores)) {
      nodes |= 1L << plan.nodeOf(core);
    }
    return nodes;
  }

  /** Slots of a copy-on-write buffer: one under the barrier, else as many as a channel's. */
  int cowSlots() {
    return strategy.barrier() ? 1 : Math.max(1, strategy.slots());
  }

  String label(FlatFifo fifo) {
    return relative(graph.actor(fifo.source()).path()) + "." + fifo.sourcePort() + " -> "
        + relative(graph.actor(fifo.target()).path()) + "." + fifo.targetPort();
  }

  String relative(String path) {
    String top = graph.name() + "/";
    return path.startsWith(top) ? path.substring(top.length()) : path;
  }

  static SourceLocation location(org.cacheflow.model.Located element) {
    String file = element.getFile() == null ? "<unknown>" : element.getFile();
    return new SourceLocation(file, element.getLine(), element.getColumn());
  }

  /** FILE:LINE of the actor's declaration with the file's name only: generated files hold no machine paths. */
  static String origin(FlatActor actor) {
    SourceLocation at = location(actor.origin());
    String file = at.file().replace('\\', '/');
    return new SourceLocation(file.substring(file.lastIndexOf('/') + 1), at.line(), 0).toString();
  }

  String name(int vertex) {
    return relative(srdag.vertexName(vertex));
  }

  String describe(int edge) {
    return name(srdag.edgeSource(edge)) + "." + srdag.edgeSourcePort(edge) + " -> " + name(srdag.edgeTarget(edge))
        + "." + srdag.edgeTargetPort(edge) + ", " + srdag.edgeBytes(edge) + " bytes";
  }
}
