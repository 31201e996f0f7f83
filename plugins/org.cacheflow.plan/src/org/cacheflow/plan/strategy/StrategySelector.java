package org.cacheflow.plan.strategy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.commons.text.similarity.LevenshteinDistance;
import org.cacheflow.analysis.FlatFifo;
import org.cacheflow.analysis.FlatGraph;
import org.cacheflow.plan.classify.BufferClass;
import org.cacheflow.plan.classify.BufferOrigin;
import org.cacheflow.plan.classify.Classification;
import org.cacheflow.plan.schedule.Schedule;
import org.cacheflow.plan.schedule.Topology;
import org.cacheflow.analysis.srdag.Srdag;

/**
 * Chooses each single-rate buffer's strategy from its class, the schedule, the reuse distances and the
 * target's caches and measured break-even sizes, then applies per-FIFO overrides. See docs/plan.md for the
 * rules of {@code auto}; in short, for a buffer that memory scripts did not merge:
 * <ul>
 * <li>a <b>copy</b> (special vertex output) that is read-mostly becomes a copy-on-write view when it is at
 * least the measured break-even (64 KiB when its consumers only read, 1 MiB when they may write a page) and
 * a view can express it; otherwise a copy of at least 1 MiB that the copying core does not read again soon is
 * made with non-temporal stores; a small (at most 4 KiB) cross-core copy read soon (it and the bytes touched
 * before the read fit the writer's L1d) is pre-stored, the kind chosen by the pre-stores paper's rule; anything
 * else is a plain memcpy, the safe choice;</li>
 * <li>a buffer an actor writes and an actor on <b>another core</b> reads becomes a home-forwarded channel
 * homed at the reader, filled and read in place, with 2 slots when both fit the reader's L2 and homing by the
 * pre-store rule for hand-offs up to 4 KiB read soon;</li>
 * <li>a buffer written and read on the <b>same core</b> stays a direct buffer: nothing to copy, and
 * pre-stores only add write-backs there.</li>
 * </ul>
 * On several nodes, a buffer whose producer and consumer run on <b>different nodes</b> is an MPI transfer
 * ({@link Strategy#SEND}) under every plan-wide strategy, and nothing else is: nodes share no memory, so it is
 * never aliased, viewed or a channel (merge groups were already restricted to one node,
 * {@link org.cacheflow.plan.partition.NodeLocalFacts}; copy-on-write sources and their views stay on one node,
 * {@link CowSources}).
 *
 * <p>
 * The pre-store rule (pre-stores paper, Sect. 6.2.3): re-written soon (the writer's core touches less than
 * its L2 before writing it again) gives demote; else re-read soon (less than the cache shared by writer and
 * reader is touched before the read: L2 on one core, the LLC across cores) gives clean; else skip.
 *
 * <p>
 * Every choice is recorded as a value: the rule that fired with its figures ({@link Decision}, per buffer), why a view
 * or an override cannot apply ({@link CowRefusal}, {@link OverrideRefusal}) and the remarks for the user
 * ({@link PlanNote}); the report bundle's {@code DecisionText} puts them in words.
 */
public final class StrategySelector {

  private final Srdag srdag;
  private final Schedule schedule;
  private final Classification classes;
  private final ReuseDistances distances;
  private final Topology topology;
  private final TargetCache target;
  private final MeasuredCosts costs;
  private final GlobalStrategy global;
  private final FifoNames names;
  private final long[] bytes;
  private final Decisions decisions;
  private final CowSources cow;
  private final MeasuredRereads rereads;
  /** Per source memory, whether its copies become copy-on-write views (auto: decided once per source). */
  private final Map<Integer, Boolean> viewed = new HashMap<>();

  private StrategySelector(Schedule schedule, Classification classes, ReuseDistances distances, Topology topology,
      TargetCache target, GlobalStrategy global, MeasuredRereads rereads) {
    this.rereads = rereads == null ? MeasuredRereads.NONE : rereads;
    this.srdag = schedule.srdag();
    this.schedule = schedule;
    this.classes = classes;
    this.distances = distances;
    this.topology = topology;
    this.target = target;
    this.costs = target.costs();
    this.global = global;
    this.names = new FifoNames(srdag.flatGraph());
    this.bytes = new long[srdag.edgeCount()];
    for (int e = 0; e < bytes.length; e++) {
      bytes[e] = srdag.edgeBytes(e);
    }
    this.decisions = new Decisions(srdag.edgeCount());
    this.cow = new CowSources(schedule, classes, topology, target.pageBytes());
  }

