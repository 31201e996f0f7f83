package org.cacheflow.plan.memoryplan;

import java.nio.file.Path;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.cacheflow.analysis.FlatFifo;
import org.cacheflow.analysis.FlatGraph;
import org.cacheflow.analysis.ProgressListener;
import org.cacheflow.plan.classify.BufferClass;
import org.cacheflow.plan.classify.BufferOrigin;
import org.cacheflow.plan.classify.Classification;
import org.cacheflow.plan.classify.Classifier;
import org.cacheflow.plan.classify.MemoryFacts;
import org.cacheflow.plan.classify.ScriptMemoryFacts;
import org.cacheflow.plan.memory.MemoryScripts;
import org.cacheflow.plan.partition.NodeLocalFacts;
import org.cacheflow.plan.partition.NodePartition;
import org.cacheflow.plan.partition.NodePartitioner;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.plan.classify.ConsumerAccess;
import org.cacheflow.plan.schedule.Balancer;
import org.cacheflow.plan.schedule.CoreCount;
import org.cacheflow.plan.schedule.MergeGroups;
import org.cacheflow.plan.schedule.Pipelining;
import org.cacheflow.plan.schedule.ListScheduler;
import org.cacheflow.plan.schedule.Schedule;
import org.cacheflow.plan.schedule.Topology;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.plan.strategy.Decisions;
import org.cacheflow.plan.strategy.FifoNames;
import org.cacheflow.plan.strategy.GroupSlots;
import org.cacheflow.plan.strategy.PlanNote;
import org.cacheflow.plan.strategy.ReuseDistances;
import org.cacheflow.plan.strategy.Strategy;
import org.cacheflow.plan.strategy.StrategySelector;
import org.cacheflow.plan.strategy.TargetCache;

/**
 * Makes a {@link MemoryPlan}: on several nodes, splits the single-rate graph across them
 * ({@link NodePartitioner}) and keeps merge groups on one node ({@link NodeLocalFacts}); list-schedules the
 * graph, classifies its buffers, measures reuse distances on the schedule, chooses strategies and adds up what is
 * copied and allocated. Linear in the graph's size apart from the scheduler's priority queue (O(V log V)) and the
 * partitioner's refinement.
 */
public final class MemoryPlanner {

  private MemoryPlanner() {
  }

  /**
   * Plans a single-rate graph.
   *
   * @throws org.cacheflow.model.diagnostics.InputException when an actor has no core it may run on
   * @throws org.cacheflow.plan.strategy.OverrideException for an override that names no FIFO or cannot apply
   */
  public static MemoryPlan plan(Srdag srdag, PlanRequest request) {
    return plan(srdag, request, List.of());
  }

  /** As {@link #plan(Srdag, PlanRequest)}, the plan's notes starting with {@code carried}. */
  private static MemoryPlan plan(Srdag srdag, PlanRequest request, List<PlanNote> carried) {
    ProgressListener progress = request.progress() == null ? ProgressListener.NONE : request.progress();
    progress.begin("planning " + srdag.flatGraph().name(), 5);
    Topology topology = Topology.of(srdag);
    List<PlanNote> notes = new ArrayList<>(carried);
    Mapped mapped = map(srdag, topology, request, notes);
    progress.worked(1);
    Classification classes = Classifier.classify(mapped.schedule(), mapped.facts(), topology,
        ConsumerAccess.of(srdag, topology));
    progress.worked(1);
    ReuseDistances distances = ReuseDistances.compute(mapped.schedule(), touchedBytes(srdag, topology, classes));
    progress.worked(1);
    Decisions decisions = StrategySelector.select(mapped.schedule(), classes, distances, topology, request.target(),
        request.strategy(), request.overrides(), request.slots(), request.rereads());
    PlanNote.NotPipelined split = splitMemory(mapped.schedule(), classes, decisions);
    if (split != null && request.pipelining()) {
      // the cores were balanced for loops with iteration offsets, which this memory forbids: a mapping chosen for
      // them can be far from the best one without (a core whose firings would have overlapped the other core's
      // now waits for them), so the graph is planned again as if pipelining had been turned off
      progress.worked(2);
      progress.done();
      List<PlanNote> why = new ArrayList<>(carried);
      why.add(split.mappedAgain());
      return plan(srdag, request.withPipelining(false).withProgress(null), why);
    }
    Schedule schedule = split == null ? mapped.schedule() : mapped.schedule().withSkew(null);
    if (split != null) {
      notes.add(split);
    }
    // PREESM's plain copies (baseline, preesm) copy every byte; the other strategies leave out copies nobody reads
    LiveBytes live = request.strategy().preesmCode() ? LiveBytes.whole(srdag)
        : LiveBytes.compute(srdag, topology, classes, decisions);
    progress.worked(1);
    notes.addAll(decisions.notes());
    MemoryPlan plan = assemble(request, new Mapped(schedule, mapped.partition(), mapped.facts()), classes, distances,
        decisions, live, notes);
    progress.worked(1);
    progress.done();
    return plan;
  }

