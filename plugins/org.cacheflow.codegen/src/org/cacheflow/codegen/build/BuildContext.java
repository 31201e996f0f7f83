package org.cacheflow.codegen.build;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.cacheflow.codegen.model.Channel;
import org.cacheflow.codegen.model.Core;
import org.cacheflow.codegen.model.CowBuffer;
import org.cacheflow.codegen.model.Sink;
import org.cacheflow.codegen.model.StaticBuffer;
import org.cacheflow.codegen.model.SyntheticActor;
import org.cacheflow.codegen.model.Transfer;
import org.cacheflow.model.ActorKind;
import org.cacheflow.model.Prototype;
import org.cacheflow.model.PrototypeParameter;
import org.cacheflow.model.Refinement;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.analysis.FlatActor;
import org.cacheflow.analysis.FlatFifo;
import org.cacheflow.analysis.FlatGraph;
import org.cacheflow.analysis.FlatPort;
import org.cacheflow.analysis.srdag.Srdag;

/**
 * What the passes of {@link CodeModelBuilder} share: the plan, and what each pass decided for the later ones
 * (every field says which pass fills it), with the queries several passes ask. Roots are the edges whose memory
 * is their own (not aliased into another's) and, after the edges, the states of persistent delays.
 */
final class BuildContext {

  final ExecutionPlan plan;
  final Srdag srdag;
  final FlatGraph graph;
  final Strategy strategy;
  final boolean synthetic;
  final int edges;
  final int roots;
  final int[] persistentOfInit;
  final int[] persistentOfEnd;

  /** Per vertex, its iteration offset in its core's loop (the plan's skew; all 0 unless pipelined). */
  final int[] skew;
  /** The largest iteration offset: the loops run this many passes more than there are iterations. */
  final int maxSkew;

  // CopyOnWriteViews
  /** Edges that are copy-on-write views: the cow index, -1 otherwise. */
  final int[] cowOfView;
  final int[] viewIndex;
  /** Roots that are copy-on-write buffers: the cow index, -1 otherwise. */
  final int[] cowOfRoot;
  final List<CowBuffer> cows = new ArrayList<>();

  // MergeGroups (and CopyOnWriteViews for the views' offsets)
  /** Per edge, the merge root whose memory holds it (-1: its own memory, or it is the root). */
  final int[] host;
  /** Per edge, the byte offset of its first byte in its root's memory (or in its copy-on-write view). */
  final long[] offsetInRoot;
  /** Per divided edge (it lies in pieces of its root), {first byte, byte in the root, bytes}; null otherwise. */
  final long[][][] pieces;
  /** Per merge root, the bytes its group spans (0: not a root hosting others). */
  final long[] groupBytes;

  // SpecialCopies
  /** Per vertex, the copies and zero-fills it makes once aliasing is decided. */
  final List<List<Move>> moves;

  // StorageChoice
  /** Per {@link StorageKind#PIPELINED} root, its copies (Pipelining). */
  final Map<Integer, Integer> pipelinedCopies = new HashMap<>();
  final boolean[] skipWritten;
  final StorageKind[] storage;
  final int[] writerCore;
  final int[] readerCore;
  /** Per root, the cores that write it and that read it, one bit per core. */
  final long[] writerMask;
  final long[] readerMask;
  /** Initial values of the semaphores, by index (StorageChoice, then BufferLayout). */
  final List<Integer> semaphoreStarts = new ArrayList<>();
  /**
   * Data-ready semaphores of shared merge groups: per consuming vertex, the semaphores it waits for before it
   * fires; per writing vertex, those it posts after firing (with what they say).
   */
  final Map<Integer, List<Integer>> readyBefore = new HashMap<>();
  final Map<Integer, List<Integer>> readyAfter = new HashMap<>();
  final Map<Integer, String> readyWhy = new HashMap<>();
  /** Per shared group root, per (from core * 64 + to core), the slot-reuse semaphore. */
  final Map<Integer, Map<Integer, Integer>> slotSemaphores = new HashMap<>();