  /**
   * Decides every buffer's strategy.
   *
   * @param slotsAsked the slots of every channel as the user asked ({@code --override slots=K}, which wins over a
   *     FIFO's own override, as generated code follows it), or 0 for each channel's own
   * @throws OverrideException for an override that matches no FIFO or can apply to none of its buffers
   */
  public static Decisions select(Schedule schedule, Classification classes, ReuseDistances distances,
      Topology topology, TargetCache target, GlobalStrategy global, List<StrategyOverride> overrides,
      int slotsAsked) {
    return select(schedule, classes, distances, topology, target, global, overrides, slotsAsked,
        MeasuredRereads.NONE);
  }

  /**
   * Decides every buffer's strategy, pre-storing a buffer only where the profile's re-read distances show the
   * pattern ({@link MeasuredRereads}).
   *
   * @see #select(Schedule, Classification, ReuseDistances, Topology, TargetCache, GlobalStrategy, List, int)
   */
  public static Decisions select(Schedule schedule, Classification classes, ReuseDistances distances,
      Topology topology, TargetCache target, GlobalStrategy global, List<StrategyOverride> overrides,
      int slotsAsked, MeasuredRereads rereads) {
    StrategySelector selector = new StrategySelector(schedule, classes, distances, topology, target, global,
        rereads);
    for (int e = 0; e < selector.bytes.length; e++) {
      if (selector.crossesNodes(e)) {
        selector.send(e);
      } else {
        selector.decide(e);
      }
    }
    selector.applyOverrides(overrides);
    for (int e = 0; e < selector.bytes.length; e++) {
      if (slotsAsked > 0 && selector.decisions.strategy(e) == Strategy.CHANNEL) {
        selector.askSlots(e, slotsAsked);
      }
    }
    return selector.decisions;
  }

  // ------------------------------------------------------------------------------------------ global

  private void decide(int e) {
    if (global == GlobalStrategy.BASELINE) {
      baseline(e);
    } else if (global == GlobalStrategy.PREESM) {
      // PREESM's memory scripts: a merged buffer shares its group's memory, every other one as PREESM's code
      if (!shared(e)) {
        baseline(e);
      }
    } else if (!shared(e) && !delay(e)) {
      switch (global) {
        case COW -> cowCopy(e);
        case NTM -> set(e, classes.origin(e) == BufferOrigin.COPY ? Strategy.NTM : Strategy.DIRECT,
            classes.origin(e) == BufferOrigin.COPY ? new Decision.Plain(Decision.Rule.NTM_COPY)
                : new Decision.InPlace(global));
        case PRESTORE -> {
          Decision.RereadMeasured measured = rereadSoonByWriter(e);
          if (measured != null) {
            set(e, Strategy.DIRECT, measured);
          } else {
            Decision.Reuse reuse = reuse(e);
            set(e, Strategy.PRESTORE, reuse.kind(), 0, producerCore(e), new Decision.Prestored(reuse,
                measuredDistance(e)));
          }
        }
        case HOMEFORWARD -> homeforward(e);
        default -> auto(e);
      }
    }
  }

  /** PREESM's code: copies with memcpy, everything else in place. */
  private void baseline(int e) {
    BufferOrigin origin = classes.origin(e);
    if (origin == BufferOrigin.COPY) {
      set(e, Strategy.MEMCPY, new Decision.Plain(Decision.Rule.BASELINE_COPY));
    } else {
      set(e, Strategy.DIRECT, new Decision.Plain(origin == BufferOrigin.DELAY ? Decision.Rule.BASELINE_DELAY
          : Decision.Rule.BASELINE_IN_PLACE));
    }
  }

  /** A buffer in a merge group: a view of its place in the group's memory, or aliased; false for others. */
  private boolean shared(int e) {
    if (classes.classOf(e) != BufferClass.ALIASED) {
      return false;
    }
    if (memberView(e)) {
      int consumer = schedule.coreOf(srdag.edgeTarget(e));
      setView(e, new Decision.MergedView(global == GlobalStrategy.COW, cow.root(e), consumer,
          classes.consumersReadOnly(e), writerCores(cow.root(e))));
    } else {
      set(e, Strategy.ALIAS, new Decision.Aliased(classes.origin(e) == BufferOrigin.COPY
          && classes.copiedIntoMerged(e) > 0));
    }
    return true;
  }