  /**
   * The schedule, the nodes it runs on and the memory facts the buffers are classified with.
   *
   * @param facts on one node the merger's groups with state chains fused; on several, restricted to each node
   */
  private record Mapped(Schedule schedule, NodePartition partition, MemoryFacts facts) {
  }

  /**
   * Maps the graph: on several nodes, splits it across them ({@link NodePartitioner}) and keeps merge groups on one
   * node; on one, schedules it with the merge groups known ({@link #schedule}, whose notes go to {@code notes}).
   */
  private static Mapped map(Srdag srdag, Topology topology, PlanRequest request, List<PlanNote> notes) {
    MemoryFacts facts = request.facts() != null ? request.facts() : defaultFacts(srdag);
    if (request.inputs().platform().nodes() > 1) {
      NodePartition partition = NodePartitioner.partition(srdag, request.inputs());
      Schedule scheduled = ListScheduler.schedule(srdag, request.inputs(), request.policy(),
          request.target().l1dBytes(), partition);
      partition = partition.withPredictedTime(scheduled.makespan());
      MemoryFacts local = partition.nodes() > 1 ? NodeLocalFacts.of(srdag, facts, partition) : facts;
      return new Mapped(scheduled, partition, fused(srdag, topology, request, local));
    }
    // the merger's groups do not depend on the mapping: on one node they are known before scheduling, and the
    // steady state of a mapping is weighed with them (a group several cores use has k copies freed per group)
    MemoryFacts fused = fused(srdag, topology, request, facts);
    Schedule scheduled = schedule(srdag, request, notes, groups(srdag, fused), fused);
    return new Mapped(scheduled, NodePartition.single(srdag, totalLoad(scheduled), scheduled.coreCount(),
        scheduled.makespan()), fused);
  }

  /** The plan of every buffer and FIFO, with their totals, from the decisions. */
  private static MemoryPlan assemble(PlanRequest request, Mapped mapped, Classification classes,
      ReuseDistances distances, Decisions decisions, LiveBytes live, List<PlanNote> notes) {
    Schedule schedule = mapped.schedule();
    Srdag srdag = schedule.srdag();
    long[] groupCores = groupCores(schedule, classes);
    long[] groupTraffic = sharedGroupTraffic(srdag, classes, groupCores);
    int[] groupCopies = groupCopies(schedule, classes, request.strategy(), request.target(), request.slots(),
        groupCores, groupTraffic);
    // buffer plans are made when asked for: a large graph's plans are not all read
    List<BufferPlan> buffers = new AbstractList<>() {
      @Override
      public BufferPlan get(int e) {
        return bufferPlan(srdag, schedule, classes, distances, decisions, live, groupCopies, e);
      }

      @Override
      public int size() {
        return srdag.edgeCount();
      }
    };
    int[][] byFifo = buffersByFifo(srdag);
    List<FifoPlan> fifos = new ArrayList<>();
    FifoNames names = new FifoNames(srdag.flatGraph());
    long baseline = 0;
    long copied = 0;
    long footprint = 0;
    long baselineFootprint = 0;
    for (FlatFifo fifo : srdag.flatGraph().fifos()) {
      List<BufferPlan> figures = new ArrayList<>();
      for (int e : byFifo[fifo.index()]) {
        figures.add(buffers.get(e));
      }
      FifoPlan plan = fifoPlan(srdag.flatGraph(), names, fifo, figures);
      fifos.add(plan);
      baseline = add(baseline, plan.baselineBytesCopied());
      copied = add(copied, plan.planBytesCopied());
      footprint = add(footprint, plan.footprintBytes());
    }
    for (int e = 0; e < srdag.edgeCount(); e++) {
      baselineFootprint = add(baselineFootprint, srdag.edgeBytes(e));
    }
    MemoryPlan.Buffers tables = new MemoryPlan.Buffers(buffers, fifos, byFifo,
        new PlanTotals(baseline, copied, footprint, baselineFootprint), views(decisions), viewOffsets(decisions), live,
        groupTraffic);
    return new MemoryPlan(request, schedule, mapped.partition(), classes, tables, notes);
  }

