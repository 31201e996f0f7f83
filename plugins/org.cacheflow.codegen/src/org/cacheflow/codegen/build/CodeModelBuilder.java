package org.cacheflow.codegen.build;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.cacheflow.codegen.model.Argument;
import org.cacheflow.codegen.model.BufferRef;
import org.cacheflow.codegen.model.Channel;
import org.cacheflow.codegen.model.CodeProject;
import org.cacheflow.codegen.model.CopyKind;
import org.cacheflow.codegen.model.Core;
import org.cacheflow.codegen.model.CowBuffer;
import org.cacheflow.codegen.model.Sink;
import org.cacheflow.codegen.model.Statement;
import org.cacheflow.codegen.model.StaticBuffer;
import org.cacheflow.codegen.model.SyntheticActor;
import org.cacheflow.codegen.model.Transfer;
import org.cacheflow.model.ActorKind;
import org.cacheflow.model.MemoryAnnotation;
import org.cacheflow.model.Prototype;
import org.cacheflow.model.PrototypeDirection;
import org.cacheflow.model.PrototypeParameter;
import org.cacheflow.model.Refinement;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.plan.analysis.FlatActor;
import org.cacheflow.plan.analysis.FlatFifo;
import org.cacheflow.plan.analysis.FlatGraph;
import org.cacheflow.plan.analysis.FlatPort;
import org.cacheflow.plan.classify.Classifier;
import org.cacheflow.plan.srdag.SpecialCopy;
import org.cacheflow.plan.srdag.Srdag;

/**
 * Turns a plan into the code model: which buffers exist and where every single-rate edge lives, what each
 * vertex does (an actor call, copies, nothing when aliased), and the synchronisation around every buffer
 * that crosses cores. All decisions are here; printers only print.
 *
 * <p>
 * Steps, in order: (1) the plan's copy-on-write views; (2) the plan's aliasing: every buffer of a memory-script
 * merge group lives in its root's memory at the merger's offset; (3) each vertex's actions (a special vertex's
 * copy disappears when source and destination are the same bytes) and the buffers ("roots") they read and
 * write; (4) each root's storage: a static array when one core uses it, else a channel (or, under the
 * baseline, a static array signalled with a semaphore), a merge group shared by several cores (k slots,
 * semaphores per cross-core edge and per pair of cores for slot reuse), a copy-on-write buffer, or the
 * double-buffered state of a persistent delay; (5) per core, the vertices in plan order with reserve/acquire
 * before a root's first use on that core and commit/release after its last use; (6) except under the
 * baseline, the semaphores become rdy-ack flags, coalesced ({@link FlagSignalling}).
 *
 * <p>
 * On several nodes (one SPMD program over MPI, rank = node), a buffer written on one node and read on another is
 * an inter-node {@link Transfer} (persistent MPI requests, k slots on each side); every other mechanism
 * (semaphores, flags, channels, merge groups, copy-on-write views, delay states, the iteration barrier) stays
 * within one node, and a plan that would need one across nodes is refused with the reason.
 */
public final class CodeModelBuilder {

  private enum Storage { STATIC, SEMAPHORE, CHANNEL, COW, DOUBLE, SHARED, TRANSFER }

  /** A copy or zero-fill a special vertex does; source == -1 means zero-fill. */
  private record Move(int source, long sourceOffset, int destination, long destinationOffset, long bytes) {
  }

  private final ExecutionPlan plan;
  private final Srdag srdag;
  private final FlatGraph graph;
  private final Strategy strategy;
  private final boolean synthetic;
  private final int edges;
  private final int roots;

  /** Per edge, the merge root whose memory holds it (-1: its own memory, or it is the root). */
  private final int[] host;
  /** Per edge, the byte offset of its first byte in its root's memory (or in its copy-on-write view). */
  private final long[] offsetInRoot;
  /** Per divided edge (it lies in pieces of its root), {first byte, byte in the root, bytes}; null otherwise. */
  private final long[][][] pieces;
  /** Per merge root, the bytes its group spans (0: not a root hosting others). */
  private final long[] groupBytes;
  private final long[] userCores;
  private final int[] persistentOfInit;
  private final int[] persistentOfEnd;
  /** Edges that are copy-on-write views: the cow index, -1 otherwise. */
  private final int[] cowOfView;
  private final int[] viewIndex;
  /** Roots that are copy-on-write buffers: the cow index, -1 otherwise. */
  private final int[] cowOfRoot;
  private final List<CowBuffer> cows = new ArrayList<>();
  private final List<List<Move>> moves;
  private final boolean[] skipWritten;
  private final Storage[] storage;
  private final int[] writerCore;
  private final int[] readerCore;
  /** Per root, the cores that write it and that read it, one bit per core. */
  private final long[] writerMask;
  private final long[] readerMask;
  private final Map<Integer, Channel> channelOfRoot = new HashMap<>();
  private final Map<Integer, Integer> semaphoreOfRoot = new HashMap<>();
  private final Map<Integer, Transfer> transferOfRoot = new HashMap<>();
  /** Initial values of the semaphores, by index. */
  private final List<Integer> semaphoreStarts = new ArrayList<>();
  /**
   * Data-ready semaphores of shared merge groups: per consuming vertex, the semaphores it waits for before it
   * fires; per writing vertex, those it posts after firing (with what they say).
   */
  private final Map<Integer, List<Integer>> readyBefore = new HashMap<>();
  private final Map<Integer, List<Integer>> readyAfter = new HashMap<>();
  private final Map<Integer, String> readyWhy = new HashMap<>();
  /** Per shared group root, per (from core * 64 + to core), the slot-reuse semaphore. */
  private final Map<Integer, Map<Integer, Integer>> slotSemaphores = new HashMap<>();
  /** Per actor, its firings (made when synthetic bodies first need them). */
  private Map<Integer, List<Integer>> firingsOfActor;
  private final Map<Integer, SyntheticActor> syntheticActors = new HashMap<>();
  private final Set<String> headers = new LinkedHashSet<>();
  /** Roots that init prototypes get as arguments (made when first needed). */
  private Set<Integer> initRoots;
  /** Whether the digested FIFOs are those of persistent delays (the graph has no sink actor). */
  private boolean delaySinks;

  private CodeModelBuilder(ExecutionPlan plan, boolean synthetic) {
    this.plan = plan;
    this.srdag = plan.srdag();
    this.graph = srdag.flatGraph();
    this.strategy = plan.strategy();
    this.synthetic = synthetic;
    this.edges = srdag.edgeCount();
    this.roots = edges + srdag.persistentDelayCount();
    if (plan.cores() > 64) {
      throw new IllegalArgumentException("at most 64 cores are supported, got " + plan.cores());
    }
    host = new int[edges];
    Arrays.fill(host, -1);
    offsetInRoot = new long[edges];
    groupBytes = new long[edges];
    pieces = new long[edges][][];
    userCores = new long[roots];
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
    storage = new Storage[roots];
    writerCore = new int[roots];
    readerCore = new int[roots];
    writerMask = new long[roots];
    readerMask = new long[roots];
  }

  /**
   * Builds the code model.
   *
   * @param plan mapping, schedule and strategy
   * @param synthetic generate actor bodies instead of calling the actors' prototypes
   * @throws InputException when an actor cannot be called (no prototype, a prototype parameter without a port
   *     or config value)
   */
  public static CodeProject build(ExecutionPlan plan, boolean synthetic) {
    return new CodeModelBuilder(plan, synthetic).run();
  }

  private CodeProject run() {
    topologicalOrder(srdag); // fails on a cycle
    for (int e = 0; e < edges; e++) {
      if (isDataUser(srdag.edgeSource(e))) {
        userCores[e] |= 1L << plan.coreOf(srdag.edgeSource(e));
      }
      if (isDataUser(srdag.edgeTarget(e))) {
        userCores[e] |= 1L << plan.coreOf(srdag.edgeTarget(e));
      }
    }
    copyOnWriteViews();
    for (int e = 0; e < edges; e++) {
      int r = plan.mergeRoot(e);
      if (r >= 0 && cowOfView[e] < 0) {
        offsetInRoot[e] = plan.mergeOffset(e);
        pieces[e] = plan.mergePieces(e);
        if (r == e) {
          groupBytes[e] = plan.groupBytes(e);
        } else {
          host[e] = r;
        }
      }
    }
    for (int v = 0; v < srdag.vertexCount(); v++) {
      List<Move> all = movesOf(v);
      List<Move> needed = new ArrayList<>(all.size());
      List<Move> clamped = new ArrayList<>(all.size());
      for (Move move : all) {
        Move live = liveOnly(v, move);
        if (live != null) {
          clamped.addAll(clamped(live));
        }
      }
      for (Move move : clamped) {
        if (move.destination() < edges && cowOfView[move.destination()] >= 0) {
          continue;
        }
        if (touchesDivided(move)) {
          needed.addAll(piecewise(move));
        } else if (!inPlace(move)) {
          needed.add(move);
        }
      }
      moves.add(needed);
    }
    for (int e = 0; e < edges; e++) {
      if (pieces[e] != null && (!isSpecial(srdag.edgeSource(e)) || !isSpecial(srdag.edgeTarget(e)))) {
        throw new IllegalStateException(describe(e) + " lies in pieces but an actor accesses it as one block");
      }
    }
    decideStorage();
    return assemble();
  }