  /** A delay's initial or final tokens stay direct; false for other buffers. */
  private boolean delay(int e) {
    if (classes.origin(e) != BufferOrigin.DELAY && !srdag.isToEnd(e)) {
      return false;
    }
    set(e, Strategy.DIRECT, new Decision.Plain(classes.origin(e) == BufferOrigin.DELAY ? Decision.Rule.DELAY_INITIAL
        : Decision.Rule.DELAY_FINAL));
    return true;
  }

  /** Under {@code cow}: every copy a view where one can apply. */
  private void cowCopy(int e) {
    if (classes.origin(e) != BufferOrigin.COPY) {
      set(e, Strategy.DIRECT, new Decision.InPlace(global));
      return;
    }
    CowRefusal why = cow.refusal(e);
    if (why == null) {
      setView(e, new Decision.Plain(Decision.Rule.COW_VIEW));
    } else {
      set(e, Strategy.MEMCPY, new Decision.CowRefused(why));
    }
  }

  /** Under {@code homeforward}: every cross-core buffer a channel. */
  private void homeforward(int e) {
    if (classes.crossCore(e)) {
      setChannel(e, channel(e, true));
    } else if (classes.origin(e) == BufferOrigin.COPY) {
      set(e, Strategy.MEMCPY, new Decision.SameCoreHomeforward(Decision.Rule.SAME_CORE_COPY, producerCore(e)));
    } else {
      set(e, Strategy.DIRECT, new Decision.SameCoreHomeforward(Decision.Rule.SAME_CORE_IN_PLACE, producerCore(e)));
    }
  }

  // ------------------------------------------------------------------------------------------ nodes

  /** Whether the buffer's producer and consumer run on different nodes. */
  boolean crossesNodes(int e) {
    return nodeOfVertex(srdag.edgeSource(e)) != nodeOfVertex(srdag.edgeTarget(e));
  }

  private int nodeOfVertex(int vertex) {
    return schedule.platform().nodeOf(schedule.coreOf(vertex));
  }

  /**
   * A buffer crossing nodes becomes an MPI transfer.
   *
   * @throws org.cacheflow.model.diagnostics.InputException when it is larger than one MPI message carries (the
   *     node partitioner keeps such buffers on one node unless constraints forbid it, and then says so)
   */
  private void send(int e) {
    if (bytes[e] > org.cacheflow.plan.partition.NodePartitioner.MAX_MESSAGE_BYTES) {
      FlatFifo fifo = srdag.flatGraph().fifo(srdag.edgeFifo(e));
      throw new org.cacheflow.model.diagnostics.InputException(fifo.location(), "FIFO " + names.fifo(fifo)
          + " carries " + bytes[e] + " bytes between nodes, more than one MPI message can ("
          + org.cacheflow.plan.partition.NodePartitioner.MAX_MESSAGE_BYTES + " bytes, MPI's int count)");
    }
    int producer = schedule.coreOf(srdag.edgeSource(e));
    int consumer = schedule.coreOf(srdag.edgeTarget(e));
    set(e, Strategy.SEND, new Decision.Sent(producer, consumer, nodeOfVertex(srdag.edgeSource(e)),
        nodeOfVertex(srdag.edgeTarget(e)), bytes[e], classes.origin(e) == BufferOrigin.COPY));
  }

  // ------------------------------------------------------------------------------------------ auto

  private void auto(int e) {
    if (classes.origin(e) == BufferOrigin.COPY) {
      autoCopy(e);
    } else if (classes.crossCore(e) && viewed(e)) {
      set(e, Strategy.DIRECT, new Decision.CowSource(cow.readers(e), writerCores(e)));
    } else if (classes.crossCore(e)) {
      setChannel(e, channel(e, false));
    } else {
      long reread = distances.rereadBytes(e);
      set(e, Strategy.DIRECT, new Decision.SameCore(producerCore(e), reread,
          fits(reread, bytes[e], target.l2Bytes()), target.l2Bytes(), costs.prestoreMaxBytes()));
    }
  }