  /**
   * The list schedule on the request's cores, its mapping refined for pipelined iterations ({@link Balancer},
   * when every actor is timed), or on one core when, under a strategy whose hand-offs are rdy-ack
   * flags (not the baseline, PREESM's code on the cores it is given), the hand-offs would cost more than the
   * extra cores save ({@link CoreCount}; why, or why the cores stay, goes to {@code notes}).
   */
  private static Schedule schedule(Srdag srdag, PlanRequest request, List<PlanNote> notes, int[] groups,
      MemoryFacts facts) {
    Schedule schedule = ListScheduler.schedule(srdag, request.inputs(), request.policy(),
        request.target().l1dBytes());
    if (request.strategy().preesmCode()) {
      return schedule;
    }
    MergeGroups merged = new MergeGroups(groups, spanning(srdag, facts, groups, request.target(), request.slots()));
    Balancer.Result balanced = Balancer.balance(schedule, request.inputs(), request.target().costs(),
        request.target().lineBytes(), merged);
    schedule = balanced.schedule();
    if (balanced.note() != null) {
      notes.add(balanced.note());
    }
    // a core that waits at the end of every iteration for the others: its returning firings one iteration behind
    Pipelining.Result pipelined = !request.pipelining() ? new Pipelining.Result(schedule, null)
        : Pipelining.pipeline(schedule, request.inputs(), request.target().costs(), request.target().lineBytes(),
            merged);
    if (pipelined.note() != null) {
      schedule = pipelined.schedule();
    }
    CoreCount.Verdict verdict = CoreCount.check(schedule, request.inputs(), request.target().costs(),
        request.target().lineBytes(), merged);
    boolean fewer = verdict.cores() < schedule.coreCount();
    if (!fewer && pipelined.note() != null) {
      notes.add(pipelined.note()); // before the verdict, which weighs the pipelined schedule
    }
    if (verdict.note() != null) {
      notes.add(verdict.note());
    }
    return !fewer ? schedule : ListScheduler.schedule(srdag, request.inputs().firstCores(verdict.cores()),
        request.policy(), request.target().l1dBytes());
  }

  /**
   * Why the schedule must lose its iteration offsets, or null: memory that generated code keeps for one iteration at
   * a time would be used in two passes of a loop at once: a copy-on-write buffer (its views' protocol is per
   * iteration) or a buffer an actor's init prototype gets (filled once, before the loop).
   */
  private static PlanNote.NotPipelined splitMemory(Schedule schedule, Classification classes, Decisions decisions) {
    if (schedule.maxSkew() == 0) {
      return null;
    }
    Srdag srdag = schedule.srdag();
    // per memory (a merge root, or an edge of its own), the offsets of its users
    Map<Integer, Set<Integer>> skews = new HashMap<>();
    for (int f = 0; f < srdag.edgeCount(); f++) {
      int memory = memory(classes, f);
      Set<Integer> set = skews.computeIfAbsent(memory, k -> new HashSet<>());
      set.add(schedule.skew(srdag.edgeSource(f)));
      set.add(schedule.skew(srdag.edgeTarget(f)));
    }
    for (int e = 0; e < srdag.edgeCount(); e++) {
      int source = decisions.viewSource(e);
      if (source >= 0 && (skews.get(memory(classes, source)).size() > 1 || skews.get(memory(classes, e)).size() > 1)) {
        return new PlanNote.NotPipelined(PlanNote.Rule.NOT_PIPELINED_VIEW, srdag.edgeSource(e), srdag.edgeTarget(e),
            false);
      }
    }
    for (int v = 0; v < srdag.vertexCount(); v++) {
      for (int e : initPrototypeEdges(srdag, v)) {
        if (skews.get(memory(classes, e)).size() > 1) {
          return new PlanNote.NotPipelined(PlanNote.Rule.NOT_PIPELINED_INIT, v, -1, false);
        }
      }
    }
    return null;
  }