  /** Kahn's algorithm, always taking the lowest-numbered ready vertex first: deterministic. */
  static int[] topologicalOrder(Srdag srdag) {
    int n = srdag.vertexCount();
    int[] pending = new int[n];
    for (int e = 0; e < srdag.edgeCount(); e++) {
      pending[srdag.edgeTarget(e)]++;
    }
    java.util.PriorityQueue<Integer> ready = new java.util.PriorityQueue<>();
    for (int v = 0; v < n; v++) {
      if (pending[v] == 0) {
        ready.add(v);
      }
    }
    int[] order = new int[n];
    int count = 0;
    while (!ready.isEmpty()) {
      int v = ready.poll();
      order[count++] = v;
      for (int e : srdag.outgoingEdges(v)) {
        if (--pending[srdag.edgeTarget(e)] == 0) {
          ready.add(srdag.edgeTarget(e));
        }
      }
    }
    if (count != n) {
      throw new IllegalStateException("the single-rate graph has a cycle");
    }
    return order;
  }

  // ---------------------------------------------------------------------------------------------------
  // Vertices

  private boolean isSpecial(int vertex) {
    ActorKind kind = srdag.vertexKind(vertex);
    return srdag.isInserted(vertex) || kind == ActorKind.FORK || kind == ActorKind.JOIN
        || kind == ActorKind.BROADCAST || kind == ActorKind.ROUNDBUFFER;
  }

  /** Whether the vertex touches data at all (an end of a non-persistent delay does not). */
  private boolean isDataUser(int vertex) {
    return !(srdag.vertexKind(vertex) == ActorKind.END && srdag.isInserted(vertex) && persistentOfEnd[vertex] < 0);
  }

  /** Input edges in port order: declaration order for actors, creation (slot) order for inserted vertices. */
  private int[] inputs(int vertex) {
    return srdag.portOrderedEdges(vertex, true);
  }

  private int[] outputs(int vertex) {
    return srdag.portOrderedEdges(vertex, false);
  }

  private int consumerPortEdge(int vertex, String port, boolean input) {
    for (int e : input ? srdag.incomingEdges(vertex) : srdag.outgoingEdges(vertex)) {
      if ((input ? srdag.edgeTargetPort(e) : srdag.edgeSourcePort(e)).equals(port)) {
        return e;
      }
    }
    return -1;
  }

  // ---------------------------------------------------------------------------------------------------
  // (1) the plan's copy-on-write views, (2) its merge groups

  /**
   * The plan's copy-on-write views: each view edge shows a range of its source's memory (a merge group's, or a
   * buffer's own), which becomes a copy-on-write buffer its writer core publishes after its last use there.
   */
  private void copyOnWriteViews() {
    Map<Integer, List<Integer>> viewsOf = new java.util.TreeMap<>();
    for (int e = 0; e < edges; e++) {
      if (plan.copyOnWrite(e)) {
        int source = plan.viewSource(e);
        if (source < 0) {
          throw new IllegalStateException("copy-on-write view " + describe(e) + " has no source memory");
        }
        viewsOf.computeIfAbsent(source, k -> new ArrayList<>()).add(e);
      }
    }
    for (Map.Entry<Integer, List<Integer>> entry : viewsOf.entrySet()) {
      int source = entry.getKey();
      List<Integer> views = entry.getValue();
      int index = cows.size();
      long bytes = plan.mergeRoot(source) == source ? plan.groupBytes(source) : srdag.edgeBytes(source);
      List<CowBuffer.Range> ranges = new ArrayList<>();
      for (int i = 0; i < views.size(); i++) {
        int e = views.get(i);
        cowOfView[e] = index;
        viewIndex[e] = i;
        offsetInRoot[e] = 0; // the view shows its range from its first byte
        ranges.add(new CowBuffer.Range(plan.viewOffset(e), srdag.edgeBytes(e)));
      }
      cows.add(new CowBuffer(index, "cow" + source, bytes, views.size(), ranges, sharedSlots(),
          "memory of " + describe(source)));
      cowOfRoot[source] = index;
    }
  }

  private int root(int edge) {
    return host[edge] >= 0 ? host[edge] : edge;
  }

  private long rootOffset(int edge) {
    return offsetInRoot[edge];
  }

  private long extent(int rootEdge) {
    return groupBytes[rootEdge] > 0 ? groupBytes[rootEdge] : srdag.edgeBytes(rootEdge);
  }

  /**
   * The move cut to its destination's size, and to its source's with zeros for the rest. Sizes are rounded up
   * to whole bytes per buffer, so with tokens that are not whole bytes the slices a fork or join moves (each
   * rounded on its own) can add up to more or less than the buffer they come from or go to; zeros keep what a
   * slice lacks the same under every strategy.
   */
  private List<Move> clamped(Move move) {
    long bytes = Math.min(move.bytes(), bufferBytes(move.destination()) - move.destinationOffset());
    if (bytes <= 0) {
      return List.of();
    }
    long available = move.source() < 0 ? bytes
        : Math.max(0, Math.min(bytes, bufferBytes(move.source()) - move.sourceOffset()));
    if (available == move.bytes()) {
      return List.of(move);
    }
    List<Move> parts = new ArrayList<>(2);
    if (available > 0) {
      parts.add(new Move(move.source(), move.sourceOffset(), move.destination(), move.destinationOffset(), available));
    }
    if (available < bytes) {
      parts.add(new Move(-1, 0, move.destination(), move.destinationOffset() + available, bytes - available));
    }
    return parts;
  }

  /**
   * The part of a fork's, join's, broadcast's or round buffer's copy that its destination's consumer reads
   * ({@link ExecutionPlan#liveRange}), null when it reads none of it; other vertices' moves unchanged.
   */
  private Move liveOnly(int vertex, Move move) {
    if (srdag.isInserted(vertex) && (srdag.vertexKind(vertex) == ActorKind.INIT
        || srdag.vertexKind(vertex) == ActorKind.END) || move.destination() >= edges) {
      return move;
    }
    long[] live = plan.liveRange(move.destination());
    long from = Math.max(move.destinationOffset(), live[0]);
    long to = Math.min(move.destinationOffset() + move.bytes(), live[1]);
    if (from >= to) {
      return null;
    }
    long skipped = from - move.destinationOffset();
    return new Move(move.source(), move.source() < 0 ? 0 : move.sourceOffset() + skipped, move.destination(), from,
        to - from);
  }

  /** The bytes of an edge, or of a persistent delay's state. */
  private long bufferBytes(int edgeOrState) {
    return edgeOrState < edges ? srdag.edgeBytes(edgeOrState) : rootBytes(edgeOrState);
  }

  private boolean touchesDivided(Move move) {
    return move.source() >= 0 && move.source() < edges && pieces[move.source()] != null
        || move.destination() < edges && pieces[move.destination()] != null;
  }

  /**
   * Where byte {@code offset} of an edge lies: {root, byte in the root's memory counted from the root's own
   * first byte, bytes from there that stay contiguous}.
   */
  private long[] locate(int edge, long offset) {
    if (edge >= edges) {
      return new long[] {edge, offset, Long.MAX_VALUE};
    }
    if (pieces[edge] == null) {
      int r = root(edge);
      return new long[] {r, rootOffset(edge) - rootOffset(r) + offset, srdag.edgeBytes(edge) - offset};
    }
    int r = root(edge);
    for (long[] piece : pieces[edge]) {
      if (offset >= piece[0] && offset < piece[0] + piece[2]) {
        return new long[] {r, piece[1] - rootOffset(r) + offset - piece[0], piece[0] + piece[2] - offset};
      }
    }
    throw new IllegalStateException("byte " + offset + " of " + describe(edge) + " lies in none of its pieces");
  }

