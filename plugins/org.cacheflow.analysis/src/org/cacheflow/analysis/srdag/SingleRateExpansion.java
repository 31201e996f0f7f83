package org.cacheflow.analysis.srdag;

import java.util.Arrays;

import org.cacheflow.model.ActorKind;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.analysis.AnalysisResult;
import org.cacheflow.analysis.FlatActor;
import org.cacheflow.analysis.FlatFifo;
import org.cacheflow.analysis.FlatGraph;
import org.cacheflow.analysis.ProgressListener;

/**
 * Expands a flat graph into its single-rate DAG ({@link Srdag}) as PREESM's {@code PiSDFToSingleRate} and
 * {@code PiMMSRVerticesLinker} do.
 *
 * <p>
 * Every firing of every actor becomes a vertex. Then, for each FIFO, the producer firings (preceded by an
 * INIT vertex holding the delay's tokens, when there is a delay) are lined up against the consumer firings
 * (followed by an END vertex taking the delay's worth of final tokens) along the FIFO's token stream:
 * <ul>
 * <li>a producer firing whose tokens all go to one consumer firing is linked to it directly;</li>
 * <li>otherwise its tokens go through a FORK vertex ({@code explode_...}) with one output per consumer
 * firing it feeds;</li>
 * <li>a consumer firing whose tokens do not all come from one producer firing reads through a JOIN vertex
 * ({@code implode_...}) with one input per producer firing;</li>
 * <li>between a fork and a join the edge carries just the tokens the two firings share.</li>
 * </ul>
 * This is exactly what PREESM's greedy linker builds (it explodes a source when its remaining production
 * exceeds the current sink's remaining consumption, and implodes a sink in the symmetric case); here it is
 * one linear sweep per FIFO. PREESM then optimizes fork/join chains away ({@code ForkJoinOptimization});
 * that optimization is not applied, so the counts here are those of the raw transformation.
 *
 * <p>
 * Delays: a FIFO whose delay restarts {@code S} times per iteration ({@link FlatFifo#delaySegments()}) is
 * linked as {@code S} independent runs, each with its own INIT and END. For a persistent delay
 * ({@link FlatFifo#delayPersistent()}) the END's tokens are the next iteration's INIT tokens; the pair is
 * recorded ({@link Srdag#persistentEnd(int)}) rather than linked, keeping the graph acyclic. BROADCAST and
 * ROUNDBUFFER vertices are firings of the flat graph's special actors, including those that stand for
 * sub-graph interfaces.
 *
 * <p>
 * Delay setters and getters ({@link FlatFifo#hasSetter()}): in each run the setter's firings of that run are
 * the first sources, each with the setter's rate, in place of the INIT vertex (as PREESM's
 * {@code PiSDFToSingleRate} replaces the init actors by the setter's firings); the getter's firings of the run
 * are the last sinks, in place of the END vertex. When a setter or getter makes the single-rate graph cyclic
 * (the setter depends on what the delay's consumer produces, say) expansion fails with a located error.
 *
 * <p>
 * Cost is linear in the result: about 2 x (firings of producer + consumer) steps per FIFO, with arrays
 * that grow geometrically.
 */
public final class SingleRateExpansion {

  /** The default bound on vertices, so an unexpectedly large repetition vector fails clearly. */
  public static final int DEFAULT_MAX_VERTICES = 50_000_000;

  private static final int PROGRESS_STEP = 1 << 16;

  private final FlatGraph graph;
  private final int maxVertices;
  private final ProgressListener progress;
  private long pendingWork;

  private int vertexCount;
  private byte[] kind;
  private int[] actor;
  private int[] fifo;
  private int[] index;

  private int edgeCount;
  private int[] edgeSource;
  private int[] edgeTarget;
  private int[] edgeFifo;
  private int[] edgeSourceSlot;
  private int[] edgeTargetSlot;
  private long[] edgeTokens;
  private byte[] edgeRole;
  private byte nextEdgeRole;

  private int[] persistentEnds = new int[0];
  private int[] persistentInits = new int[0];

  private SingleRateExpansion(FlatGraph graph, int maxVertices, ProgressListener progress) {
    this.graph = graph;
    this.maxVertices = maxVertices;
    this.progress = progress == null ? ProgressListener.NONE : progress;
  }

  /** Expands with the default vertex bound and no progress reports. */
  public static Srdag expand(FlatGraph graph) {
    return expand(graph, DEFAULT_MAX_VERTICES, ProgressListener.NONE);
  }

  /** Expands the flat graph of an analysis. */
  public static Srdag expand(AnalysisResult analysis, ProgressListener progress) {
    return expand(analysis.flatGraph(), DEFAULT_MAX_VERTICES, progress);
  }