  private static int memory(Classification classes, int edge) {
    return classes.mergeRoot(edge) >= 0 ? classes.mergeRoot(edge) : edge;
  }

  /**
   * The edges whose buffers the init prototype of the vertex's actor gets (its parameters that are not config
   * parameters and name a port: generated code passes them the port's buffer); none for an init prototype of config
   * parameters only, which fills no buffer.
   */
  private static List<Integer> initPrototypeEdges(Srdag srdag, int vertex) {
    int actor = srdag.vertexActor(vertex);
    if (actor < 0) {
      return List.of();
    }
    org.cacheflow.model.Actor origin = srdag.flatGraph().actor(actor).origin();
    if (origin == null || origin.getRefinement() == null || origin.getRefinement().getInitPrototype() == null) {
      return List.of();
    }
    List<Integer> edges = new ArrayList<>();
    for (org.cacheflow.model.PrototypeParameter parameter : origin.getRefinement().getInitPrototype().getParameters()) {
      if (parameter.isConfig()) {
        continue;
      }
      for (int e : srdag.incomingEdges(vertex)) {
        if (parameter.getName().equals(srdag.edgeTargetPort(e))) {
          edges.add(e);
        }
      }
      for (int e : srdag.outgoingEdges(vertex)) {
        if (parameter.getName().equals(srdag.edgeSourcePort(e))) {
          edges.add(e);
        }
      }
    }
    return edges;
  }

  /** The fewest copies of a merge group's memory generated code keeps when several cores use the group (k). */
  public static final int SHARED_GROUP_COPIES = 2;

  /**
   * Per root (a merge root, or an edge with memory of its own), the copies of its memory generated code allocates:
   * when a merge group's buffers are used on several cores under a strategy that pipelines iterations (not the
   * baseline, whose barrier keeps one iteration in flight), one per iteration in flight (iteration i in copy i % k),
   * k = {@link GroupSlots#of} (at least {@link #SHARED_GROUP_COPIES}, enough to span the target's L2 or, with the
   * other such groups of its cores, {@code traffic} ({@link #sharedGroupTraffic}), twice it); for memory
   * one core uses, one more copy per pass of iteration offset between its users ({@link Schedule#skew}: a firing one
   * iteration behind reads iteration i - 1 while the others of its core write iteration i); else 1.
   */
  static int[] groupCopies(Schedule schedule, Classification classes,
      org.cacheflow.plan.strategy.GlobalStrategy strategy, TargetCache target, int asked, long[] cores,
      long[] traffic) {
    Srdag srdag = schedule.srdag();
    int edges = srdag.edgeCount();
    long[] users = new long[edges];
    int[] least = new int[edges];
    int[] most = new int[edges];
    Arrays.fill(least, Integer.MAX_VALUE);
    Arrays.fill(most, Integer.MIN_VALUE);
    for (int e = 0; e < edges; e++) {
      int root = classes.mergeRoot(e);
      int memory = root >= 0 ? root : e;
      for (int v : new int[] {srdag.edgeSource(e), srdag.edgeTarget(e)}) {
        users[memory] |= 1L << (schedule.coreOf(v) & 63);
        least[memory] = Math.min(least[memory], schedule.skew(v));
        most[memory] = Math.max(most[memory], schedule.skew(v));
      }
    }
    boolean pipelines = !strategy.preesmCode();
    int[] copies = new int[edges];
    for (int e = 0; e < copies.length; e++) {
      copies[e] = pipelines && Long.bitCount(cores[e]) > 1
          ? sharedGroupSlots(srdag, classes, target, e, traffic[e], asked)
          : Long.bitCount(users[e]) == 1 && most[e] > least[e] ? 1 + most[e] - least[e] : 1;
    }
    return copies;
  }

  /**
   * The slots of the merge group of {@code root} when several cores use it ({@link GroupSlots}), its cores going
   * through {@code traffic} bytes of such groups an iteration ({@link #sharedGroupTraffic}), or the user's
   * {@code asked} when positive.
   */
  static int sharedGroupSlots(Srdag srdag, Classification classes, TargetCache target, int root, long traffic,
      int asked) {
    return GroupSlots.of(target, groupBytes(srdag, classes, root), traffic, SHARED_GROUP_COPIES, asked);
  }