  /**
   * A copy from or into a divided buffer, cut where pieces end and addressed in the roots' memory; the parts
   * whose source and destination are the same bytes are left out.
   */
  private List<Move> piecewise(Move move) {
    List<Move> parts = new ArrayList<>();
    long done = 0;
    while (done < move.bytes()) {
      long[] to = locate(move.destination(), move.destinationOffset() + done);
      long length = Math.min(move.bytes() - done, to[2]);
      long[] from = null;
      if (move.source() >= 0) {
        from = locate(move.source(), move.sourceOffset() + done);
        length = Math.min(length, from[2]);
      }
      Move part = new Move(from == null ? -1 : (int) from[0], from == null ? 0 : from[1], (int) to[0], to[1], length);
      if (part.source() < 0 || part.source() >= edges || part.destination() >= edges || !inPlace(part)) {
        parts.add(part);
      }
      done += length;
    }
    return parts;
  }

  /**
   * Whether a copy is already done by the memory layout: source and destination are the same bytes of one
   * root. Partly overlapping ranges would be a merge the merger must not make.
   */
  private boolean inPlace(Move move) {
    if (move.source() < 0 || move.source() >= edges || move.destination() >= edges
        || root(move.source()) != root(move.destination())) {
      return false;
    }
    long from = rootOffset(move.source()) + move.sourceOffset();
    long to = rootOffset(move.destination()) + move.destinationOffset();
    if (from != to && from < to + move.bytes() && to < from + move.bytes()) {
      throw new IllegalStateException("merged buffers " + describe(move.source()) + " and "
          + describe(move.destination()) + " overlap without being the same bytes");
    }
    return from == to;
  }

  /** The copies a special vertex still has to make once aliasing is decided (nothing for actor firings). */
  private List<Move> movesOf(int vertex) {
    if (!isSpecial(vertex)) {
      return List.of();
    }
    int[] in = inputs(vertex);
    int[] out = outputs(vertex);
    List<Move> result = new ArrayList<>();
    ActorKind kind = srdag.vertexKind(vertex);
    if (srdag.isInserted(vertex) && kind == ActorKind.INIT) {
      int state = persistentOfInit[vertex];
      for (int e : out) {
        result.add(new Move(state < 0 ? -1 : edges + state, 0, e, 0, srdag.edgeBytes(e)));
      }
      return result;
    }
    if (srdag.isInserted(vertex) && kind == ActorKind.END) {
      int state = persistentOfEnd[vertex];
      if (state >= 0 && in.length == 1) {
        result.add(new Move(in[0], 0, edges + state, 0, srdag.edgeBytes(in[0])));
      }
      return result;
    }
    if (!Classifier.isCopying(kind)) {
      throw new IllegalStateException("special vertex of kind " + kind);
    }
    for (SpecialCopy copy : SpecialCopy.of(srdag, vertex)) {
      result.add(new Move(copy.source(), copy.sourceOffset(), copy.destination(), copy.destinationOffset(),
          copy.bytes()));
    }
    return result;
  }

  // ---------------------------------------------------------------------------------------------------
  // (3) uses and (4) storage