  /**
   * Expands a flat graph.
   *
   * @param graph a consistent, live flat graph (as {@code GraphAnalysis} gives)
   * @param maxVertices the most vertices the result may have
   * @param progress told of the work done; may be null
   * @throws InputException at the graph's location when the result would exceed {@code maxVertices}
   */
  public static Srdag expand(FlatGraph graph, int maxVertices, ProgressListener progress) {
    return new SingleRateExpansion(graph, maxVertices, progress).run();
  }

  private Srdag run() {
    long firings = graph.totalFirings();
    if (firings > maxVertices) {
      throw tooLarge(firings);
    }
    long work = firings;
    long edgeEstimate = 0;
    for (FlatFifo f : graph.fifos()) {
      long ends = graph.actor(f.source()).repetitions() + graph.actor(f.target()).repetitions();
      work += ends;
      edgeEstimate += f.carriesTokens() ? ends : 0;
    }
    int vertexCapacity = (int) Math.min(maxVertices, Math.max(16, firings + firings / 4));
    kind = new byte[vertexCapacity];
    actor = new int[vertexCapacity];
    fifo = new int[vertexCapacity];
    index = new int[vertexCapacity];
    int edgeCapacity = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(16, edgeEstimate));
    edgeSource = new int[edgeCapacity];
    edgeTarget = new int[edgeCapacity];
    edgeFifo = new int[edgeCapacity];
    edgeSourceSlot = new int[edgeCapacity];
    edgeTargetSlot = new int[edgeCapacity];
    edgeTokens = new long[edgeCapacity];
    edgeRole = new byte[edgeCapacity];