  /** Per merge root, the cores its group's edges are produced and consumed on (a bit each); 0 for other edges. */
  static long[] groupCores(Schedule schedule, Classification classes) {
    Srdag srdag = schedule.srdag();
    long[] cores = new long[srdag.edgeCount()];
    for (int e = 0; e < cores.length; e++) {
      int root = classes.mergeRoot(e);
      if (root >= 0) {
        cores[root] |= 1L << (schedule.coreOf(srdag.edgeSource(e)) % Long.SIZE);
        cores[root] |= 1L << (schedule.coreOf(srdag.edgeTarget(e)) % Long.SIZE);
      }
    }
    return cores;
  }

  /**
   * Per merge root whose group several cores use ({@code cores}: {@link #groupCores}), the bytes of all such groups its
   * cores go through each iteration:
   * per core, the sum of the groups it uses; the group gets the least of its cores' sums (the reader may be the less
   * busy one; at least the group's own bytes). 0 for every other edge. ({@link GroupSlots}: the slots stop where
   * this traffic makes twice the reader's L2.)
   */
  static long[] sharedGroupTraffic(Srdag srdag, Classification classes, long[] cores) {
    int edges = srdag.edgeCount();
    long[] perCore = new long[Long.SIZE]; // one per bit of a core mask (groupCores)
    for (int r = 0; r < edges; r++) {
      if (Long.bitCount(cores[r]) > 1) {
        long bytes = groupBytes(srdag, classes, r);
        for (long c = cores[r]; c != 0; c &= c - 1) {
          perCore[Long.numberOfTrailingZeros(c)] = add(perCore[Long.numberOfTrailingZeros(c)], bytes);
        }
      }
    }
    long[] traffic = new long[edges];
    for (int r = 0; r < edges; r++) {
      if (Long.bitCount(cores[r]) > 1) {
        long least = Long.MAX_VALUE;
        for (long c = cores[r]; c != 0; c &= c - 1) {
          least = Math.min(least, perCore[Long.numberOfTrailingZeros(c)]);
        }
        traffic[r] = least;
      }
    }
    return traffic;
  }

  /** The bytes a merge group's memory spans (its root's own bytes when the facts do not say). */
  static long groupBytes(Srdag srdag, Classification classes, int root) {
    return groupBytes(srdag, classes.facts(), root);
  }

  private static long groupBytes(Srdag srdag, MemoryFacts facts, int root) {
    long bytes = facts.groupBytes(root);
    return bytes > 0 ? bytes : srdag.edgeBytes(root);
  }

  /**
   * Per edge, whether it lies in a merge group whose slots, when several cores use it ({@link #sharedGroupSlots}),
   * together span the target's L2: the scheduler charges its cross-core lines
   * {@link org.cacheflow.plan.strategy.MeasuredCosts#spanningLineNanos()} ({@link CoreCount}); null without groups.
   */
  private static boolean[] spanning(Srdag srdag, MemoryFacts facts, int[] groups, TargetCache target, int asked) {
    if (groups == null) {
      return null;
    }
    boolean[] spanning = new boolean[groups.length];
    Map<Integer, Boolean> byRoot = new HashMap<>();
    for (int e = 0; e < groups.length; e++) {
      if (groups[e] >= 0) {
        spanning[e] = byRoot.computeIfAbsent(groups[e],
            root -> GroupSlots.spansL2(target, groupBytes(srdag, facts, root), SHARED_GROUP_COPIES, asked));
      }
    }
    return spanning;
  }

  /**
   * The facts with state chains in one memory ({@link ChainFusion}), except under the baseline and {@code preesm} (the
   * merger's groups).
   */
  private static MemoryFacts fused(Srdag srdag, Topology topology, PlanRequest request, MemoryFacts facts) {
    return request.strategy().preesmCode() ? facts
        : ChainFusion.of(srdag, topology, facts);
  }