  /** A copy under auto: a view when one applies and pays, else a copy made the way its reuse calls for. */
  private void autoCopy(int e) {
    BufferClass bufferClass = classes.classOf(e);
    CowRefusal refusal = cow.refusal(e);
    int sharers = cow.sharers(e);
    boolean viewed = refusal == null && viewed(cow.root(e));
    if (bufferClass != BufferClass.READ_MOSTLY && sharers < 2 && !viewed) {
      copy(e, new Decision.NoView(Decision.NoView.Rule.NOT_READ_MOSTLY, null, bytes[e], null));
      return;
    }
    Decision.BreakEven breakEven = breakEven(e);
    if (viewed) {
      Decision.ViewCause cause = bufferClass == BufferClass.READ_MOSTLY ? Decision.ViewCause.READ_MOSTLY
          : sharers >= 2 ? Decision.ViewCause.SHARED : Decision.ViewCause.SOURCE_VIEWED;
      setView(e, new Decision.AutoView(cause, sharers, bytes[e], breakEven, classes.consumersReadOnly(e)));
    } else if (refusal != null) {
      copy(e, new Decision.NoView(Decision.NoView.Rule.REFUSED, refusal, bytes[e], null));
    } else {
      copy(e, new Decision.NoView(Decision.NoView.Rule.BELOW_BREAK_EVEN, null, bytes[e], breakEven));
    }
  }

  /**
   * A copy no view replaces: with non-temporal stores when large and not read again soon by its copier, pre-stored
   * when a small cross-core hand-off read soon, else a plain memcpy.
   */
  private void copy(int e, Decision.NoView noView) {
    int copier = schedule.coreOf(srdag.edgeSource(e));
    int reader = schedule.coreOf(srdag.edgeTarget(e));
    boolean cross = copier != reader;
    long reread = distances.rereadBytes(e);
    boolean rereadByCopier = !cross && fits(reread, bytes[e], target.l2Bytes());
    if (bytes[e] >= costs.ntmMinBytes() && !rereadByCopier) {
      set(e, Strategy.NTM, new Decision.NonTemporalCopy(noView, bytes[e], costs.ntmMinBytes(), copier, reader, reread,
          target.l2Bytes()));
      return;
    }
    Decision.LateRead late = cross ? readTooLateForPrestore(e) : null;
    if (cross && bytes[e] <= costs.prestoreMaxBytes() && late == null) {
      Decision.Reuse reuse = reuse(e);
      set(e, Strategy.PRESTORE, reuse.kind(), 0, copier, new Decision.PrestoredCopy(noView, bytes[e],
          costs.prestoreMaxBytes(), reuse));
      return;
    }
    Decision.MemcpyRule rule = bytes[e] < costs.ntmMinBytes() ? Decision.MemcpyRule.SMALL
        : Decision.MemcpyRule.REREAD_SOON;
    set(e, Strategy.MEMCPY, new Decision.PlainCopy(noView, rule, bytes[e], costs.ntmMinBytes(), cross, late,
        costs.prestoreMaxBytes(), reread, target.l2Bytes()));
  }

  /** A cross-core buffer as a channel homed at its reader: its slots and the sender's homing pre-store. */
  private Decision.Channel channel(int e, boolean homeforward) {
    int producer = schedule.coreOf(srdag.edgeSource(e));
    int consumer = schedule.coreOf(srdag.edgeTarget(e));
    int slots = slotsFor(e);
    Decision.Slots why = new Decision.Slots(slots == 2 ? Decision.Slots.Rule.TWO_FIT
        : Decision.Slots.Rule.ONE_TOO_LARGE, slots, bytes[e], target.l2Bytes());
    return new Decision.Channel(homeforward, producer, consumer, classes.origin(e) == BufferOrigin.COPY, why,
        homing(e));
  }

  /** Whether the sender of a channel pre-stores, by the pre-store rule, for hand-offs small and read soon. */
  private Decision.Homing homing(int e) {
    long max = costs.prestoreMaxBytes();
    if (bytes[e] > max) {
      return new Decision.Homing(Decision.Homing.Rule.TOO_LARGE, max, null, null);
    }
    Decision.LateRead late = readTooLateForPrestore(e);
    if (late != null) {
      return new Decision.Homing(Decision.Homing.Rule.READ_LATE, max, late, null);
    }
    return new Decision.Homing(Decision.Homing.Rule.HOMED, max, null, reuse(e));
  }

  private void setChannel(int e, Decision.Channel channel) {
    setChannel(e, channel, channel);
  }

  private void setChannel(int e, Decision.Channel channel, Decision why) {
    set(e, Strategy.CHANNEL, channel.homing().kind(), channel.slots().slots(), channel.consumerCore(), why);
  }