  /** Roots a vertex reads (index 0) and writes (index 1), in first-touch order. */
  private int[][] uses(int vertex) {
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

  private void decideStorage() {
    long[] writers = writerMask;
    long[] readers = readerMask;
    for (int v = 0; v < srdag.vertexCount(); v++) {
      long core = 1L << plan.coreOf(v);
      int[][] use = uses(v);
      for (int r : use[0]) {
        readers[r] |= core;
      }
      for (int r : use[1]) {
        writers[r] |= core;
      }
      for (Move move : moves.get(v)) {
        if (move.source() >= 0 && move.destination() < edges && plan.copyKind(move.destination(), move.bytes(),
            true) == CopyKind.SKIP) {
          skipWritten[root(move.destination())] = true;
        }
      }
    }
    // the edges of every merge group, its root's included
    Map<Integer, List<Integer>> members = new HashMap<>();
    for (int e = 0; e < edges; e++) {
      if (host[e] >= 0 || groupBytes[e] > 0) {
        members.computeIfAbsent(root(e), k -> new ArrayList<>()).add(e);
      }
    }
    for (int r = 0; r < roots; r++) {
      writerCore[r] = Long.numberOfTrailingZeros(writers[r]);
      readerCore[r] = Long.numberOfTrailingZeros(readers[r]);
      long all = writers[r] | readers[r];
      if (Long.bitCount(nodesOf(all)) > 1) {
        storage[r] = crossingStorage(r, members);
        continue;
      }
      if (r >= edges) {
        storage[r] = strategy.barrier() || Long.bitCount(all) <= 1 ? Storage.DOUBLE : Storage.CHANNEL;
      } else if (r < edges && host[r] >= 0) {
        storage[r] = null; // lives in its root
      } else if (cowOfRoot[r] >= 0 || cowOfView[r] >= 0) {
        storage[r] = Storage.COW;
      } else if (Long.bitCount(all) <= 1) {
        storage[r] = Storage.STATIC;
      } else if (groupBytes[r] > 0) {
        storage[r] = Storage.SHARED;
        sharedGroup(r, all, members);
      } else {
        if (Long.bitCount(writers[r]) != 1 || Long.bitCount(readers[r]) != 1) {
          throw new IllegalStateException("buffer " + describe(r) + " is written on cores " + Long.toBinaryString(
              writers[r]) + " and read on cores " + Long.toBinaryString(readers[r]));
        }
        storage[r] = strategy.barrier() ? Storage.SEMAPHORE : Storage.CHANNEL;
      }
    }
  }

  /** The nodes of a set of cores, one bit per node. */
  private long nodesOf(long cores) {
    long nodes = 0;
    for (int c = 0; c < 64; c++) {
      if ((cores >>> c & 1) != 0) {
        nodes |= 1L << plan.nodeOf(c);
      }
    }
    return nodes;
  }

  /**
   * The storage of a root used on several nodes: an inter-node transfer when it is a buffer of its own with one
   * writer core and one reader core; anything else would need shared memory across nodes, and the plan is
   * refused with what it asks for (the plan must give buffers crossing nodes the SEND strategy and keep merge
   * groups, copy-on-write views and delay ends on one node).
   */
  private Storage crossingStorage(int r, Map<Integer, List<Integer>> members) {
    String where = " (written on cores " + cores(writerMask[r]) + ", read on cores " + cores(readerMask[r])
        + ", nodes " + nodeList(writerMask[r] | readerMask[r]) + ")";
    String cause;
    if (r >= edges) {
      cause = "the " + describeRoot(r) + " crosses nodes" + where + ": a delay's end and its init must run on one"
          + " node";
    } else if (cowOfRoot[r] >= 0 || cowOfView[r] >= 0) {
      cause = "buffer " + describeRoot(r) + " is a copy-on-write " + (cowOfRoot[r] >= 0 ? "source" : "view")
          + " used on several nodes" + where + ": copy-on-write views need shared memory";
    } else if (groupBytes[r] > 0) {
      List<String> edgesOfGroup = new ArrayList<>();
      for (int e : members.getOrDefault(r, List.of())) {
        edgesOfGroup.add(describe(e));
      }
      cause = "the merge group of " + describe(r) + " is used on several nodes" + where
          + ": aliased buffers need shared memory (the group: " + String.join("; ", edgesOfGroup) + ")";
    } else if (plan.channel(r)) {
      cause = "the plan gives buffer " + describeRoot(r) + ", which crosses nodes" + where + ", a shared-memory"
          + " channel (CHANNEL): buffers crossing nodes are sent (SEND)";
    } else if (Long.bitCount(writerMask[r]) != 1 || Long.bitCount(readerMask[r]) != 1) {
      cause = "buffer " + describeRoot(r) + " crosses nodes but is not written on one core and read on one other"
          + where;
    } else if (rootsOfInitCalls().contains(r)) {
      cause = "buffer " + describeRoot(r) + " crosses nodes" + where + " but an actor's init prototype takes it: it"
          + " exists before the first iteration's message";
    } else if (rootBytes(r) > Integer.MAX_VALUE) {
      cause = "buffer " + describeRoot(r) + " crosses nodes but its " + rootBytes(r)
          + " bytes exceed MPI's count type (int, at most " + Integer.MAX_VALUE + " bytes per message)";
    } else {
      return Storage.TRANSFER;
    }
    throw new InputException(null, "cannot generate for " + plan.nodes() + " nodes: " + cause);
  }

  private String nodeList(long cores) {
    long nodes = nodesOf(cores);
    StringBuilder text = new StringBuilder();
    for (int n = 0; n < 64; n++) {
      if ((nodes >>> n & 1) != 0) {
        text.append(text.length() == 0 ? "" : ", ").append(n);
      }
    }
    return text.toString();
  }

  /**
   * Semaphores of a merge group several cores use: one per edge of the group whose producer and consumer run
   * on different cores (the consumer waits until the data is there), and, when cores pipeline iterations
   * through k slots, one per ordered pair of user cores, starting at k: a core's first use of the group in
   * iteration i waits until every other core has finished iteration i - k with it, whose slot it reuses.
   */
  private void sharedGroup(int r, long users, Map<Integer, List<Integer>> members) {
    Map<Long, Integer> readyOfPair = new HashMap<>();
    for (int e : members.getOrDefault(r, List.of())) {
      int target = srdag.edgeTarget(e);
      if (root(e) != r || !isDataUser(target) || passesThrough(target)) {
        continue; // a vertex that does nothing at run time waits for nothing
      }
      for (int origin : writers(e)) {
        if (isDataUser(origin) && plan.coreOf(origin) != plan.coreOf(target)) {
          // one semaphore per writer and reader, however many edges (or pass-through vertices) lie between
          long key = (long) origin * srdag.vertexCount() + target;
          if (!readyOfPair.containsKey(key)) {
            int semaphore = newSemaphore(0);
            readyOfPair.put(key, semaphore);
            readyAfter.computeIfAbsent(origin, k -> new ArrayList<>()).add(semaphore);
            readyBefore.computeIfAbsent(target, k -> new ArrayList<>()).add(semaphore);
            readyWhy.put(semaphore, "data of " + describe(e) + (origin == srdag.edgeSource(e) ? ""
                : ", written by " + name(origin)));
          }
        }
      }
    }
    if (strategy.barrier()) {
      return;
    }
    Map<Integer, Integer> pairs = new java.util.TreeMap<>();
    for (int from = 0; from < 64; from++) {
      for (int to = 0; to < 64; to++) {
        if (from != to && (users >>> from & 1) != 0 && (users >>> to & 1) != 0) {
          pairs.put(from * 64 + to, newSemaphore(sharedSlots()));
        }
      }
    }
    slotSemaphores.put(r, pairs);
  }

  /**
   * Whether a vertex does nothing at run time: a special vertex whose every copy vanished (its outputs are its
   * inputs' bytes), with no delay state, digest or copy-on-write publication.
   */
  private boolean passesThrough(int vertex) {
    return isSpecial(vertex) && moves.get(vertex).isEmpty() && persistentOfInit[vertex] < 0
        && persistentOfEnd[vertex] < 0 && !touchesCopyOnWrite(vertex);
  }

  /** Whether a vertex reads or writes copy-on-write memory (its publication or a view's release may be its). */
  private boolean touchesCopyOnWrite(int vertex) {
    for (int[] edges : List.of(srdag.incomingEdges(vertex), srdag.outgoingEdges(vertex))) {
      for (int e : edges) {
        int r = root(e);
        if (cowOfRoot[r] >= 0 || (r < cowOfView.length && cowOfView[r] >= 0) || cowOfView[e] >= 0) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * The vertices that wrote the bytes of an edge: its source, or, through a source that passes them through
   * unchanged, that vertex's writers. Waiting for the pass-through vertex itself would add a hand-off between
   * cores for nothing -- or two, when it runs on the other core than both the writer and the reader.
   */
  private Set<Integer> writers(int edge) {
    Set<Integer> found = new LinkedHashSet<>();
    java.util.ArrayDeque<Integer> work = new java.util.ArrayDeque<>(List.of(edge));
    Set<Integer> seen = new java.util.HashSet<>();
    while (!work.isEmpty()) {
      int e = work.pop();
      if (!seen.add(e)) {
        continue;
      }
      int source = srdag.edgeSource(e);
      if (passesThrough(source) && srdag.incomingEdges(source).length > 0) {
        for (int in : srdag.incomingEdges(source)) {
          work.push(in);
        }
      } else {
        found.add(source);
      }
    }
    return found;
  }

  private static String cores(long mask) {
    StringBuilder text = new StringBuilder();
    for (int c = 0; c < 64; c++) {
      if ((mask >>> c & 1) != 0) {
        text.append(text.length() == 0 ? "" : ", ").append(c);
      }
    }
    return text.toString();
  }

  private int newSemaphore(int start) {
    semaphoreStarts.add(start);
    return semaphoreStarts.size() - 1;
  }

  /** Slots of a merge group shared by cores: one under the barrier, else as many as a channel's. */
  private int sharedSlots() {
    return strategy.barrier() ? 1 : Math.max(1, strategy.slots());
  }

  // ---------------------------------------------------------------------------------------------------
  // (5) assembly

  private CodeProject assemble() {
    List<StaticBuffer> buffers = new ArrayList<>();
    List<Channel> channels = new ArrayList<>();
    List<Transfer> transfers = new ArrayList<>();
    Map<Integer, long[]> pooled = new HashMap<>();
    long[] poolBytes = pools(pooled);
    for (int r = 0; r < roots; r++) {
      if (storage[r] == null) {
        continue;
      }
      long bytes = rootBytes(r);
      long[] place = pooled.get(r);
      switch (storage[r]) {
        case STATIC, SEMAPHORE -> buffers.add(place == null
            ? new StaticBuffer(rootName(r), bytes, 1, homeCore(r), describeRoot(r))
            : new StaticBuffer(rootName(r), bytes, 1, homeCore(r), describeRoot(r), poolName((int) place[0]),
                place[1]));
        case DOUBLE -> buffers.add(new StaticBuffer(rootName(r), bytes, 2, homeCore(r), describeRoot(r)));
        case SHARED -> buffers.add(new StaticBuffer(rootName(r), bytes, sharedSlots(), homeCore(r), describeRoot(r)
            + " (merge group used by cores " + cores(writerMask[r] | readerMask[r]) + ")"));
        case TRANSFER -> {
          int slots = transferSlots(r);
          Transfer transfer = new Transfer(transfers.size(), rootName(r), rootName(r) + "_send", rootName(r), bytes,
              slots, writerCore[r], readerCore[r], plan.nodeOf(writerCore[r]), plan.nodeOf(readerCore[r]),
              transfers.size(), describeRoot(r));
          transfers.add(transfer);
          transferOfRoot.put(r, transfer);
          buffers.add(new StaticBuffer(transfer.sendBuffer(), bytes, slots, writerCore[r], describeRoot(r)
              + " (send slots of transfer to node " + transfer.receiverNode() + ")"));
          buffers.add(new StaticBuffer(transfer.receiveBuffer(), bytes, slots, readerCore[r], describeRoot(r)
              + " (receive slots of transfer from node " + transfer.senderNode() + ")"));
        }
        case CHANNEL -> {
          Channel channel = new Channel(channels.size(), "ch_" + rootName(r), writerCore[r], readerCore[r],
              r >= edges ? Math.max(2, strategy.slots()) : Math.max(1, plan.slots(r)), bytes, r >= edges, describeRoot(r));
          channels.add(channel);
          channelOfRoot.put(r, channel);
        }
        default -> {
        }
      }
      if (storage[r] == Storage.SEMAPHORE) {
        semaphoreOfRoot.put(r, newSemaphore(0));
      }
    }
    for (int c = 0; c < poolBytes.length; c++) {
      if (poolBytes[c] > 0) {
        final int core = c;
        long members = pooled.values().stream().filter(place -> place[0] == core).count();
        buffers.add(new StaticBuffer(poolName(c), poolBytes[c], 1, c, members + " buffers of core " + c
            + " whose lifetimes within an iteration do not overlap share it"));
      }
    }
    List<Sink> sinks = new ArrayList<>();
    Map<Integer, Integer> sinkOfFifo = sinks(sinks);
    List<Core> cores = new ArrayList<>();
    long heapBytes = 16L << 20;
    for (StaticBuffer buffer : buffers) {
      if (!buffer.allocated()) {
        continue;
      }
      // address space only (pages are touched when allocated): twice the block, plus the chunk a block
      // spanning several chunks may leave unused
      heapBytes = Math.addExact(heapBytes, Math.addExact(Math.multiplyExact(2, (buffer.totalBytes() + 127) / 64 * 64),
          1L << 20));
    }
    heapBytes = Math.addExact(heapBytes, (long) plan.cores() * (4L << 20));
    for (int c = 0; c < plan.cores(); c++) {
      cores.add(core(c, sinkOfFifo, buffers));
    }
    List<Integer> semaphores = semaphoreStarts;
    if (!strategy.barrier() && !semaphoreStarts.isEmpty()) {
      // every strategy but the baseline: the cross-core dependencies become rdy-ack flags
      cores = FlagSignalling.lower(cores, semaphoreStarts);
      semaphores = List.of();
    }
    List<SyntheticActor> declarations = new ArrayList<>();
    syntheticActors.keySet().stream().sorted().forEach(a -> declarations.add(syntheticActors.get(a)));
    String name = graph.name();
    if (plan.nodes() <= 1) {
      return new CodeProject(name, CNames.identifier(name), strategy.name(), synthetic, strategy.barrier(),
          semaphores, List.copyOf(headers), declarations, buffers, heapBytes, channels, cows, sinks, cores);
    }
    List<Integer> coreNodes = new ArrayList<>();
    for (int c = 0; c < plan.cores(); c++) {
      coreNodes.add(plan.nodeOf(c));
    }
    CodeProject project = new CodeProject(name, CNames.identifier(name), strategy.name(), synthetic,
        strategy.barrier(), semaphores, List.copyOf(headers), declarations, buffers, heapBytes, channels, cows, sinks,
        cores, coreNodes, transfers, partNodes(sinks, cores));
    NodeLocality.check(project);
    return project;
  }

  /**
   * Slots of an inter-node transfer: the plan's k for the buffer, at least 2 so that the sender can fill the next
   * iteration's slot while the last message is on its way (the iteration barrier, where there is one, holds only
   * the cores of one node).
   */
  private int transferSlots(int r) {
    return Math.max(2, plan.slots(r));
  }

  /** Per sink part, the node of the core that digests it. */
  private List<Integer> partNodes(List<Sink> sinks, List<Core> cores) {
    int parts = sinks.isEmpty() ? 0 : sinks.get(sinks.size() - 1).firstPart() + sinks.get(sinks.size() - 1).parts();
    Integer[] nodes = new Integer[parts];
    for (Core core : cores) {
      for (Statement statement : core.loop()) {
        if (statement instanceof Statement.Digest digest) {
          nodes[sinks.get(digest.sink()).firstPart() + digest.part()] = plan.nodeOf(core.index());
        }
      }
    }
    List<Integer> result = new ArrayList<>();
    for (int p = 0; p < parts; p++) {
      result.add(nodes[p] == null ? 0 : nodes[p]);
    }
    return result;
  }

  private static String poolName(int core) {
    return "pool" + core;
  }

  /**
   * Places the buffers only one core uses in that core's pool: within an iteration a core runs its order once,
   * so a buffer is live from its first to its last use there, and buffers whose spans do not meet can take
   * the same bytes (as PREESM's memory allocation reuses memory). A buffer the same vertex last reads and
   * another first writes never share. Left out: buffers an init call uses (they live before the loop), and
   * buffers not wholly written every iteration (what was not written would be another buffer's data, which
   * varies with the strategy). First fit by offset, in order of first use; deterministic.
   *
   * @param placement receives, per pooled root, {core, offset}
   * @return per core, the pool's size (0: no pool)
   */
  private long[] pools(Map<Integer, long[]> placement) {
    Set<Integer> initRoots = rootsOfInitCalls();
    boolean[] covered = whollyWritten();
    long[] sizes = new long[plan.cores()];
    for (int c = 0; c < plan.cores(); c++) {
      Map<Integer, int[]> span = spans(c);
      List<Integer> candidates = new ArrayList<>();
      for (int r : span.keySet()) {
        if (storage[r] == Storage.STATIC && homeCore(r) == c && !initRoots.contains(r) && r < edges && covered[r]) {
          candidates.add(r);
        }
      }
      if (candidates.size() < 2) {
        continue;
      }
      candidates.sort(java.util.Comparator.comparingInt((Integer r) -> span.get(r)[0]).thenComparingInt(r -> r));
      // blocks still live, by offset: {offset, end, index of the last use}
      List<long[]> live = new ArrayList<>();
      long size = 0;
      for (int r : candidates) {
        int first = span.get(r)[0];
        live.removeIf(block -> block[2] < first);
        long bytes = (rootBytes(r) + 63) / 64 * 64;
        long offset = 0;
        int at = 0;
        while (at < live.size() && live.get(at)[0] - offset < bytes) {
          offset = live.get(at)[1];
          at++;
        }
        live.add(at, new long[] {offset, offset + bytes, span.get(r)[1]});
        placement.put(r, new long[] {c, offset});
        size = Math.max(size, offset + bytes);
      }
      sizes[c] = size;
    }
    return sizes;
  }

  /**
   * Per root, whether every byte of it is written each iteration, by actor firings (whole outputs, where they
   * lie in the root) or by copies.
   */
  private boolean[] whollyWritten() {
    List<List<long[]>> written = new ArrayList<>(java.util.Collections.nCopies(roots, (List<long[]>) null));
    java.util.function.BiConsumer<Integer, long[]> add = (r, range) -> {
      if (written.get(r) == null) {
        written.set(r, new ArrayList<>());
      }
      written.get(r).add(range);
    };
    for (int e = 0; e < edges; e++) {
      if (!isSpecial(srdag.edgeSource(e))) {
        add.accept(root(e), new long[] {rootOffset(e), rootOffset(e) + srdag.edgeBytes(e)});
      }
    }
    for (List<Move> list : moves) {
      for (Move move : list) {
        if (move.destination() < edges) {
          long start = rootOffset(move.destination()) + move.destinationOffset();
          add.accept(root(move.destination()), new long[] {start, start + move.bytes()});
        }
      }
    }
    boolean[] whole = new boolean[roots];
    for (int r = 0; r < edges; r++) {
      List<long[]> ranges = written.get(r);
      if (ranges == null) {
        continue;
      }
      ranges.sort(java.util.Comparator.comparingLong(range -> range[0]));
      long covered = 0;
      for (long[] range : ranges) {
        if (range[0] > covered) {
          break;
        }
        covered = Math.max(covered, range[1]);
      }
      whole[r] = covered >= rootBytes(r);
    }
    return whole;
  }

  /** Roots that init prototypes get as arguments: they are used before the loop. */
  private Set<Integer> rootsOfInitCalls() {
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

  /** Per root a core uses, the indices in the core's order of its first and last use. */
  private Map<Integer, int[]> spans(int core) {
    int[] order = plan.order(core);
    Map<Integer, int[]> span = new HashMap<>();
    for (int i = 0; i < order.length; i++) {
      for (int[] side : uses(order[i])) {
        for (int r : side) {
          int[] s = span.computeIfAbsent(r, k -> new int[] {Integer.MAX_VALUE, -1});
          s[0] = Math.min(s[0], i);
          s[1] = Math.max(s[1], i);
        }
      }
    }
    return span;
  }

  /** The core that reads a buffer (its first touch puts the pages in that core's memory), else the writer. */
  private int homeCore(int r) {
    return readerCore[r] < 64 ? readerCore[r] : writerCore[r] < 64 ? writerCore[r] : 0;
  }

  private long rootBytes(int r) {
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

  private String rootName(int r) {
    return r >= edges ? "delay" + (r - edges) : "buf" + r;
  }

  private String describeRoot(int r) {
    if (r >= edges) {
      FlatFifo fifo = graph.fifo(srdag.vertexFifo(srdag.persistentEnd(r - edges)));
      return "persistent delay of " + label(fifo);
    }
    StringBuilder text = new StringBuilder(describe(r));
    return text.toString();
  }

  /** The FIFOs whose data validation digests: those into sink actors, else those carrying persistent delays. */
  private Map<Integer, Integer> sinks(List<Sink> sinks) {
    Map<Integer, Integer> sinkOfFifo = new HashMap<>();
    for (FlatFifo fifo : graph.fifos()) {
      FlatActor target = graph.actor(fifo.target());
      if (fifo.carriesTokens() && target.kind() == ActorKind.NORMAL && graph.outputFifos(target.index()).length == 0) {
        sinkOfFifo.put(fifo.index(), sinks.size());
        sinks.add(new Sink(sinks.size(), label(fifo), (int) target.repetitions(), nextPart(sinks)));
      }
    }
    if (sinks.isEmpty()) {
      delaySinks = true;
      for (int i = 0; i < srdag.persistentDelayCount(); i++) {
        int fifo = srdag.vertexFifo(srdag.persistentEnd(i));
        if (!sinkOfFifo.containsKey(fifo)) {
          sinkOfFifo.put(fifo, sinks.size());
          sinks.add(new Sink(sinks.size(), label(graph.fifo(fifo)) + " (delay)", (int) graph.fifo(fifo)
              .delaySegments(), nextPart(sinks)));
        }
      }
    }
    return sinkOfFifo;
  }

  private static int nextPart(List<Sink> sinks) {
    return sinks.isEmpty() ? 0 : sinks.get(sinks.size() - 1).firstPart() + sinks.get(sinks.size() - 1).parts();
  }

  private String label(FlatFifo fifo) {
    return relative(graph.actor(fifo.source()).path()) + "." + fifo.sourcePort() + " -> "
        + relative(graph.actor(fifo.target()).path()) + "." + fifo.targetPort();
  }

  private String relative(String path) {
    String top = graph.name() + "/";
    return path.startsWith(top) ? path.substring(top.length()) : path;
  }

  private Core core(int core, Map<Integer, Integer> sinkOfFifo, List<StaticBuffer> buffers) {
    int[] order = plan.order(core);
    Map<Integer, int[]> span = new HashMap<>();
    int[][][] uses = new int[order.length][][];
    for (int i = 0; i < order.length; i++) {
      uses[i] = uses(order[i]);
      for (int[] side : uses[i]) {
        for (int r : side) {
          int[] s = span.computeIfAbsent(r, k -> new int[] {Integer.MAX_VALUE, -1});
          s[0] = Math.min(s[0], i);
          s[1] = Math.max(s[1], i);
        }
      }
    }
    List<String> pointers = new ArrayList<>();
    Set<String> declared = new LinkedHashSet<>();
    List<Channel> homes = new ArrayList<>();
    List<Statement> init = new ArrayList<>();
    List<Statement> loop = new ArrayList<>();
    for (Channel channel : channelOfRoot.values()) {
      if (channel.receiver() == core && !channel.primed()) {
        homes.add(channel);
      }
    }
    homes.sort(java.util.Comparator.comparingInt(Channel::index));
    for (int i = 0; i < order.length; i++) {
      int vertex = order[i];
      // a root the vertex both reads and writes (an in-place merge) starts once
      Set<Integer> starting = new LinkedHashSet<>();
      for (int[] side : uses[i]) {
        for (int r : side) {
          if (span.get(r)[0] == i) {
            starting.add(r);
          }
        }
      }
      for (int r : starting) {
        before(r, core, loop, declared);
      }
      for (int ready : readyBefore.getOrDefault(vertex, List.of())) {
        loop.add(new Statement.SemaphoreWait(ready, readyWhy.get(ready)));
      }
      body(vertex, init, loop, sinkOfFifo);
      for (int ready : readyAfter.getOrDefault(vertex, List.of())) {
        loop.add(new Statement.SemaphorePost(ready, readyWhy.get(ready)));
      }
      Set<Integer> finished = new LinkedHashSet<>();
      for (int[] side : uses[i]) {
        for (int r : side) {
          if (span.get(r)[1] == i) {
            finished.add(r);
          }
        }
      }
      for (int r : finished) {
        after(r, core, loop);
      }
    }
    pointers.addAll(declared);
    List<StaticBuffer> owned = buffers.stream().filter(b -> b.home() == core).toList();
    return new Core(core, pointers, owned, homes, init, loop);
  }

  private String pointer(int r) {
    if (r < edges && cowOfView[r] >= 0) {
      return "p_" + cows.get(cowOfView[r]).name() + "_v" + viewIndex[r];
    }
    return "p_" + rootName(r);
  }

  private void before(int r, int core, List<Statement> loop, Set<String> declared) {
    switch (storage[r]) {
      case TRANSFER -> {
        Transfer transfer = transferOfRoot.get(r);
        loop.add(transfer.sender() == core ? new Statement.TransferSendWait(transfer)
            : new Statement.TransferReceiveWait(transfer));
      }
      case CHANNEL -> {
        declared.add(pointer(r));
        Channel channel = channelOfRoot.get(r);
        loop.add(channel.sender() == core ? new Statement.ChannelReserve(channel, pointer(r))
            : new Statement.ChannelAcquire(channel, pointer(r)));
      }
      case SEMAPHORE -> {
        if (readerCore[r] == core) {
          loop.add(new Statement.SemaphoreWait(semaphoreOfRoot.get(r), describeRoot(r)));
        }
      }
      case SHARED -> {
        // the slot of this iteration was used k iterations ago: every other core must be done with it
        for (Map.Entry<Integer, Integer> pair : slotSemaphores.getOrDefault(r, Map.of()).entrySet()) {
          if (pair.getKey() % 64 == core) {
            loop.add(new Statement.SemaphoreWait(pair.getValue(), "core " + pair.getKey() / 64 + " done with the slot of "
                + rootName(r)));
          }
        }
      }
      case COW -> {
        declared.add(pointer(r));
        if (cowOfRoot.length > r && cowOfRoot[r] >= 0) {
          if (writerMask[r] != 1L << core || (readerMask[r] & ~(1L << core)) != 0) {
            throw new IllegalStateException("copy-on-write buffer " + describeRoot(r) + " is used on core " + core
                + " and written on cores " + Long.toBinaryString(writerMask[r]) + "; only its writer core may use it");
          }
          loop.add(new Statement.CowWriteBegin(cows.get(cowOfRoot[r]), pointer(r)));
        } else {
          loop.add(new Statement.CowAcquire(cows.get(cowOfView[r]), viewIndex[r], pointer(r)));
        }
      }
      default -> {
      }
    }
  }

  private void after(int r, int core, List<Statement> loop) {
    boolean crossing = storage[r] == Storage.CHANNEL || storage[r] == Storage.SEMAPHORE;
    boolean sender = crossing && writerCore[r] == core;
    if (sender && r < edges) {
      if (skipWritten[r]) {
        loop.add(new Statement.Fence());
      }
      // only here, on the writer of data another core reads: on one core a pre-store only adds write-backs
      String ops = plan.prestoreOps(r, rootBytes(r));
      if (ops != null) {
        loop.add(new Statement.Prestore(base(r, core, false), rootBytes(r), ops));
      }
    }
    switch (storage[r]) {
      case TRANSFER -> {
        Transfer transfer = transferOfRoot.get(r);
        loop.add(transfer.sender() == core ? new Statement.TransferSend(transfer)
            : new Statement.TransferReceivePost(transfer));
      }
      case CHANNEL -> {
        Channel channel = channelOfRoot.get(r);
        loop.add(channel.sender() == core ? new Statement.ChannelCommit(channel)
            : new Statement.ChannelRelease(channel));
      }
      case SEMAPHORE -> {
        if (sender) {
          loop.add(new Statement.SemaphorePost(semaphoreOfRoot.get(r), describeRoot(r)));
        }
      }
      case SHARED -> {
        for (Map.Entry<Integer, Integer> pair : slotSemaphores.getOrDefault(r, Map.of()).entrySet()) {
          if (pair.getKey() / 64 == core) {
            loop.add(new Statement.SemaphorePost(pair.getValue(), "core " + core + " done with the slot of "
                + rootName(r)));
          }
        }
      }
      case COW -> {
        if (cowOfRoot[r] >= 0) {
          // its writer core's last use this iteration: the data is complete, the views may read it from here on
          loop.add(new Statement.CowPublish(cows.get(cowOfRoot[r])));
        } else {
          loop.add(new Statement.CowRelease(cows.get(cowOfView[r]), viewIndex[r]));
        }
      }
      default -> {
      }
    }
  }

  /** The C expression of a root's first byte on a core; for a delay state, the copy read or written. */
  private BufferRef base(int r, int core, boolean delayWrite) {
    return switch (storage[r]) {
      case STATIC, SEMAPHORE -> BufferRef.of(rootName(r));
      case DOUBLE -> BufferRef.of("(" + rootName(r) + (delayWrite ? " + ((iteration + 1) & 1) * " : " + (iteration & 1) * ")
          + rootBytes(r) + "u)");
      case SHARED -> sharedSlots() == 1 ? BufferRef.of(rootName(r))
          : BufferRef.of("(" + rootName(r) + " + (iteration % " + sharedSlots() + "u) * " + rootBytes(r) + "u)");
      case TRANSFER -> {
        // the sender writes its send slot, the receiver reads its receive slot in place: iteration i in slot i % k
        Transfer transfer = transferOfRoot.get(r);
        String slots = transfer.sender() == core ? transfer.sendBuffer() : transfer.receiveBuffer();
        yield BufferRef.of("(" + slots + " + (iteration % " + transfer.slots() + "u) * " + rootBytes(r) + "u)");
      }
      default -> BufferRef.of(pointer(r));
    };
  }

  private BufferRef ref(int edge, int core) {
    return base(root(edge), core, false).plus(rootOffset(edge));
  }

  private BufferRef stateRef(int r, int core, boolean write) {
    return base(r, core, write);
  }

  private void body(int vertex, List<Statement> init, List<Statement> loop, Map<Integer, Integer> sinkOfFifo) {
    int core = plan.coreOf(vertex);
    if (isSpecial(vertex)) {
      if (persistentOfEnd[vertex] >= 0 && delaySinks) {
        Integer sink = sinkOfFifo.get(srdag.vertexFifo(vertex));
        for (int e : inputs(vertex)) {
          if (sink != null) {
            loop.add(new Statement.Digest(sink, srdag.vertexFiring(vertex), ref(e, core), srdag.edgeBytes(e)));
          }
        }
      }
      Statement.ActorCall delayInit = delayInitCall(vertex, core);
      if (delayInit != null && persistentOfInit[vertex] >= 0) {
        // the state starts as zeros; the init refinement fills it once, before the first copy reads it
        loop.add(new Statement.FirstIteration(delayInit));
      }
      for (Move move : moves.get(vertex)) {
        BufferRef destination = move.destination() >= edges ? stateRef(move.destination(), core, true)
            : ref(move.destination(), core).plus(move.destinationOffset());
        String why = name(vertex);
        if (move.source() < 0 && delayInit != null) {
          loop.add(delayInit); // a delay that starts afresh: its init refinement runs at every start
          continue;
        }
        if (move.source() < 0) {
          loop.add(new Statement.Zero(destination, move.bytes(), why + (srdag.vertexKind(vertex) == ActorKind.INIT
              ? ": initial tokens" : ": bytes its source slice lacks")));
          continue;
        }
        BufferRef source = move.source() >= edges ? stateRef(move.source(), core, false)
            : ref(move.source(), core).plus(move.sourceOffset());
        loop.add(new Statement.Copy(destination, source, move.bytes(), copyKind(move), why));
      }
      return;
    }
    FlatActor actor = graph.actor(srdag.vertexActor(vertex));
    int[] in = inputs(vertex);
    if (!delaySinks) {
      for (int e : in) {
        Integer sink = sinkOfFifo.get(srdag.edgeFifo(e));
        if (sink != null) {
          loop.add(new Statement.Digest(sink, srdag.vertexFiring(vertex), ref(e, core), srdag.edgeBytes(e)));
        }
      }
    }
    loop.add(call(vertex, actor, core));
    if (!synthetic) {
      Refinement refinement = actor.origin().getRefinement();
      Prototype initPrototype = refinement == null ? null : refinement.getInitPrototype();
      if (initPrototype != null) {
        init.add(realCall(vertex, actor, core, initPrototype));
      }
    }
  }

  /**
   * The call of the init refinement of the delay an inserted init vertex starts (null when it has none or
   * actors are synthetic): config parameters as constants, its one output the delay's tokens (the state
   * buffer of a persistent delay, else the vertex's only output edge).
   */
  private Statement.ActorCall delayInitCall(int vertex, int core) {
    if (synthetic || !srdag.isInserted(vertex) || srdag.vertexKind(vertex) != ActorKind.INIT) {
      return null;
    }
    FlatFifo fifo = graph.fifo(srdag.vertexFifo(vertex));
    if (fifo.origin() == null || fifo.origin().getDelay() == null || fifo.origin().getDelay().getActor() == null) {
      return null;
    }
    Refinement refinement = fifo.origin().getDelay().getActor().getRefinement();
    if (refinement == null) {
      return null;
    }
    Prototype prototype = refinement.getLoopPrototype() != null ? refinement.getLoopPrototype()
        : refinement.getInitPrototype();
    if (prototype == null) {
      return null;
    }
    String delayName = "delay of " + label(fifo);
    BufferRef tokens;
    long bytes;
    int state = persistentOfInit[vertex];
    if (state >= 0) {
      tokens = stateRef(edges + state, core, false);
      bytes = rootBytes(edges + state);
    } else {
      int[] out = outputs(vertex);
      if (out.length != 1) {
        throw new InputException(location(prototype), "init refinement '" + prototype.getName() + "' of the "
            + delayName + ": its tokens go to " + out.length + " firings; only a delay read by one firing per"
            + " start can be initialised by a refinement");
      }
      tokens = ref(out[0], core);
      bytes = srdag.edgeBytes(out[0]);
    }
    if (refinement.getHeaderPath() != null && !refinement.getHeaderPath().isBlank()) {
      String header = refinement.getHeaderPath().replace('\\', '/');
      headers.add(header.substring(header.lastIndexOf('/') + 1));
    }
    List<Argument> arguments = new ArrayList<>();
    int outputs = 0;
    for (PrototypeParameter parameter : prototype.getParameters()) {
      SourceLocation at = location(parameter);
      if (parameter.isConfig()) {
        Long value = fifo.delayConfig().get(parameter.getName());
        if (value == null) {
          throw new InputException(at, "configuration parameter '" + parameter.getName() + "' of init refinement '"
              + prototype.getName() + "' (" + delayName + ") has no value: the delay has no config input port of"
              + " that name");
        }
        arguments.add(new Argument.Constant(parameter.getName(), parameter.getType(), value));
        continue;
      }
      if (parameter.getDirection() != PrototypeDirection.OUT || ++outputs > 1) {
        throw new InputException(at, "parameter '" + parameter.getName() + "' of init refinement '"
            + prototype.getName() + "' (" + delayName + "): a delay's init refinement takes config parameters and"
            + " exactly one output, the initial tokens");
      }
      arguments.add(new Argument.Data(parameter.getName(), parameter.getType(), tokens, bytes, false));
    }
    if (outputs == 0) {
      throw new InputException(location(prototype), "init refinement '" + prototype.getName() + "' (" + delayName
          + ") has no output parameter for the initial tokens");
    }
    return new Statement.ActorCall(name(vertex), delayName, prototype.getName(), arguments,
        srdag.vertexFiring(vertex));
  }

  private CopyKind copyKind(Move move) {
    if (move.destination() >= edges) {
      return CopyKind.MEMCPY;
    }
    int r = root(move.destination());
    boolean crossing = storage[r] == Storage.CHANNEL || storage[r] == Storage.SEMAPHORE;
    return plan.copyKind(move.destination(), move.bytes(), crossing);
  }

  // ---------------------------------------------------------------------------------------------------
  // Actor calls

  private Statement.ActorCall call(int vertex, FlatActor actor, int core) {
    if (synthetic) {
      return syntheticCall(vertex, actor, core);
    }
    Refinement refinement = actor.origin().getRefinement();
    if (refinement == null || refinement.getLoopPrototype() == null) {
      throw new InputException(actor.location(), "actor '" + relative(actor.path())
          + "' has no loop prototype to call (a refinement header with a <loop> prototype in the .pi); "
          + "generate with --synthetic-actors to run the graph without actor code");
    }
    return realCall(vertex, actor, core, refinement.getLoopPrototype());
  }

  private Statement.ActorCall realCall(int vertex, FlatActor actor, int core, Prototype prototype) {
    Refinement refinement = actor.origin().getRefinement();
    if (refinement.getHeaderPath() != null && !refinement.getHeaderPath().isBlank()) {
      String header = refinement.getHeaderPath().replace('\\', '/');
      headers.add(header.substring(header.lastIndexOf('/') + 1));
    }
    List<Argument> arguments = new ArrayList<>();
    for (PrototypeParameter parameter : prototype.getParameters()) {
      SourceLocation at = location(parameter);
      if (parameter.isConfig()) {
        Long value = actor.configValues().get(parameter.getName());
        if (value == null) {
          throw new InputException(at, "configuration parameter '" + parameter.getName() + "' of prototype '"
              + prototype.getName() + "' (actor '" + relative(actor.path())
              + "') has no value: the actor has no config input port of that name");
        }
        arguments.add(new Argument.Constant(parameter.getName(), parameter.getType(), value));
        continue;
      }
      FlatPort port = actor.port(parameter.getName());
      if (port == null) {
        throw new InputException(at, "parameter '" + parameter.getName() + "' of prototype '" + prototype.getName()
            + "' (actor '" + relative(actor.path()) + "') matches no data port of the actor");
      }
      boolean input = port.isInput();
      if (input != (parameter.getDirection() == PrototypeDirection.IN)) {
        throw new InputException(at, "parameter '" + parameter.getName() + "' of prototype '" + prototype.getName()
            + "' is " + parameter.getDirection() + " but port '" + port.name() + "' of actor '"
            + relative(actor.path()) + "' is an " + (input ? "input" : "output"));
      }
      int e = consumerPortEdge(vertex, port.name(), input);
      arguments.add(new Argument.Data(parameter.getName(), parameter.getType(), e < 0 ? null : ref(e, core),
          e < 0 ? 0 : srdag.edgeBytes(e), input));
    }
    return new Statement.ActorCall(name(vertex), origin(actor), prototype.getName(),
        arguments, srdag.vertexFiring(vertex));
  }

  private Statement.ActorCall syntheticCall(int vertex, FlatActor actor, int core) {
    SyntheticActor declaration = syntheticActors.computeIfAbsent(actor.index(),
        a -> syntheticDeclaration(actor, vertex));
    List<Argument> arguments = new ArrayList<>();
    for (SyntheticActor.Parameter parameter : declaration.parameters()) {
      if (parameter.use() == SyntheticActor.Use.CONFIG) {
        arguments.add(new Argument.Constant(parameter.name(), "long", actor.configValues().get(parameter.name())));
        continue;
      }
      FlatPort port = actor.port(parameter.name());
      int e = consumerPortEdge(vertex, port.name(), port.isInput());
      arguments.add(new Argument.Data(parameter.name(), null, e < 0 ? null : ref(e, core), e < 0 ? 0
          : srdag.edgeBytes(e), port.isInput()));
    }
    return new Statement.ActorCall(name(vertex), origin(actor),
        declaration.function(), arguments, srdag.vertexFiring(vertex));
  }

  /** Parameters in the loop prototype's order when there is one (config values and ports), else the ports. */
  private SyntheticActor syntheticDeclaration(FlatActor actor, int vertex) {
    List<SyntheticActor.Parameter> parameters = new ArrayList<>();
    Refinement refinement = actor.origin().getRefinement();
    Prototype prototype = refinement == null ? null : refinement.getLoopPrototype();
    Set<String> seen = new LinkedHashSet<>();
    if (prototype != null) {
      for (PrototypeParameter parameter : prototype.getParameters()) {
        if (parameter.isConfig() && actor.configValues().containsKey(parameter.getName())) {
          parameters.add(new SyntheticActor.Parameter(parameter.getName(), SyntheticActor.Use.CONFIG, 0));
          seen.add(parameter.getName());
        } else if (!parameter.isConfig() && actor.port(parameter.getName()) != null) {
          parameters.add(dataParameter(actor, actor.port(parameter.getName()), vertex));
          seen.add(parameter.getName());
        }
      }
    }
    for (FlatPort port : actor.ports()) {
      if (!seen.contains(port.name())) {
        parameters.add(dataParameter(actor, port, vertex));
      }
    }
    // what the actor's memory script says its outputs repeat from its inputs: merging relies on it, so every
    // strategy must compute it (judged on the firing met first, as the script treats every firing alike)
    List<SyntheticActor.Copy> copies = new ArrayList<>();
    Map<String, List<long[]>> covered = new HashMap<>();
    for (org.cacheflow.plan.classify.ScriptCopy copy : plan.scriptCopies(vertex)) {
      SyntheticActor.Parameter output = parameters.stream().filter(p -> p.name().equals(copy.outputPort())
          && p.use() == SyntheticActor.Use.WRITE).findFirst().orElse(null);
      boolean input = parameters.stream().anyMatch(p -> p.name().equals(copy.inputPort())
          && p.use() != SyntheticActor.Use.WRITE && p.use() != SyntheticActor.Use.CONFIG && p.bytes() > 0);
      if (output == null || !input || copy.outputByte() + copy.bytes() > output.bytes()) {
        continue;
      }
      copies.add(new SyntheticActor.Copy(copy.outputPort(), copy.outputByte(), copy.inputPort(), copy.inputByte(),
          copy.bytes()));
      covered.computeIfAbsent(copy.outputPort(), k -> new ArrayList<>()).add(new long[] {copy.outputByte(),
          copy.outputByte() + copy.bytes()});
    }
    List<SyntheticActor.Fill> fills = new ArrayList<>();
    for (int i = 0; i < parameters.size(); i++) {
      SyntheticActor.Parameter p = parameters.get(i);
      if (p.use() != SyntheticActor.Use.WRITE) {
        continue;
      }
      List<long[]> ranges = new ArrayList<>(covered.getOrDefault(p.name(), List.of()));
      ranges.sort(java.util.Comparator.comparingLong(r -> r[0]));
      long next = 0;
      for (long[] range : ranges) {
        if (range[0] > next) {
          fills.add(new SyntheticActor.Fill(p.name(), next, range[0] - next, i));
        }
        next = Math.max(next, range[1]);
      }
      if (next < p.bytes()) {
        fills.add(new SyntheticActor.Fill(p.name(), next, p.bytes() - next, i));
      }
    }
    return new SyntheticActor("synth_" + CNames.identifier(relative(actor.path())), relative(actor.path()),
        actor.index() + 1, parameters, copies, fills);
  }

  /**
   * What a synthetic body does with a port. An input that the actor's own memory script placed under one of
   * its outputs (they share a merge root in some firing) is not scribbled on: the actor overwrites it with that
   * output anyway, and scribbling after the output is written would destroy it.
   */
  private SyntheticActor.Parameter dataParameter(FlatActor actor, FlatPort port, int vertex) {
    long bytes = port.fifo() < 0 || port.rate() == 0 ? 0 : graph.fifo(port.fifo()).bytesFor(port.rate());
    MemoryAnnotation annotation = port.annotation() == null ? MemoryAnnotation.NONE : port.annotation();
    SyntheticActor.Use use;
    if (bytes == 0) {
      use = SyntheticActor.Use.IGNORE;
    } else if (!port.isInput()) {
      use = SyntheticActor.Use.WRITE;
    } else {
      use = switch (annotation) {
        case READ_ONLY -> SyntheticActor.Use.READ;
        case UNUSED -> SyntheticActor.Use.IGNORE;
        case WRITE_ONLY -> underAnOutput(vertex, port) ? SyntheticActor.Use.IGNORE : SyntheticActor.Use.SCRIBBLE;
        default -> underAnOutput(vertex, port) ? SyntheticActor.Use.READ : SyntheticActor.Use.READ_SCRIBBLE;
      };
    }
    return new SyntheticActor.Parameter(port.name(), use, bytes);
  }

  /**
   * Whether, in some firing of the actor, the input through {@code port} shares its merge root with one of the
   * firing's outputs (firings may differ: the first of a chain may read a delay's own buffer).
   */
  private boolean underAnOutput(int vertex, FlatPort port) {
    if (firingsOfActor == null) {
      firingsOfActor = new HashMap<>();
      for (int v = 0; v < srdag.vertexCount(); v++) {
        if (!isSpecial(v)) {
          firingsOfActor.computeIfAbsent(srdag.vertexActor(v), a -> new ArrayList<>()).add(v);
        }
      }
    }
    for (int firing : firingsOfActor.getOrDefault(srdag.vertexActor(vertex), List.of())) {
      int input = consumerPortEdge(firing, port.name(), true);
      if (input < 0 || host[input] < 0 && groupBytes[input] == 0) {
        continue;
      }
      for (int output : srdag.outgoingEdges(firing)) {
        if (root(output) == root(input)) {
          return true;
        }
      }
    }
    return false;
  }

  // ---------------------------------------------------------------------------------------------------

  private static SourceLocation location(org.cacheflow.model.Located element) {
    String file = element.getFile() == null ? "<unknown>" : element.getFile();
    return new SourceLocation(file, element.getLine(), element.getColumn());
  }

  /** FILE:LINE of the actor's declaration with the file's name only: generated files hold no machine paths. */
  private static String origin(FlatActor actor) {
    SourceLocation at = location(actor.origin());
    String file = at.file().replace('\\', '/');
    return new SourceLocation(file.substring(file.lastIndexOf('/') + 1), at.line(), 0).toString();
  }

  private String name(int vertex) {
    return relative(srdag.vertexName(vertex));
  }

  private String describe(int edge) {
    return name(srdag.edgeSource(edge)) + "." + srdag.edgeSourcePort(edge) + " -> " + name(srdag.edgeTarget(edge))
        + "." + srdag.edgeTargetPort(edge) + ", " + srdag.edgeBytes(edge) + " bytes";
  }
}