  /**
   * Per edge, the root edge of the merge group that holds it, or -1; null when the strategy does not alias (its
   * buffers are copied or sent, each cross-core one with slots of its own).
   */
  private static int[] groups(Srdag srdag, MemoryFacts facts) {
    int[] groups = new int[srdag.edgeCount()];
    boolean any = false;
    for (int e = 0; e < groups.length; e++) {
      groups[e] = facts.mergeRoot(e);
      any |= groups[e] >= 0;
    }
    return any ? groups : null;
  }

  private static long totalLoad(Schedule schedule) {
    long total = 0;
    for (int c = 0; c < schedule.coreCount(); c++) {
      total = add(total, schedule.load(c));
    }
    return total;
  }

  private static int[] views(Decisions decisions) {
    int[] result = new int[decisions.edgeCount()];
    for (int e = 0; e < result.length; e++) {
      result[e] = decisions.viewSource(e);
    }
    return result;
  }

  private static long[] viewOffsets(Decisions decisions) {
    long[] result = new long[decisions.edgeCount()];
    for (int e = 0; e < result.length; e++) {
      result[e] = decisions.viewOffset(e);
    }
    return result;
  }

  /** The merges the special actors' default memory scripts give (actors' own scripts are not run). */
  public static MemoryFacts defaultFacts(Srdag srdag) {
    return scriptFacts(srdag, null);
  }

  /**
   * The merges and marks of the memory scripts with default options: the special actors' and, with a project
   * root, the actors' own (problems are left out of the facts, as {@link ScriptMemoryFacts} does).
   */
  public static MemoryFacts scriptFacts(Srdag srdag, Path projectRoot) {
    return ScriptMemoryFacts.of(srdag, MemoryScripts.evaluate(srdag, projectRoot, MemoryScripts.Options.defaults(),
        new Diagnostics()));
  }

  /**
   * Bytes each vertex touches per firing: a firing its inputs and outputs; a special vertex twice the outputs it
   * copies (merged outputs cost nothing).
   */
  static long[] touchedBytes(Srdag srdag, Topology topology, Classification classes) {
    long[] touched = new long[srdag.vertexCount()];
    for (int v = 0; v < srdag.vertexCount(); v++) {
      long total = 0;
      if (Classifier.isCopying(srdag.vertexKind(v))) {
        for (int i = 0; i < topology.outDegree(v); i++) {
          int e = topology.outEdge(v, i);
          if (classes.mergeRoot(e) < 0) {
            total = add(total, add(srdag.edgeBytes(e), srdag.edgeBytes(e)));
          }
        }
      } else {
        for (int i = 0; i < topology.inDegree(v); i++) {
          total = add(total, srdag.edgeBytes(topology.inEdge(v, i)));
        }
        for (int i = 0; i < topology.outDegree(v); i++) {
          total = add(total, srdag.edgeBytes(topology.outEdge(v, i)));
        }
      }
      touched[v] = total;
    }
    return touched;
  }

  /** A buffer's plan. */
  private static BufferPlan bufferPlan(Srdag srdag, Schedule schedule, Classification classes,
      ReuseDistances distances, Decisions decisions, LiveBytes live, int[] groupCopies, int e) {
    long bytes = srdag.edgeBytes(e);
    BufferOrigin origin = classes.origin(e);
    Strategy strategy = decisions.strategy(e);
    long baseline = origin == BufferOrigin.COPY ? bytes : 0;
    // a special vertex's output it fills by copying, unless merged (or a view): also the final tokens of a
    // delay that a special vertex copies into the delay's storage (direct)
    boolean copies = origin == BufferOrigin.COPY && (strategy == Strategy.MEMCPY || strategy == Strategy.NTM
        || strategy == Strategy.PRESTORE || strategy == Strategy.CHANNEL || strategy == Strategy.SEND
        || strategy == Strategy.DIRECT && classes.mergeRoot(e) < 0);
    int root = classes.mergeRoot(e);
    long footprint = switch (strategy) {
      case ALIAS -> root == e ? multiply(bytes, groupCopies[e]) : 0;
      case COW -> 0;
      case CHANNEL -> multiply(bytes, decisions.slots(e));
      // the sender's buffer and the receiver's copy
      case SEND -> multiply(bytes, 2);
      default -> root < 0 ? multiply(bytes, groupCopies[e]) : bytes;
    };
    int producer = srdag.edgeSource(e);
    int consumer = srdag.edgeTarget(e);
    return new BufferPlan(e, srdag.edgeFifo(e), producer, consumer, bytes, classes.classOf(e),
        classes.rule(e),
        origin, classes.crossCore(e), schedule.coreOf(producer), schedule.coreOf(consumer), strategy,
        decisions.prestore(e), decisions.slots(e), decisions.homeCore(e), root, baseline,
        copies ? live.bytes(e) : strategy == Strategy.ALIAS && origin == BufferOrigin.COPY ? classes.copiedIntoMerged(e)
            : 0,
        footprint, distances.rereadBytes(e), distances.rewriteBytes(e), decisions.overridden(e),
        decisions.decision(e), copies);
  }