  private int slotsFor(int e) {
    return bytes[e] <= target.l2Bytes() / 2 ? 2 : 1;
  }

  /**
   * How late a cross-core hand-off is read when too late for a pre-store to pay, or null when it is read soon enough:
   * the buffer and the bytes touched between its write and the remote read must fit the writer's L1d. A pre-store
   * gains only while the reader would otherwise fetch the lines dirty from the writer's private cache (the target's
   * measured figures say by how much).
   */
  private Decision.LateRead readTooLateForPrestore(int e) {
    long reread = distances.rereadBytes(e);
    if (fits(reread, bytes[e], target.l1dBytes())) {
      return null;
    }
    return new Decision.LateRead(reread, target.l1dBytes());
  }

  /**
   * The profile's reason to keep a buffer's pre-store off, or null: its reader runs on its writer's core and the
   * measured re-read distance, with the buffer, fits the writer's L2 ({@link MeasuredRereads#rereadSoon}).
   */
  private Decision.RereadMeasured rereadSoonByWriter(int e) {
    Long distance = measuredDistance(e);
    if (distance == null || classes.crossCore(e) || !MeasuredRereads.rereadSoon(distance, bytes[e],
        target.l2Bytes())) {
      return null;
    }
    return new Decision.RereadMeasured(producerCore(e), distance, bytes[e], target.l2Bytes(), rereads.source());
  }

  /** The profile's re-read distance of the buffer's FIFO, or null when there is none. */
  private Long measuredDistance(int e) {
    return rereads.distance(srdag.edgeFifo(e));
  }

  /** The pre-store kind by the pre-stores paper's rule, with the distances behind it. */
  private Decision.Reuse reuse(int e) {
    int writerCore = schedule.coreOf(srdag.edgeSource(e));
    boolean cross = classes.crossCore(e);
    long rewrite = distances.rewriteBytes(e);
    long reread = distances.rereadBytes(e);
    long shared = cross ? target.llcBytes() : target.l2Bytes();
    PrestoreKind kind = fits(rewrite, bytes[e], target.l2Bytes()) ? PrestoreKind.DEMOTE
        : fits(reread, bytes[e], shared) ? PrestoreKind.CLEAN : PrestoreKind.BYPASS;
    return new Decision.Reuse(kind, writerCore, rewrite, reread, target.l2Bytes(), cross, shared);
  }

  /** Whether a buffer and what is touched before its reuse fit a cache. */
  private static boolean fits(long touched, long buffer, long cache) {
    return touched <= cache && buffer <= cache - touched;
  }

  // ------------------------------------------------------------------------------------------ applicability

  /**
   * The copy-on-write break-even for a copy: the read-only one when its consumers only read, or when several
   * buffers read the same memory (each copy avoided saves its bytes, a consumer that writes pays per page written);
   * the "one page written" one for a lone copy whose consumer may write.
   */
  private Decision.BreakEven breakEven(int e) {
    int sharers = cow.sharers(e);
    if (classes.consumersReadOnly(e)) {
      return new Decision.BreakEven(Decision.BreakEvenCase.ONLY_READ, sharers, costs.cowReadOnlyMinBytes());
    }
    return sharers >= 2 ? new Decision.BreakEven(Decision.BreakEvenCase.SHARED_READERS, sharers,
        costs.cowReadOnlyMinBytes())
        : new Decision.BreakEven(Decision.BreakEvenCase.WRITE_PAGE, sharers, costs.cowReadMostlyMinBytes());
  }

  /**
   * Whether the copies of a source memory become copy-on-write views: it must be shareable, and under auto some
   * copy of it must reach its break-even. All of a source's copies are views or none, so that the memory is
   * either the producer's published buffer or, as before, shared by the merge group's own synchronisation.
   */
  private boolean viewed(int source) {
    if (source < 0 || global != GlobalStrategy.COW && global != GlobalStrategy.AUTO) {
      return false;
    }
    return viewed.computeIfAbsent(source, r -> {
      if (cow.shareable(r) != null) {
        return false;
      }
      // worth it only when a copy goes: merged outputs alone share the memory already
      for (int e : cow.copies(r)) {
        boolean worthIt = global == GlobalStrategy.COW || (classes.classOf(e) == BufferClass.READ_MOSTLY
            || cow.sharers(e) >= 2) && bytes[e] >= breakEven(e).bytes();
        if (cow.refusal(e) == null && worthIt) {
          return true;
        }
      }
      return false;
    });
  }