  // BufferLayout
  final List<StaticBuffer> buffers = new ArrayList<>();
  final List<Channel> channels = new ArrayList<>();
  final List<Transfer> transfers = new ArrayList<>();
  final Map<Integer, Channel> channelOfRoot = new HashMap<>();
  final Map<Integer, Integer> semaphoreOfRoot = new HashMap<>();
  final Map<Integer, Transfer> transferOfRoot = new HashMap<>();
  long heapBytes;

  // Sinks
  final List<Sink> sinks = new ArrayList<>();
  /** Per FIFO whose data validation digests, its sink. */
  final Map<Integer, Integer> sinkOfFifo = new HashMap<>();
  /** Whether the digested FIFOs are those of persistent delays (the graph has no sink actor). */
  boolean delaySinks;

  // CoreSchedules
  List<Core> cores = new ArrayList<>();
  final Map<Integer, SyntheticActor> syntheticActors = new HashMap<>();
  final Set<String> headers = new LinkedHashSet<>();

  // FlagLowering
  /** The semaphores the program keeps (none once they became flags). */
  List<Integer> semaphores;

  /** Roots that init prototypes get as arguments (made when first needed). */
  private Set<Integer> initRoots;

  BuildContext(ExecutionPlan plan, boolean synthetic) {
    this.plan = plan;
    this.srdag = plan.srdag();
    this.graph = srdag.flatGraph();
    this.strategy = plan.strategy();
    this.synthetic = synthetic;
    this.edges = srdag.edgeCount();
    this.roots = edges + srdag.persistentDelayCount();
    this.skew = new int[srdag.vertexCount()];
    int largest = 0;
    for (int v = 0; v < skew.length; v++) {
      skew[v] = plan.skew(v);
      largest = Math.max(largest, skew[v]);
    }
    this.maxSkew = largest;
    if (plan.cores() > 64) {
      throw new IllegalArgumentException("at most 64 cores are supported, got " + plan.cores());
    }
    host = new int[edges];
    Arrays.fill(host, -1);
    offsetInRoot = new long[edges];
    groupBytes = new long[edges];
    pieces = new long[edges][][];
    persistentOfInit = new int[srdag.vertexCount()];
    persistentOfEnd = new int[srdag.vertexCount()];
    Arrays.fill(persistentOfInit, -1);
    Arrays.fill(persistentOfEnd, -1);
    for (int i = 0; i < srdag.persistentDelayCount(); i++) {
      persistentOfInit[srdag.persistentInit(i)] = i;
      persistentOfEnd[srdag.persistentEnd(i)] = i;
    }
    cowOfView = new int[edges];
    viewIndex = new int[edges];
    cowOfRoot = new int[roots];
    Arrays.fill(cowOfView, -1);
    Arrays.fill(cowOfRoot, -1);
    moves = new ArrayList<>(srdag.vertexCount());
    skipWritten = new boolean[roots];
    storage = new StorageKind[roots];
    writerCore = new int[roots];
    readerCore = new int[roots];
    writerMask = new long[roots];
    readerMask = new long[roots];
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

  int consumerPortEdge(int vertex, String port, boolean input) {
    for (int e : input ? srdag.incomingEdges(vertex) : srdag.outgoingEdges(vertex)) {
      if ((input ? srdag.edgeTargetPort(e) : srdag.edgeSourcePort(e)).equals(port)) {
        return e;
      }
    }
    return -1;
  }

  int root(int edge) {
    return host[edge] >= 0 ? host[edge] : edge;
  }

  long rootOffset(int edge) {
    return offsetInRoot[edge];
  }

  long extent(int rootEdge) {
    return groupBytes[rootEdge] > 0 ? groupBytes[rootEdge] : srdag.edgeBytes(rootEdge);
  }

  /** The bytes of an edge, or of a persistent delay's state. */
  long bufferBytes(int edgeOrState) {
    return edgeOrState < edges ? srdag.edgeBytes(edgeOrState) : rootBytes(edgeOrState);
  }

  /** Roots a vertex reads (index 0) and writes (index 1), in first-touch order. */
  int[][] uses(int vertex) {
    LinkedHashSet<Integer> reads = new LinkedHashSet<>();
    LinkedHashSet<Integer> writes = new LinkedHashSet<>();
    if (isSpecial(vertex)) {
      for (Move move : moves.get(vertex)) {
        if (move.source() >= 0) {
          reads.add(move.source() >= edges ? move.source() : root(move.source()));
        }
        writes.add(move.destination() >= edges ? move.destination() : root(move.destination()));
      }
    } else {
      for (int e : inputs(vertex)) {
        reads.add(root(e));
      }
      for (int e : outputs(vertex)) {
        writes.add(root(e));
      }
    }
    return new int[][] {reads.stream().mapToInt(Integer::intValue).toArray(),
        writes.stream().mapToInt(Integer::intValue).toArray()};
  }

  /** The nodes of a set of cores, one bit per node. */
  long nodesOf(long cores) {
    long nodes = 0;
    for (int c = 0; c < 64; c++) {
      if ((cores >>> c & 1) != 0) {
        nodes |= 1L << plan.nodeOf(c);
      }
    }
    return nodes;
  }

  static String coreList(long mask) {
    StringBuilder text = new StringBuilder();
    for (int c = 0; c < 64; c++) {
      if ((mask >>> c & 1) != 0) {
        text.append(text.length() == 0 ? "" : ", ").append(c);
      }
    }
    return text.toString();
  }

  int newSemaphore(int start) {
    semaphoreStarts.add(start);
    return semaphoreStarts.size() - 1;
  }

  /** Slots of a copy-on-write buffer: one under the barrier, else as many as a channel's. */
  int cowSlots() {
    return strategy.barrier() ? 1 : Math.max(1, strategy.slots());
  }

  /** Slots of the merge group of root r that several cores use (the plan's choice, {@link ExecutionPlan#groupSlots}). */
  int groupSlots(int r) {
    return plan.groupSlots(r);
  }

  /** Roots that init prototypes get as arguments: they are used before the loop. */
  Set<Integer> rootsOfInitCalls() {
    if (initRoots == null) {
      initRoots = findRootsOfInitCalls();
    }
    return initRoots;
  }

  private Set<Integer> findRootsOfInitCalls() {
    Set<Integer> result = new java.util.HashSet<>();
    if (synthetic) {
      return result;
    }
    for (int v = 0; v < srdag.vertexCount(); v++) {
      if (isSpecial(v)) {
        continue;
      }
      FlatActor actor = graph.actor(srdag.vertexActor(v));
      Refinement refinement = actor.origin().getRefinement();
      Prototype prototype = refinement == null ? null : refinement.getInitPrototype();
      if (prototype == null) {
        continue;
      }
      for (PrototypeParameter parameter : prototype.getParameters()) {
        FlatPort port = parameter.isConfig() ? null : actor.port(parameter.getName());
        int e = port == null ? -1 : consumerPortEdge(v, port.name(), port.isInput());
        if (e >= 0) {
          result.add(root(e));
        }
      }
    }
    return result;
  }

  /** The core that reads a buffer (its first touch puts the pages in that core's memory), else the writer. */
  int homeCore(int r) {
    return readerCore[r] < 64 ? readerCore[r] : writerCore[r] < 64 ? writerCore[r] : 0;
  }

  long rootBytes(int r) {
    if (r >= edges) {
      // the tokens that leave the delay's end and those its init hands out next iteration: equal, but each
      // rounded to whole bytes on its own when tokens are not whole bytes
      long bytes = 1;
      for (int e : srdag.incomingEdges(srdag.persistentEnd(r - edges))) {
        bytes = Math.max(bytes, srdag.edgeBytes(e));
      }
      for (int e : srdag.outgoingEdges(srdag.persistentInit(r - edges))) {
        bytes = Math.max(bytes, srdag.edgeBytes(e));
      }
      return bytes;
    }
    return Math.max(1, extent(r));
  }

  String rootName(int r) {
    return r >= edges ? "delay" + (r - edges) : "buf" + r;
  }

  String describeRoot(int r) {
    if (r >= edges) {
      FlatFifo fifo = graph.fifo(srdag.vertexFifo(srdag.persistentEnd(r - edges)));
      return "persistent delay of " + label(fifo);
    }
    StringBuilder text = new StringBuilder(describe(r));
    return text.toString();
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