  private static int[][] buffersByFifo(Srdag srdag) {
    int fifos = srdag.flatGraph().fifos().size();
    int[] counts = new int[fifos];
    for (int e = 0; e < srdag.edgeCount(); e++) {
      counts[srdag.edgeFifo(e)]++;
    }
    int[][] result = new int[fifos][];
    for (int f = 0; f < fifos; f++) {
      result[f] = new int[counts[f]];
      counts[f] = 0;
    }
    for (int e = 0; e < srdag.edgeCount(); e++) {
      int f = srdag.edgeFifo(e);
      result[f][counts[f]++] = e;
    }
    return result;
  }

  private static FifoPlan fifoPlan(FlatGraph graph, FifoNames names, FlatFifo fifo, List<BufferPlan> buffers) {
    Map<BufferClass, Long> byClass = new EnumMap<>(BufferClass.class);
    Map<String, Long> byStrategy = new LinkedHashMap<>();
    Map<Strategy, Long> byStrategyKind = new EnumMap<>(Strategy.class);
    TreeSet<Integer> producers = new TreeSet<>();
    TreeSet<Integer> consumers = new TreeSet<>();
    long baseline = 0;
    long copied = 0;
    long footprint = 0;
    boolean cross = false;
    for (BufferPlan b : buffers) {
      byClass.merge(b.bufferClass(), b.bytes(), MemoryPlanner::add);
      byStrategy.merge(b.strategyLabel(), b.bytes(), MemoryPlanner::add);
      byStrategyKind.merge(b.strategy(), b.bytes(), MemoryPlanner::add);
      producers.add(b.producerCore());
      consumers.add(b.consumerCore());
      baseline = add(baseline, b.baselineBytesCopied());
      copied = add(copied, b.bytesCopied());
      footprint = add(footprint, b.footprintBytes());
      cross |= b.crossCore();
    }
    BufferClass mainClass = largest(byClass);
    Strategy mainStrategy = largest(byStrategyKind);
    int reason = -1;
    long reasonBytes = -1;
    for (BufferPlan b : buffers) {
      if (b.strategy() == mainStrategy && b.bytes() > reasonBytes) {
        reasonBytes = b.bytes();
        reason = b.edge();
      }
    }
    long bytes = graph.fifo(fifo.index()).bytesFor(
        Math.multiplyExact(fifo.production(), graph.actor(fifo.source()).repetitions()));
    return new FifoPlan(fifo.index(), names.source(fifo), names.target(fifo), bytes, buffers.size(),
        new ArrayList<>(producers), new ArrayList<>(consumers), mainClass, sortedByValue(byClass), mainStrategy,
        sortedByValue(byStrategy), reason, baseline, copied, footprint, cross);
  }

  /** The key with the largest value; among equals the first in the map's order; null for an empty map. */
  private static <K> K largest(Map<K, Long> values) {
    K best = null;
    long bestValue = -1;
    for (Map.Entry<K, Long> entry : values.entrySet()) {
      if (entry.getValue() > bestValue) {
        best = entry.getKey();
        bestValue = entry.getValue();
      }
    }
    return best;
  }

  private static <K> Map<K, Long> sortedByValue(Map<K, Long> values) {
    Map<K, Long> sorted = new LinkedHashMap<>();
    values.entrySet().stream().sorted(Map.Entry.<K, Long>comparingByValue(Comparator.reverseOrder()))
        .forEachOrdered(entry -> sorted.put(entry.getKey(), entry.getValue()));
    return sorted;
  }

  static long add(long a, long b) {
    long sum = a + b;
    return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
  }

  private static long multiply(long a, long b) {
    try {
      return Math.multiplyExact(a, b);
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }
}