  /** Whether a merged output becomes a view because its group's memory is shared through views. */
  private boolean memberView(int e) {
    return classes.origin(e) == BufferOrigin.COPY && classes.mergeRoot(e) >= 0 && classes.mergeRoot(e) != e
        && cow.root(e) >= 0 && cow.memberNeedsView(e) && cow.refusal(e) == null && viewed(cow.root(e));
  }

  /** A copy-on-write view, with where it reads recorded for the code generator. */
  private void setView(int e, Decision why) {
    set(e, Strategy.COW, why);
    decisions.setView(e, cow.root(e), cow.offset(e));
  }

  /** Why a copy-on-write view cannot replace the copy into this buffer, or null when it can. */
  CowRefusal cowInapplicable(int e) {
    return cow.refusal(e);
  }

  private List<Integer> writerCores(int source) {
    return cow.writerCores(source).stream().boxed().toList();
  }

  /** Why a strategy cannot apply to a buffer, or null when it can. */
  OverrideRefusal inapplicable(int e, Strategy strategy) {
    OverrideRefusal why = inapplicableAlone(e, strategy);
    if (why == null && strategy != Strategy.ALIAS && classes.mergeRoot(e) == e) {
      return OverrideRefusal.of(OverrideRefusal.Rule.HOSTS_GROUP);
    }
    return why;
  }

  private OverrideRefusal inapplicableAlone(int e, Strategy strategy) {
    BufferOrigin origin = classes.origin(e);
    if (strategy != Strategy.SEND && crossesNodes(e)) {
      return new OverrideRefusal(OverrideRefusal.Rule.OTHER_NODES, -1, -1, nodeOfVertex(srdag.edgeSource(e)),
          nodeOfVertex(srdag.edgeTarget(e)), null);
    }
    OverrideRefusal.Rule rule = switch (strategy) {
      case ALIAS -> classes.mergeRoot(e) >= 0 ? null : OverrideRefusal.Rule.NOT_MERGED;
      case DIRECT -> origin == BufferOrigin.COPY && classes.mergeRoot(e) < 0 ? OverrideRefusal.Rule.FILLED_BY_COPY
          : null;
      case MEMCPY, NTM -> origin == BufferOrigin.COPY ? null
          : origin == BufferOrigin.DELAY ? OverrideRefusal.Rule.DELAY_NOTHING_COPIED
              : OverrideRefusal.Rule.NOTHING_COPIED;
      case COW -> cowInapplicable(e) == null ? null : OverrideRefusal.Rule.COW;
      case PRESTORE -> origin == BufferOrigin.DELAY ? OverrideRefusal.Rule.DELAY_WRITTEN_ONCE : null;
      case CHANNEL -> !classes.crossCore(e) ? OverrideRefusal.Rule.SAME_CORE
          : classes.mergeRoot(e) >= 0 ? OverrideRefusal.Rule.MERGED
              : origin == BufferOrigin.DELAY || srdag.isToEnd(e) ? OverrideRefusal.Rule.DELAY_TOKENS : null;
      case SEND -> crossesNodes(e) ? null : OverrideRefusal.Rule.ONE_NODE;
    };
    if (rule == null) {
      return null;
    }
    return new OverrideRefusal(rule, rule == OverrideRefusal.Rule.FILLED_BY_COPY ? srdag.edgeSource(e) : -1,
        rule == OverrideRefusal.Rule.SAME_CORE ? producerCore(e) : -1, -1, -1,
        rule == OverrideRefusal.Rule.COW ? cowInapplicable(e) : null);
  }

  // ------------------------------------------------------------------------------------------ overrides

  private void applyOverrides(List<StrategyOverride> overrides) {
    if (overrides.isEmpty()) {
      return;
    }
    FlatGraph graph = srdag.flatGraph();
    int fifoCount = graph.fifos().size();
    int[] offsets = new int[fifoCount + 1];
    for (int e = 0; e < bytes.length; e++) {
      offsets[srdag.edgeFifo(e) + 1]++;
    }
    for (int f = 0; f < fifoCount; f++) {
      offsets[f + 1] += offsets[f];
    }
    int[] byFifo = new int[bytes.length];
    int[] fill = Arrays.copyOf(offsets, fifoCount);
    for (int e = 0; e < bytes.length; e++) {
      byFifo[fill[srdag.edgeFifo(e)]++] = e;
    }
    for (StrategyOverride override : overrides) {
      List<FlatFifo> matched = new ArrayList<>();
      for (FlatFifo fifo : graph.fifos()) {
        if (override.matches(names.source(fifo)) || override.matches(names.target(fifo))) {
          matched.add(fifo);
        }
      }
      if (matched.isEmpty()) {
        throw new OverrideException("override '" + override.text() + "': no FIFO has an end '" + override.pattern()
            + "'" + suggestion(override.pattern()) + " (FIFO ends are written actor.port as 'cacheflow inspect' "
            + "prints them)");
      }
      for (FlatFifo fifo : matched) {
        applyToFifo(override, fifo, offsets, byFifo);
      }
    }
  }

