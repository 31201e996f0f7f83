package org.cacheflow.plan.strategy;

import static org.cacheflow.plan.strategy.Bytes.human;

import java.util.ArrayList;
import java.util.List;

import org.apache.commons.text.similarity.LevenshteinDistance;
import org.cacheflow.model.ActorKind;
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
  /** Per source memory, whether its copies become copy-on-write views (auto: decided once per source). */
  private final java.util.Map<Integer, Boolean> viewed = new java.util.HashMap<>();

  private StrategySelector(Schedule schedule, Classification classes, ReuseDistances distances, Topology topology,
      TargetCache target, GlobalStrategy global) {
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
    this.cow = new CowSources(schedule, classes, topology, target.pageBytes(), names);
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
    StrategySelector selector = new StrategySelector(schedule, classes, distances, topology, target, global);
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
      String dropped = classes.facts().droppedMerge(e);
      if (dropped != null && selector.decisions.strategy(e) != Strategy.SEND) {
        selector.decisions.reason[e] = dropped + "; " + selector.decisions.reason[e];
      }
    }
    return selector.decisions;
  }

  // ------------------------------------------------------------------------------------------ global

  private void decide(int e) {
    int producerCore = schedule.coreOf(srdag.edgeSource(e));
    BufferOrigin origin = classes.origin(e);
    if (global == GlobalStrategy.BASELINE) {
      if (origin == BufferOrigin.COPY) {
        set(e, Strategy.MEMCPY, "baseline: the " + sourceKind(e) + " copies it with memcpy, as PREESM's generated code "
            + "does");
      } else {
        set(e, Strategy.DIRECT, "baseline: " + (origin == BufferOrigin.DELAY ? "holds a delay's initial tokens"
            : "the producer writes it and the consumer reads it in place") + " (PREESM's shared buffers)");
      }
      return;
    }
    if (classes.classOf(e) == BufferClass.ALIASED && memberView(e)) {
      int consumer = schedule.coreOf(srdag.edgeTarget(e));
      setView(e, (global == GlobalStrategy.COW ? "cow: " : "") + "merged into the memory of "
          + fifoName(cow.root(e)) + ", but its consumer " + (classes.consumersReadOnly(e) ? "runs on "
              + coreName(consumer) + ", where nothing writes that memory (written on " + cow.writerCoreNames(cow.root(e)) + ")"
              : "may write it (not READ_ONLY)") + ": a copy-on-write view of its place replaces sharing in place, so "
          + "the memory stays the producer's for the other views; pages it writes become private");
      return;
    }
    if (classes.classOf(e) == BufferClass.ALIASED) {
      String merge = classes.facts().describeMerge(e);
      boolean copied = classes.origin(e) == BufferOrigin.COPY
          && classes.copiedIntoMerged(e) > 0;
      set(e, Strategy.ALIAS, "aliased, " + (merge != null ? merge : classes.rule(e).description)
          + (copied ? ": it shares its merge group's memory, but its data comes from a buffer of another group, so the "
              + sourceKind(e) + " still copies it" : ": it shares its merge group's memory, nothing is copied"));
      return;
    }
    if (origin == BufferOrigin.DELAY || srdag.isToEnd(e)) {
      set(e, Strategy.DIRECT, origin == BufferOrigin.DELAY
          ? "holds a delay's initial tokens: written once, kept in memory of its own"
          : "carries a delay's final tokens into the delay's storage");
      return;
    }
    switch (global) {
      case COW -> {
        if (origin == BufferOrigin.COPY) {
          String why = cow.refusal(e);
          if (why == null) {
            setView(e, "cow: a copy-on-write view of the " + sourceKind(e) + "'s input replaces the copy");
          } else {
            set(e, Strategy.MEMCPY, "cow: a copy-on-write view cannot apply (" + why + "); plain copy");
          }
        } else {
          set(e, Strategy.DIRECT, "cow: nothing is copied into it (its producer writes it in place)");
        }
      }
      case NTM -> {
        if (origin == BufferOrigin.COPY) {
          set(e, Strategy.NTM, "ntm: the " + sourceKind(e) + " copies it with non-temporal stores");
        } else {
          set(e, Strategy.DIRECT, "ntm: nothing is copied into it (its producer writes it in place)");
        }
      }
      case PRESTORE -> {
        Reuse reuse = reuse(e);
        set(e, Strategy.PRESTORE, reuse.kind, 0, producerCore, "prestore: " + reuse.why);
      }
      case HOMEFORWARD -> {
        if (classes.crossCore(e)) {
          channel(e, "homeforward: ");
        } else if (origin == BufferOrigin.COPY) {
          set(e, Strategy.MEMCPY, "homeforward: same core (" + coreName(producerCore) + "), plain copy");
        } else {
          set(e, Strategy.DIRECT, "homeforward: same core (" + coreName(producerCore) + "), read in place");
        }
      }
      default -> auto(e);
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
    String dropped = classes.facts().droppedMerge(e);
    set(e, Strategy.SEND, "crosses nodes: " + coreName(producer) + " (node " + nodeOfVertex(srdag.edgeSource(e))
        + ") -> " + coreName(consumer) + " (node " + nodeOfVertex(srdag.edgeTarget(e)) + "): an MPI transfer of "
        + human(bytes[e]) + " per iteration, the producer's node sends it and the consumer reads its own copy"
        + (classes.origin(e) == BufferOrigin.COPY ? " (the " + sourceKind(e) + " copies into the sent buffer)" : "")
        + "; nodes share no memory, so it is neither aliased nor a copy-on-write view nor a channel"
        + (dropped != null ? " (" + dropped + ")" : ""));
  }

  // ------------------------------------------------------------------------------------------ auto

  private void auto(int e) {
    if (classes.origin(e) == BufferOrigin.COPY) {
      autoCopy(e);
    } else if (classes.crossCore(e) && viewed(e)) {
      set(e, Strategy.DIRECT, "its memory is a copy-on-write buffer whose views " + cow.readers(e) + " consumers "
          + "read: written in place on " + cow.writerCoreNames(e) + " and published to them, not moved into a "
          + "channel");
    } else if (classes.crossCore(e)) {
      channel(e, "");
    } else {
      int core = schedule.coreOf(srdag.edgeSource(e));
      long reread = distances.rereadBytes(e);
      boolean cached = fits(reread, bytes[e], target.l2Bytes());
      set(e, Strategy.DIRECT, "written and read on " + coreName(core) + ", " + human(reread) + " touched in between"
          + (cached ? " (with the buffer within the L2 of " + human(target.l2Bytes()) + ": the consumer finds it cached)"
              : " (beyond the L2 of " + human(target.l2Bytes()) + ")")
          + ": nothing to copy, and on one core pre-stores only add write-backs (pre-stores paper Sect. 5; "
          + "bench_prestore gains only on cross-core hand-offs of at most " + human(costs.prestoreMaxBytes()) + ")");
    }
  }

  private void autoCopy(int e) {
    BufferClass bufferClass = classes.classOf(e);
    String kind = sourceKind(e);
    String cowNote;
    String why = cow.refusal(e);
    int source = cow.root(e);
    int sharers = cow.sharers(e);
    boolean viewed = why == null && viewed(source);
    if (bufferClass == BufferClass.READ_MOSTLY || sharers >= 2 || viewed) {
      boolean readOnly = classes.consumersReadOnly(e);
      long breakEven = breakEven(e);
      if (viewed) {
        setView(e, (bufferClass == BufferClass.READ_MOSTLY ? "read-mostly (" + classes.evidence(e) + ")"
            : sharers >= 2 ? "its bytes are read by " + sharers + " buffers from the same memory (overlapping reads)"
                : bufferClass.label() + " (" + classes.evidence(e) + ")") + "; "
            + (bytes[e] >= breakEven ? human(bytes[e]) + " is at least " + human(breakEven) + ", the copy-on-write "
                + "break-even for consumers that " + breakEvenCase(e) : "another copy of the same memory reaches the "
                + "copy-on-write break-even, and a source is shared with all its copies or none")
            + " (bench_cow): a view of the " + kind + "'s input replaces the copy, pages are copied only if "
            + (readOnly ? "written" : "written (its consumer may write: those pages become private)"));
        return;
      }
      cowNote = why != null ? "read-mostly, but a copy-on-write view cannot apply (" + why + "); "
          : "read-mostly, but " + human(bytes[e]) + " is below the copy-on-write break-even of " + human(breakEven)
              + " for consumers that " + breakEvenCase(e) + " (bench_cow); ";
    } else {
      cowNote = bufferClass.label() + " (" + classes.evidence(e) + "); ";
    }
    int copier = schedule.coreOf(srdag.edgeSource(e));
    int reader = schedule.coreOf(srdag.edgeTarget(e));
    boolean cross = copier != reader;
    long reread = distances.rereadBytes(e);
    boolean rereadByCopier = !cross && fits(reread, bytes[e], target.l2Bytes());
    if (bytes[e] >= costs.ntmMinBytes() && !rereadByCopier) {
      set(e, Strategy.NTM, cowNote + "a copy of " + human(bytes[e]) + " (at least " + human(costs.ntmMinBytes())
          + ") that " + coreName(copier) + " does not read again soon ("
          + (cross ? "its reader runs on " + coreName(reader)
              : human(reread) + " touched before the read, beyond the L2 of " + human(target.l2Bytes()))
          + "): streaming stores keep it from evicting the copier's working set (NTM paper; bench_ntm_copy: cold "
          + "1 MiB copies 0.96-1.41x memcpy's speed, working set re-read 1.07x instead of 3.07x)");
      return;
    }
    String lateRead = cross ? readTooLateForPrestore(e) : null;
    if (cross && bytes[e] <= costs.prestoreMaxBytes() && lateRead == null) {
      Reuse reuse = reuse(e);
      set(e, Strategy.PRESTORE, reuse.kind, 0, copier, cowNote + "a cross-core hand-off of " + human(bytes[e])
          + " (at most " + human(costs.prestoreMaxBytes()) + ", where bench_prestore measured 1.21-1.26x faster "
          + "hand-offs): copy, then pre-store; " + reuse.why);
      return;
    }
    String safe;
    if (bytes[e] < costs.ntmMinBytes()) {
      safe = human(bytes[e]) + " is below " + human(costs.ntmMinBytes()) + ", where streaming stores stop losing to "
          + "memcpy (2-7x slower on warm copies, bench_ntm_copy)"
          + (!cross ? "" : lateRead != null && bytes[e] <= costs.prestoreMaxBytes() ? ", and " + lateRead
              : ", and above " + human(costs.prestoreMaxBytes()) + " pre-stores slow cross-core hand-offs "
                  + "(bench_prestore, 64 KiB: clean 0.79x, demote 0.82x)");
    } else {
      safe = "its reader on the same core reads it after only " + human(reread) + " (within the L2 of "
          + human(target.l2Bytes()) + "): a cached copy re-reads about 3x faster than a streamed one (machine "
          + "baseline: 85-100 vs 26-34 GB/s)";
    }
    set(e, Strategy.MEMCPY, cowNote + "plain memcpy, the safe choice: " + safe);
  }

  /** A cross-core buffer becomes a channel homed at its reader. */
  private void channel(int e, String prefix) {
    int producer = schedule.coreOf(srdag.edgeSource(e));
    int consumer = schedule.coreOf(srdag.edgeTarget(e));
    int slots = slotsFor(e);
    StringBuilder why = new StringBuilder(prefix);
    why.append("crosses ").append(coreName(producer)).append(" -> ").append(coreName(consumer))
        .append(": a rdy-ack channel homed at ").append(coreName(consumer));
    why.append(classes.origin(e) == BufferOrigin.COPY ? " (the " + sourceKind(e) + " copies into the slot)"
        : ", filled and read in place (no copy)");
    why.append(", replaces the shared buffer and its semaphores (one line transfer per message, channel.md; a "
        + "spinning hand-off takes ~0.1 us where a futex wake takes 26 us, machine baseline); ");
    why.append(slots == 2 ? "2 slots: both fit " + coreName(consumer) + "'s L2 (2 x " + human(bytes[e]) + " <= "
        + human(target.l2Bytes()) + "), so the producer can fill the next iteration's slot while this one is read"
        : "1 slot: a second " + human(bytes[e]) + " slot would not fit the L2 of " + human(target.l2Bytes()));
    PrestoreKind homing = PrestoreKind.NONE;
    String lateRead = readTooLateForPrestore(e);
    if (bytes[e] <= costs.prestoreMaxBytes() && lateRead != null) {
      why.append("; no homing pre-store: ").append(lateRead);
    } else if (bytes[e] <= costs.prestoreMaxBytes()) {
      Reuse reuse = reuse(e);
      homing = reuse.kind;
      why.append("; homing ").append(homing.label).append(": a hand-off of at most ")
          .append(human(costs.prestoreMaxBytes())).append(" (bench_prestore: 1.21-1.26x faster); ").append(reuse.why);
    } else {
      why.append("; no homing pre-store: above ").append(human(costs.prestoreMaxBytes()))
          .append(" they slowed hand-offs (bench_prestore, 64 KiB: clean 0.79x, demote 0.82x, non-temporal 0.72x)");
    }
    set(e, Strategy.CHANNEL, homing, slots, consumer, why.toString());
  }

  private int slotsFor(int e) {
    return bytes[e] <= target.l2Bytes() / 2 ? 2 : 1;
  }

  /**
   * Why a cross-core hand-off is read too late for a pre-store to pay, or null when it is read soon enough: the
   * buffer and the bytes touched between its write and the remote read must fit the writer's L1d. A pre-store
   * gains only while the reader would otherwise fetch the lines dirty from the writer's private cache;
   * bench_prestore_paper (4), a 1 KiB hand-off after D bytes written by the producer's core: clean / demote 1.1-1.6x
   * faster for D up to 16 KiB, 0.91-0.98x at 64-256 KiB, 0.73-0.87x at 1 MiB.
   */
  private String readTooLateForPrestore(int e) {
    long reread = distances.rereadBytes(e);
    if (fits(reread, bytes[e], target.l1dBytes())) {
      return null;
    }
    return "read late (" + human(reread) + " touched before the read, with the buffer beyond the writer's L1d of "
        + human(target.l1dBytes()) + "), where pre-stores only add write-backs (bench_prestore_paper (4): 1 KiB "
        + "hand-off, 0.91-0.98x at 64-256 KiB touched in between, 0.73-0.87x at 1 MiB)";
  }

  /** The pre-store kind by the pre-stores paper's rule, with the distances behind it. */
  private record Reuse(PrestoreKind kind, String why) {
  }

  private Reuse reuse(int e) {
    int writerCore = schedule.coreOf(srdag.edgeSource(e));
    boolean cross = classes.crossCore(e);
    long rewrite = distances.rewriteBytes(e);
    long reread = distances.rereadBytes(e);
    long shared = cross ? target.llcBytes() : target.l2Bytes();
    String sharedName = cross ? "the LLC of " + human(shared) : "the L2 of " + human(shared);
    if (fits(rewrite, bytes[e], target.l2Bytes())) {
      return new Reuse(PrestoreKind.DEMOTE, "re-written soon (" + coreName(writerCore) + " touches " + human(rewrite)
          + " before writing it again, within its L2 of " + human(target.l2Bytes()) + "): demote");
    }
    if (fits(reread, bytes[e], shared)) {
      return new Reuse(PrestoreKind.CLEAN, "not re-written soon (" + human(rewrite) + " touched first, beyond the L2 of "
          + human(target.l2Bytes()) + ") but re-read soon (" + human(reread) + " touched before the read, within "
          + sharedName + "): clean");
    }
    return new Reuse(PrestoreKind.SKIP, "neither re-written soon (" + human(rewrite) + " touched first, beyond the L2 "
        + "of " + human(target.l2Bytes()) + ") nor re-read soon (" + human(reread) + " touched before the read, "
        + "beyond " + sharedName + "): skip");
  }

  /** Whether a buffer and what is touched before its reuse fit a cache. */
  private static boolean fits(long touched, long buffer, long cache) {
    return touched <= cache && buffer <= cache - touched;
  }

  // ------------------------------------------------------------------------------------------ applicability

  /**
   * The copy-on-write break-even for a copy: the read-only one (bench_cow: 64 KiB) when its consumers only read,
   * or when several buffers read the same memory (each copy avoided saves its bytes, a consumer that writes pays
   * per page written); the "one page written" one (1 MiB) for a lone copy whose consumer may write.
   */
  private long breakEven(int e) {
    boolean shared = cow.sharers(e) >= 2;
    return classes.consumersReadOnly(e) || shared ? costs.cowReadOnlyMinBytes() : costs.cowReadMostlyMinBytes();
  }

  private String breakEvenCase(int e) {
    return classes.consumersReadOnly(e) ? "only read" : cow.sharers(e) >= 2
        ? "may write, measured read-only since the " + cow.sharers(e) + " readers of the same bytes would "
            + "otherwise each copy them" : "write a page";
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
            || cow.sharers(e) >= 2) && bytes[e] >= breakEven(e);
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
  private void setView(int e, String why) {
    set(e, Strategy.COW, why);
    decisions.setView(e, cow.root(e), cow.offset(e));
  }

  /** Why a copy-on-write view cannot replace the copy into this buffer, or null when it can. */
  String cowInapplicable(int e) {
    return cow.refusal(e);
  }

  private String fifoName(int e) {
    return names.fifo(srdag.flatGraph().fifo(srdag.edgeFifo(e)));
  }

  /** Why a strategy cannot apply to a buffer, or null when it can. */
  String inapplicable(int e, Strategy strategy) {
    String why = inapplicableAlone(e, strategy);
    if (why == null && strategy != Strategy.ALIAS && classes.mergeRoot(e) == e) {
      return "it hosts the other buffers of its merge group (memory scripts); override those instead";
    }
    return why;
  }

  private String inapplicableAlone(int e, Strategy strategy) {
    BufferOrigin origin = classes.origin(e);
    if (strategy != Strategy.SEND && crossesNodes(e)) {
      return "its producer and consumer run on different nodes (" + nodeOfVertex(srdag.edgeSource(e)) + " -> "
          + nodeOfVertex(srdag.edgeTarget(e)) + "): only an MPI transfer (send) crosses nodes";
    }
    return switch (strategy) {
      case ALIAS -> classes.mergeRoot(e) >= 0 ? null
          : "memory scripts did not merge it with another buffer, and sharing memory unmerged could let one "
              + "buffer overwrite another";
      case DIRECT -> origin == BufferOrigin.COPY && classes.mergeRoot(e) < 0
          ? "the " + sourceKind(e) + " fills it by copying; the copy goes only when memory scripts merge it" : null;
      case MEMCPY, NTM -> origin == BufferOrigin.COPY ? null
          : origin == BufferOrigin.DELAY ? "it holds a delay's initial tokens; nothing is copied into it"
              : "nothing is copied into it: its producer writes it in place";
      case COW -> cowInapplicable(e);
      case PRESTORE -> origin == BufferOrigin.DELAY ? "it holds a delay's initial tokens, written once" : null;
      case CHANNEL -> !classes.crossCore(e)
          ? "producer and consumer both run on " + coreName(schedule.coreOf(srdag.edgeSource(e)))
          : classes.mergeRoot(e) >= 0 ? "it shares memory with its merge group, so it cannot move into a channel's slots"
              : origin == BufferOrigin.DELAY || srdag.isToEnd(e) ? "it carries a delay's tokens" : null;
      case SEND -> crossesNodes(e) ? null : "its producer and consumer run on one node, which shares memory";
    };
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
    int[] fill = java.util.Arrays.copyOf(offsets, fifoCount);
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
        int applied = 0;
        int skipped = 0;
        String firstWhy = null;
        for (int i = offsets[fifo.index()]; i < offsets[fifo.index() + 1]; i++) {
          int e = byFifo[i];
          String why = inapplicable(e, override.strategy());
          if (why != null) {
            skipped++;
            firstWhy = firstWhy == null ? why : firstWhy;
            continue;
          }
          applyOverride(e, override);
          applied++;
        }
        if (applied == 0 && skipped > 0) {
          throw new OverrideException("override '" + override.text() + "': " + override.strategy().label
              + " cannot apply to FIFO " + names.fifo(fifo) + ": " + firstWhy);
        }
        if (skipped > 0) {
          decisions.notes.add("override '" + override.text() + "' applies to " + applied + " of the "
              + (applied + skipped) + " buffers of FIFO " + names.fifo(fifo) + "; the others keep their strategy ("
              + firstWhy + ")");
        }
      }
    }
  }

  private void applyOverride(int e, StrategyOverride override) {
    int producerCore = schedule.coreOf(srdag.edgeSource(e));
    String prefix = "override '" + override.text() + "'";
    switch (override.strategy()) {
      case PRESTORE -> {
        Reuse reuse = reuse(e);
        PrestoreKind kind = override.prestore() == null ? reuse.kind : override.prestore();
        set(e, Strategy.PRESTORE, kind, 0, producerCore, prefix + (override.prestore() == null ? "; " + reuse.why : ""));
      }
      case CHANNEL -> {
        channel(e, prefix + "; ");
        if (override.slots() > 0) {
          askSlots(e, override.slots());
        }
      }
      case COW -> setView(e, prefix);
      default -> set(e, override.strategy(), prefix);
    }
    decisions.overridden[e] = true;
  }

  /** A channel's slots as the user asked, and its reason saying so instead of why it had its own. */
  private void askSlots(int e, int slots) {
    decisions.slots[e] = slots;
    decisions.reason[e] = decisions.reason[e].replaceFirst("; (\\d+ slots?: [^;]*|\\d+ slots as asked)",
        "; " + slots + " slots as asked");
  }

  private String suggestion(String pattern) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (FlatFifo fifo : srdag.flatGraph().fifos()) {
      for (String end : new String[] {names.source(fifo), names.target(fifo)}) {
        int d = LevenshteinDistance.getDefaultInstance().apply(pattern.toLowerCase(java.util.Locale.ROOT),
            end.toLowerCase(java.util.Locale.ROOT));
        if (d < bestDistance) {
          bestDistance = d;
          best = end;
        }
      }
    }
    return best != null && bestDistance <= Math.max(2, pattern.length() / 3) ? "; did you mean '" + best + "'?" : "";
  }

  // ------------------------------------------------------------------------------------------ helpers

  private void set(int e, Strategy strategy, String why) {
    int home = schedule.coreOf(srdag.edgeSource(e));
    decisions.set(e, strategy, PrestoreKind.NONE, 0, home, why);
  }

  private void set(int e, Strategy strategy, PrestoreKind kind, int slots, int home, String why) {
    decisions.set(e, strategy, kind, slots, home, why);
  }

  private String sourceKind(int e) {
    return kindOf(srdag.edgeSource(e));
  }

  private String kindOf(int vertex) {
    return switch (srdag.vertexKind(vertex)) {
      case FORK -> "fork";
      case JOIN -> "join";
      case BROADCAST -> "broadcast";
      case ROUNDBUFFER -> "round buffer";
      default -> "producer";
    };
  }

  private String coreName(int core) {
    return schedule.platform().core(core).name();
  }
}