    progress.begin("single-rate expansion of " + graph.name(), work);
    int[] firstFiring = new int[graph.actors().size()];
    for (FlatActor a : graph.actors()) {
      firstFiring[a.index()] = vertexCount;
      int count = (int) a.repetitions();
      int from = vertexCount;
      vertexCount += count;
      Arrays.fill(kind, from, vertexCount, (byte) a.kind().ordinal());
      Arrays.fill(actor, from, vertexCount, a.index());
      Arrays.fill(fifo, from, vertexCount, -1);
      for (int k = 0; k < count; k++) {
        index[from + k] = k;
      }
      worked(count);
    }
    for (FlatFifo f : graph.fifos()) {
      if (f.carriesTokens()) {
        link(f, firstFiring);
      }
      worked(graph.actor(f.source()).repetitions() + graph.actor(f.target()).repetitions());
    }
    progress.worked(pendingWork);
    progress.done();
    checkAcyclicWithDelayEnds();
    return new Srdag(graph, vertexCount, kind, actor, fifo, index, firstFiring, edgeCount, edgeSource, edgeTarget,
        edgeFifo, edgeSourceSlot, edgeTargetSlot, edgeTokens, edgeRole, persistentEnds, persistentInits);
  }

  /**
   * Without setters or getters the expansion of a live graph is acyclic; a setter fed (through other actors)
   * by its own delay's consumer, or a getter feeding its delay's producer, closes a cycle. Kahn's algorithm
   * finds it; the error names a delay whose setter or getter firing is on or behind the cycle.
   */
  private void checkAcyclicWithDelayEnds() {
    boolean any = false;
    for (FlatFifo f : graph.fifos()) {
      any |= f.hasSetter() || f.hasGetter();
    }
    if (!any) {
      return;
    }
    int[] pending = new int[vertexCount];
    int[] offsets = new int[vertexCount + 1];
    for (int e = 0; e < edgeCount; e++) {
      pending[edgeTarget[e]]++;
      offsets[edgeSource[e] + 1]++;
    }
    for (int v = 0; v < vertexCount; v++) {
      offsets[v + 1] += offsets[v];
    }
    int[] fill = Arrays.copyOf(offsets, vertexCount);
    int[] out = new int[edgeCount];
    for (int e = 0; e < edgeCount; e++) {
      out[fill[edgeSource[e]]++] = e;
    }
    int[] queue = new int[vertexCount];
    int head = 0;
    int tail = 0;
    for (int v = 0; v < vertexCount; v++) {
      if (pending[v] == 0) {
        queue[tail++] = v;
      }
    }
    while (head < tail) {
      int v = queue[head++];
      for (int i = offsets[v]; i < offsets[v + 1]; i++) {
        if (--pending[edgeTarget[out[i]]] == 0) {
          queue[tail++] = edgeTarget[out[i]];
        }
      }
    }
    if (tail == vertexCount) {
      return;
    }
    for (int e = 0; e < edgeCount; e++) {
      if (edgeRole[e] != 0 && (pending[edgeSource[e]] > 0 || pending[edgeTarget[e]] > 0)) {
        FlatFifo f = graph.fifo(edgeFifo[e]);
        String role = (edgeRole[e] & Srdag.FROM_SETTER) != 0 ? "setter '" + graph.actor(f.setter()).path() + "'"
            : "getter '" + graph.actor(f.getter()).path() + "'";
        throw new InputException(f.location(), "the delay on FIFO " + graph.describe(f) + " cannot run: its "
            + role + " depends, through other firings, on the tokens the delay itself provides (a cycle)");
      }
    }
    throw new InputException(graph.location(), "the single-rate graph of '" + graph.name() + "' has a cycle");
  }

  /** Links the producer firings of one FIFO to its consumer firings, segment by segment. */
  private void link(FlatFifo f, int[] firstFiring) {
    int segments = (int) f.delaySegments();
    long delay = f.delay();
    int sourcesPerSegment = (int) (graph.actor(f.source()).repetitions() / segments);
    int sinksPerSegment = (int) (graph.actor(f.target()).repetitions() / segments);
    int firstSource = firstFiring[f.source()];
    int firstSink = firstFiring[f.target()];
    boolean setter = f.hasSetter();
    boolean getter = f.hasGetter();
    // the firings that stand before the producer's (the setter's, or one init) and after the consumer's
    int heads = delay == 0 ? 0 : setter ? (int) (graph.actor(f.setter()).repetitions() / segments) : 1;
    int tails = delay == 0 ? 0 : getter ? (int) (graph.actor(f.getter()).repetitions() / segments) : 1;
    long headRate = setter ? graph.actor(f.setter()).port(f.setterPort()).rate() : delay;
    long tailRate = getter ? graph.actor(f.getter()).port(f.getterPort()).rate() : delay;
    if (heads * headRate != delay || tails * tailRate != delay) {
      throw new IllegalStateException("the setter / getter of " + graph.describe(f) + " do not give the delay's "
          + delay + " tokens per run");
    }
    int sourceCount = sourcesPerSegment + heads;
    int sinkCount = sinksPerSegment + tails;
    for (int segment = 0; segment < segments; segment++) {
      int init = -1;
      int end = -1;
      if (delay > 0) {
        init = setter ? -1 : addVertex(ActorKind.INIT, f.index(), segment);
        end = getter ? -1 : addVertex(ActorKind.END, f.index(), segment);
        if (f.delayPersistent() && init >= 0 && end >= 0) {
          persistentEnds = append(persistentEnds, end);
          persistentInits = append(persistentInits, init);
        }
      }
      int segmentSource = firstSource + segment * sourcesPerSegment;
      int segmentSink = firstSink + segment * sinksPerSegment;

      int nextSource = 0;
      int nextSink = 0;
      long sourceLeft = 0;
      long sinkLeft = 0;
      int sourceEnd = -1;
      int sinkEnd = -1;
      byte sourceRole = 0;
      byte sinkRole = 0;
      boolean sourceForked = false;
      boolean sinkJoined = false;
      int forkOutputs = 0;
      int joinInputs = 0;
      while (true) {
        boolean newSource = false;
        boolean newSink = false;
        int sourceVertex = -1;
        int sinkVertex = -1;
        if (sourceLeft == 0) {
          if (nextSource == sourceCount) {
            break;
          }
          if (nextSource < heads) {
            sourceVertex = setter ? firstFiring[f.setter()] + segment * heads + nextSource : init;
            sourceLeft = headRate;
            sourceRole = setter ? Srdag.FROM_SETTER : 0;
          } else {
            sourceVertex = segmentSource + nextSource - heads;
            sourceLeft = f.production();
            sourceRole = 0;
          }
          nextSource++;
          newSource = true;
        }
        if (sinkLeft == 0) {
          if (nextSink == sinkCount) {
            break;
          }
          if (nextSink >= sinksPerSegment) {
            sinkVertex = getter ? firstFiring[f.getter()] + segment * tails + nextSink - sinksPerSegment : end;
            sinkLeft = tailRate;
            sinkRole = getter ? Srdag.TO_GETTER : 0;
          } else {
            sinkVertex = segmentSink + nextSink;
            sinkLeft = f.consumption();
            sinkRole = 0;
          }
          nextSink++;
          newSink = true;
        }
        // decide with both ends positioned: a source that outlasts the current sink needs a fork, a sink
        // that outlasts the current source needs a join (equal lengths: a direct edge)
        if (newSource) {
          sourceForked = sourceLeft > sinkLeft;
          if (sourceForked) {
            int fork = addVertex(ActorKind.FORK, f.index(), sourceVertex);
            nextEdgeRole = sourceRole;
            addEdge(sourceVertex, -1, fork, -1, sourceLeft, f.index());
            sourceEnd = fork;
            forkOutputs = 0;
          } else {
            sourceEnd = sourceVertex;
          }
        }
        if (newSink) {
          sinkJoined = sinkLeft > sourceLeft;
          if (sinkJoined) {
            int join = addVertex(ActorKind.JOIN, f.index(), sinkVertex);
            nextEdgeRole = sinkRole;
            addEdge(join, -1, sinkVertex, -1, sinkLeft, f.index());
            sinkEnd = join;
            joinInputs = 0;
          } else {
            sinkEnd = sinkVertex;
          }
        }
        long shared = Math.min(sourceLeft, sinkLeft);
        nextEdgeRole = (byte) (sourceRole | sinkRole);
        addEdge(sourceEnd, sourceForked ? forkOutputs++ : -1, sinkEnd, sinkJoined ? joinInputs++ : -1, shared,
            f.index());
        sourceLeft -= shared;
        sinkLeft -= shared;
      }
      if (sourceLeft != 0 || sinkLeft != 0 || nextSource != sourceCount || nextSink != sinkCount) {
        throw new IllegalStateException("unbalanced FIFO " + graph.describe(f) + " in single-rate expansion");
      }
    }
  }

  private int addVertex(ActorKind vertexKind, int vertexFifo, int vertexIndex) {
    if (vertexCount >= maxVertices) {
      throw tooLarge((long) vertexCount + 1);
    }
    if (vertexCount == kind.length) {
      int capacity = (int) Math.min(maxVertices, Math.max(16, (long) kind.length * 3 / 2 + 16));
      kind = Arrays.copyOf(kind, capacity);
      actor = Arrays.copyOf(actor, capacity);
      fifo = Arrays.copyOf(fifo, capacity);
      index = Arrays.copyOf(index, capacity);
    }
    kind[vertexCount] = (byte) vertexKind.ordinal();
    actor[vertexCount] = -1;
    fifo[vertexCount] = vertexFifo;
    index[vertexCount] = vertexIndex;
    return vertexCount++;
  }

  private void addEdge(int source, int sourceSlot, int target, int targetSlot, long tokens, int edgeFifoIndex) {
    if (edgeCount == edgeSource.length) {
      long grown = (long) edgeSource.length * 3 / 2 + 16;
      if (edgeCount >= Integer.MAX_VALUE - 8) {
        throw new InputException(graph.location(), "the single-rate graph of '" + graph.name()
            + "' would have more than 2^31 edges");
      }
      int capacity = (int) Math.min(Integer.MAX_VALUE - 8, grown);
      edgeSource = Arrays.copyOf(edgeSource, capacity);
      edgeTarget = Arrays.copyOf(edgeTarget, capacity);
      edgeFifo = Arrays.copyOf(edgeFifo, capacity);
      edgeSourceSlot = Arrays.copyOf(edgeSourceSlot, capacity);
      edgeTargetSlot = Arrays.copyOf(edgeTargetSlot, capacity);
      edgeTokens = Arrays.copyOf(edgeTokens, capacity);
      edgeRole = Arrays.copyOf(edgeRole, capacity);
    }
    edgeSource[edgeCount] = source;
    edgeTarget[edgeCount] = target;
    edgeFifo[edgeCount] = edgeFifoIndex;
    edgeSourceSlot[edgeCount] = sourceSlot;
    edgeTargetSlot[edgeCount] = targetSlot;
    edgeTokens[edgeCount] = tokens;
    edgeRole[edgeCount] = nextEdgeRole;
    nextEdgeRole = 0;
    edgeCount++;
  }

  private void worked(long units) {
    pendingWork += units;
    if (pendingWork >= PROGRESS_STEP) {
      progress.worked(pendingWork);
      pendingWork = 0;
    }
  }

  private InputException tooLarge(long vertices) {
    return new InputException(graph.location(), "the single-rate graph of '" + graph.name() + "' would have "
        + (vertices > maxVertices ? "more than " + maxVertices : vertices) + " vertices (" + graph.totalFirings()
        + " actor firings per iteration), beyond the limit of " + maxVertices
        + "; lower the parameters that set the rates");
  }

  private static int[] append(int[] array, int value) {
    int[] result = Arrays.copyOf(array, array.length + 1);
    result[array.length] = value;
    return result;
  }
}