  /**
   * Applies an override to the buffers of one FIFO it can apply to.
   *
   * @throws OverrideException when it can apply to none of them
   */
  private void applyToFifo(StrategyOverride override, FlatFifo fifo, int[] offsets, int[] byFifo) {
    int applied = 0;
    int skipped = 0;
    OverrideRefusal firstWhy = null;
    int firstEdge = -1;
    for (int i = offsets[fifo.index()]; i < offsets[fifo.index() + 1]; i++) {
      int e = byFifo[i];
      OverrideRefusal why = inapplicable(e, override.strategy());
      if (why != null) {
        skipped++;
        firstEdge = firstWhy == null ? e : firstEdge;
        firstWhy = firstWhy == null ? why : firstWhy;
        continue;
      }
      applyOverride(e, override);
      applied++;
    }
    if (applied == 0 && skipped > 0) {
      throw new OverrideException(override, names.fifo(fifo), firstEdge, firstWhy, schedule);
    }
    if (skipped > 0) {
      decisions.notes.add(new PlanNote.PartialOverride(override.text(), applied, applied + skipped, fifo.index(),
          firstWhy));
    }
  }

  private void applyOverride(int e, StrategyOverride override) {
    switch (override.strategy()) {
      case PRESTORE -> {
        Decision.Reuse reuse = reuse(e);
        PrestoreKind kind = override.prestore() == null ? reuse.kind() : override.prestore();
        set(e, Strategy.PRESTORE, kind, 0, producerCore(e), new Decision.Overridden(override.text(),
            override.prestore() == null ? reuse : null, null));
      }
      case CHANNEL -> {
        Decision.Channel channel = channel(e, false);
        setChannel(e, channel, new Decision.Overridden(override.text(), null, channel));
        if (override.slots() > 0) {
          askSlots(e, override.slots());
        }
      }
      case COW -> setView(e, new Decision.Overridden(override.text(), null, null));
      default -> set(e, override.strategy(), new Decision.Overridden(override.text(), null, null));
    }
    decisions.overridden[e] = true;
  }

  /** A channel's slots as the user asked, its decision saying so instead of why it had its own. */
  private void askSlots(int e, int slots) {
    decisions.slots[e] = slots;
    Decision why = decisions.decision[e];
    if (why instanceof Decision.Channel channel) {
      decisions.decision[e] = channel.withSlotsAsked(slots);
    } else if (why instanceof Decision.Overridden overridden && overridden.channel() != null) {
      decisions.decision[e] = new Decision.Overridden(overridden.text(), overridden.reuse(),
          overridden.channel().withSlotsAsked(slots));
    }
  }

  private String suggestion(String pattern) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (FlatFifo fifo : srdag.flatGraph().fifos()) {
      for (String end : new String[] {names.source(fifo), names.target(fifo)}) {
        int d = LevenshteinDistance.getDefaultInstance().apply(pattern.toLowerCase(Locale.ROOT),
            end.toLowerCase(Locale.ROOT));
        if (d < bestDistance) {
          bestDistance = d;
          best = end;
        }
      }
    }
    return best != null && bestDistance <= Math.max(2, pattern.length() / 3) ? "; did you mean '" + best + "'?" : "";
  }

  // ------------------------------------------------------------------------------------------ helpers

  private void set(int e, Strategy strategy, Decision why) {
    decisions.set(e, strategy, PrestoreKind.NONE, 0, producerCore(e), why);
  }

  private void set(int e, Strategy strategy, PrestoreKind kind, int slots, int home, Decision why) {
    decisions.set(e, strategy, kind, slots, home, why);
  }

  private int producerCore(int e) {
    return schedule.coreOf(srdag.edgeSource(e));
  }
}
