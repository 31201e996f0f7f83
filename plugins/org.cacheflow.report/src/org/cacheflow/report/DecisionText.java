package org.cacheflow.report;

import static org.cacheflow.plan.strategy.Bytes.human;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.model.ActorKind;
import org.cacheflow.plan.classify.ClassRule;
import org.cacheflow.plan.classify.Classification;
import org.cacheflow.plan.mapping.Platform;
import org.cacheflow.plan.schedule.RunSchedule;
import org.cacheflow.plan.memoryplan.BufferPlan;
import org.cacheflow.plan.memoryplan.FifoPlan;
import org.cacheflow.plan.memoryplan.LiveBytes;
import org.cacheflow.plan.memoryplan.MemoryPlan;
import org.cacheflow.plan.strategy.CowRefusal;
import org.cacheflow.plan.strategy.Decision;
import org.cacheflow.plan.strategy.FifoNames;
import org.cacheflow.plan.strategy.GroupSlots;
import org.cacheflow.plan.strategy.MeasuredFigures;
import org.cacheflow.plan.strategy.OverrideException;
import org.cacheflow.plan.strategy.OverrideRefusal;
import org.cacheflow.plan.strategy.PlanNote;
import org.cacheflow.plan.strategy.Strategy;

/**
 * The planner's decisions in words: why each buffer and FIFO has its strategy ({@link Decision}), why a
 * copy-on-write view or an override cannot apply ({@link CowRefusal}, {@link OverrideRefusal}), and the plan's notes
 * ({@link PlanNote}). The benchmark figures a rule rests on are quoted when the target has them
 * ({@link MeasuredFigures}); the rules alone otherwise. The plan text, {@code plan.md}, {@code plan.json} and the
 * graph's tooltips all take their reasons from here.
 */
public final class DecisionText {

  private final Srdag srdag;
  private final Platform platform;
  private final Classification classes;
  private final LiveBytes live;
  private final MeasuredFigures figures;
  private final FifoNames names;
  private final List<PlanNote> planNotes;
  /** The plan-wide mode PREESM's plain decisions are worded under ({@code baseline} or {@code preesm}). */
  private final String mode;

  private DecisionText(Srdag srdag, Platform platform, Classification classes, LiveBytes live,
      MeasuredFigures figures, List<PlanNote> planNotes, String mode) {
    this.planNotes = planNotes;
    this.mode = mode;
    this.srdag = srdag;
    this.platform = platform;
    this.classes = classes;
    this.live = live;
    this.figures = figures;
    this.names = new FifoNames(srdag.flatGraph());
  }

  /** The words for the decisions of a plan, with its target's measured figures. */
  public static DecisionText of(MemoryPlan plan) {
    return new DecisionText(plan.srdag(), plan.platform(), plan.classification(), plan.liveBytes(),
        plan.target().costs().figures(), plan.notes(), plan.strategy().preesmCode() ? plan.strategy().label
            : "baseline");
  }

  /**
   * The message of an override that cannot apply, as the user reads it: {@code override 'T': S cannot apply to FIFO
   * F: why}; the exception's own message for other override errors.
   */
  public static String message(OverrideException error) {
    if (error.refusal() == null) {
      return error.getMessage();
    }
    Srdag srdag = error.schedule().srdag();
    DecisionText text = new DecisionText(srdag, error.schedule().platform(), null, null, null, List.of(),
        "baseline");
    return "override '" + error.override().text() + "': " + error.override().strategy().label
        + " cannot apply to FIFO " + error.fifo() + ": " + text.refusal(error.refusal(), error.edge());
  }

  // ------------------------------------------------------------------------------------------ buffers and FIFOs

  /** Why a FIFO has its strategy: the reason of its largest buffer with that strategy ("" for none). */
  public String fifo(MemoryPlan plan, FifoPlan fifo) {
    return fifo.reasonEdge() < 0 ? "" : buffer(plan.buffer(fifo.reasonEdge()));
  }

  /** Why a buffer has its strategy, with the figures behind it. */
  public String buffer(BufferPlan b) {
    int e = b.edge();
    String text = decision(e, b.decision());
    String dropped = classes.facts().droppedMerge(e);
    if (dropped != null && b.strategy() != Strategy.SEND) {
      text = dropped + "; " + text;
    }
    return live.partial(e) && b.specialCopy() ? text + "; " + partialCopy(e) : text;
  }

  /** Why a special vertex copies only part of a buffer: its consumer reads no other bytes. */
  private String partialCopy(int edge) {
    int consumer = srdag.edgeTarget(edge);
    ActorKind kind = srdag.vertexKind(consumer);
    String name = switch (kind) {
      case ROUNDBUFFER -> "round buffer";
      case JOIN -> "join";
      case FORK -> "fork";
      case BROADCAST -> "broadcast";
      default -> kind.name().toLowerCase(Locale.ROOT);
    };
    String what = live.bytes(edge) == 0 ? "nothing of it is copied"
        : "only bytes " + live.first(edge) + "-" + live.end(edge) + " of " + srdag.edgeBytes(edge) + " are copied";
    return what + ": its consumer " + srdag.vertexName(consumer) + " (" + name
        + (kind == ActorKind.ROUNDBUFFER ? ", which keeps only the last bytes of its inputs" : "")
            + ") reads no others";
  }

  private String decision(int e, Decision d) {
    if (d instanceof Decision.Plain plain) {
      return plain(e, plain.rule());
    }
    if (d instanceof Decision.InPlace inPlace) {
      return inPlace.strategy().label + ": nothing is copied into it (its producer writes it in place)";
    }
    if (d instanceof Decision.MergedView view) {
      return mergedView(view);
    }
    if (d instanceof Decision.Aliased aliased) {
      String merge = classes.facts().describeMerge(e);
      return "aliased, " + (merge != null ? merge : rule(classes.rule(e))) + (aliased.copiedFromOtherGroup()
          ? ": it shares its merge group's memory, but its data comes from a buffer of another group, so the "
              + sourceKind(e) + " still copies it" : ": it shares its merge group's memory, nothing is copied");
    }
    if (d instanceof Decision.CowRefused refused) {
      return "cow: a copy-on-write view cannot apply (" + cow(refused.refusal()) + "); plain copy";
    }
    if (d instanceof Decision.Prestored prestored) {
      return "prestore: " + reuse(prestored.reuse()) + (prestored.measuredReread() == null ? "" : "; the profile "
          + "measured " + human(prestored.measuredReread()) + " touched before its first re-read, "
          + (classes.crossCore(e) ? "by another core" : "with the buffer more than the L2")
          + ": not re-read soon by its writer, where a pre-store pays");
    }
    if (d instanceof Decision.RereadMeasured measured) {
      return "direct, not pre-stored: the profile" + (measured.source() == null ? "" : " " + measured.source())
          + " measured it re-read on its writer's core " + coreName(measured.core()) + " after "
          + human(measured.distance()) + " touched; with the buffer (" + human(measured.bytes()) + ") that fits the "
          + "L2 (" + human(measured.l2Bytes()) + "): re-read soon, where a pre-store only adds write-backs";
    }
    if (d instanceof Decision.SameCoreHomeforward same) {
      return "homeforward: same core (" + coreName(same.core()) + "), "
          + (same.rule() == Decision.Rule.SAME_CORE_COPY ? "plain copy" : "read in place");
    }
    if (d instanceof Decision.Sent sent) {
      return sent(e, sent);
    }
    if (d instanceof Decision.CowSource source) {
      return "its memory is a copy-on-write buffer whose views " + source.readers() + " consumers read: written in "
          + "place on " + coreNames(source.writerCores()) + " and published to them, not moved into a channel";
    }
    if (d instanceof Decision.Channel channel) {
      return channel(e, channel);
    }
    if (d instanceof Decision.SameCore same) {
      return sameCore(same);
    }
    if (d instanceof Decision.AutoView view) {
      return autoView(e, view);
    }
    if (d instanceof Decision.NonTemporalCopy copy) {
      return noView(e, copy.noView()) + nonTemporal(copy);
    }
    if (d instanceof Decision.PrestoredCopy copy) {
      return noView(e, copy.noView()) + "a cross-core hand-off of " + human(copy.bytes()) + " (at most "
          + human(copy.prestoreMaxBytes()) + (figures == null ? "" : ", where bench_prestore measured "
              + range(figures.prestoreGain()) + " faster hand-offs") + "): copy, then pre-store; "
          + reuse(copy.reuse());
    }
    if (d instanceof Decision.PlainCopy copy) {
      return noView(e, copy.noView()) + "plain memcpy, the safe choice: " + plainCopy(copy);
    }
    Decision.Overridden override = (Decision.Overridden) d;
    String prefix = "override '" + override.text() + "'";
    return override.reuse() != null ? prefix + "; " + reuse(override.reuse())
        : override.channel() != null ? prefix + "; " + channel(e, override.channel()) : prefix;
  }

  private String plain(int e, Decision.Rule rule) {
    return switch (rule) {
      case BASELINE_COPY -> mode + ": the " + sourceKind(e) + " copies it with memcpy, as PREESM's generated code "
          + "does";
      case BASELINE_DELAY -> mode + ": holds a delay's initial tokens (PREESM's shared buffers)";
      case BASELINE_IN_PLACE -> mode + ": the producer writes it and the consumer reads it in place (PREESM's "
          + "shared buffers)";
      case DELAY_INITIAL -> "holds a delay's initial tokens: written once, kept in memory of its own";
      case DELAY_FINAL -> "carries a delay's final tokens into the delay's storage";
      case COW_VIEW -> "cow: a copy-on-write view of the " + sourceKind(e) + "'s input replaces the copy";
      case NTM_COPY -> "ntm: the " + sourceKind(e) + " copies it with non-temporal stores";
      default -> rule.name();
    };
  }

  private String mergedView(Decision.MergedView view) {
    return (view.underCow() ? "cow: " : "") + "merged into the memory of " + fifoName(view.memory())
        + ", but its consumer " + (view.consumerReadOnly() ? "runs on " + coreName(view.consumerCore())
            + ", where nothing writes that memory (written on " + coreNames(view.writerCores()) + ")"
            : "may write it (not READ_ONLY)") + ": a copy-on-write view of its place replaces sharing in place, so "
        + "the memory stays the producer's for the other views; pages it writes become private";
  }

  private String sent(int e, Decision.Sent sent) {
    String dropped = classes.facts().droppedMerge(e);
    return "crosses nodes: " + coreName(sent.producerCore()) + " (node " + sent.producerNode() + ") -> "
        + coreName(sent.consumerCore()) + " (node " + sent.consumerNode() + "): an MPI transfer of "
        + human(sent.bytes()) + " per iteration, the producer's node sends it and the consumer reads its own copy"
        + (sent.copied() ? " (the " + sourceKind(e) + " copies into the sent buffer)" : "")
        + "; nodes share no memory, so it is neither aliased nor a copy-on-write view nor a channel"
        + (dropped != null ? " (" + dropped + ")" : "");
  }

  private String sameCore(Decision.SameCore same) {
    return "written and read on " + coreName(same.core()) + ", " + human(same.reread()) + " touched in between"
        + (same.cached() ? " (with the buffer within the L2 of " + human(same.l2Bytes())
            + ": the consumer finds it cached)" : " (beyond the L2 of " + human(same.l2Bytes()) + ")")
        + ": nothing to copy, and on one core pre-stores only add write-backs (pre-stores paper Sect. 5"
        + (figures == null ? "" : "; bench_prestore gains only on cross-core hand-offs of at most "
            + human(same.prestoreMaxBytes())) + ")";
  }

  private String channel(int e, Decision.Channel channel) {
    StringBuilder why = new StringBuilder(channel.homeforward() ? "homeforward: " : "");
    String consumer = coreName(channel.consumerCore());
    why.append("crosses ").append(coreName(channel.producerCore())).append(" -> ").append(consumer)
        .append(": a rdy-ack channel homed at ").append(consumer);
    why.append(channel.copied() ? " (the " + sourceKind(e) + " copies into the slot)"
        : ", filled and read in place (no copy)");
    why.append(", replaces the shared buffer and its semaphores (one line transfer per message, channel.md");
    if (figures != null) {
      why.append("; a spinning hand-off takes ~").append(num(figures.spinHandoffMicros())).append(" us where a futex "
          + "wake takes ").append(num(figures.futexWakeMicros())).append(" us, machine baseline");
    }
    why.append("); ");
    Decision.Slots slots = channel.slots();
    why.append(switch (slots.rule()) {
      case TWO_FIT -> "2 slots: both fit " + consumer + "'s L2 (2 x " + human(slots.bytes()) + " <= "
          + human(slots.l2Bytes()) + "), so the producer can fill the next iteration's slot while this one is read";
      case ONE_TOO_LARGE -> "1 slot: a second " + human(slots.bytes()) + " slot would not fit the L2 of "
          + human(slots.l2Bytes());
      case ASKED -> slots.slots() + " slots as asked";
    });
    Decision.Homing homing = channel.homing();
    why.append(switch (homing.rule()) {
      case READ_LATE -> "; no homing pre-store: " + late(homing.late());
      case HOMED -> "; homing " + homing.kind().label + ": a hand-off of at most " + human(homing.maxBytes())
          + (figures == null ? "" : " (bench_prestore: " + range(figures.prestoreGain()) + " faster)") + "; "
          + reuse(homing.reuse());
      case TOO_LARGE -> "; no homing pre-store: above " + human(homing.maxBytes()) + " they slowed hand-offs"
          + (figures == null ? "" : " (bench_prestore, " + human(figures.prestoreLossBytes()) + ": clean "
              + num(figures.prestoreLossClean()) + "x, demote " + num(figures.prestoreLossDemote())
              + "x, non-temporal " + num(figures.prestoreLossNonTemporal()) + "x)");
    });
    return why.toString();
  }

  /** A hand-off read too late for a pre-store to pay. */
  private String late(Decision.LateRead late) {
    return "read late (" + human(late.reread()) + " touched before the read, with the buffer beyond the writer's L1d "
        + "of " + human(late.l1dBytes()) + "), where pre-stores only add write-backs" + (figures == null ? ""
            : " (bench_prestore_paper (4): " + human(figures.lateHandoffBytes()) + " hand-off, "
                + range(figures.lateSpeed()) + " at " + human(figures.lateTouchedFrom()).replace(" KiB", "") + "-"
                + human(figures.lateTouchedTo()) + " touched in between, " + range(figures.farSpeed()) + " at "
                + human(figures.farTouched()) + ")");
  }

  private String reuse(Decision.Reuse reuse) {
    String sharedName = (reuse.crossCore() ? "the LLC of " : "the L2 of ") + human(reuse.sharedBytes());
    String l2 = human(reuse.l2Bytes());
    return switch (reuse.kind()) {
      case DEMOTE -> "re-written soon (" + coreName(reuse.writerCore()) + " touches " + human(reuse.rewrite())
          + " before writing it again, within its L2 of " + l2 + "): demote";
      case CLEAN -> "not re-written soon (" + human(reuse.rewrite()) + " touched first, beyond the L2 of " + l2
          + ") but re-read soon (" + human(reuse.reread()) + " touched before the read, within " + sharedName
          + "): clean";
      default -> "neither re-written soon (" + human(reuse.rewrite()) + " touched first, beyond the L2 of " + l2
          + ") nor re-read soon (" + human(reuse.reread()) + " touched before the read, beyond " + sharedName
          + "): skip";
    };
  }

  private String autoView(int e, Decision.AutoView view) {
    Decision.BreakEven breakEven = view.breakEven();
    String cause = switch (view.cause()) {
      case READ_MOSTLY -> "read-mostly (" + evidence(e) + ")";
      case SHARED -> "its bytes are read by " + view.sharers() + " buffers from the same memory (overlapping reads)";
      case SOURCE_VIEWED -> classes.classOf(e).label() + " (" + evidence(e) + ")";
    };
    return cause + "; " + (view.reachesBreakEven() ? human(view.bytes()) + " is at least "
        + human(breakEven.bytes()) + ", the copy-on-write break-even for consumers that " + breakEvenCase(breakEven)
        : "another copy of the same memory reaches the copy-on-write break-even, and a source is shared with all "
            + "its copies or none")
        + benchCow() + ": a view of the " + sourceKind(e) + "'s input replaces the copy, pages are copied only if "
        + (view.consumerReadOnly() ? "written" : "written (its consumer may write: those pages become private)");
  }

  private String benchCow() {
    return figures == null ? "" : " (bench_cow)";
  }

  private static String breakEvenCase(Decision.BreakEven breakEven) {
    return switch (breakEven.breakEvenCase()) {
      case ONLY_READ -> "only read";
      case SHARED_READERS -> "may write, measured read-only since the " + breakEven.sharers() + " readers of the "
          + "same bytes would otherwise each copy them";
      case WRITE_PAGE -> "write a page";
    };
  }

  /** Why no view replaces a copy: the first part of its reason. */
  private String noView(int e, Decision.NoView noView) {
    return switch (noView.rule()) {
      case REFUSED -> "read-mostly, but a copy-on-write view cannot apply (" + cow(noView.refusal()) + "); ";
      case BELOW_BREAK_EVEN -> "read-mostly, but " + human(noView.bytes()) + " is below the copy-on-write break-even "
          + "of " + human(noView.breakEven().bytes()) + " for consumers that " + breakEvenCase(noView.breakEven())
          + benchCow() + "; ";
      case NOT_READ_MOSTLY -> classes.classOf(e).label() + " (" + evidence(e) + "); ";
    };
  }

  private String nonTemporal(Decision.NonTemporalCopy copy) {
    boolean cross = copy.copierCore() != copy.readerCore();
    return "a copy of " + human(copy.bytes()) + " (at least " + human(copy.ntmMinBytes()) + ") that "
        + coreName(copy.copierCore()) + " does not read again soon ("
        + (cross ? "its reader runs on " + coreName(copy.readerCore())
            : human(copy.reread()) + " touched before the read, beyond the L2 of " + human(copy.l2Bytes()))
        + "): streaming stores keep it from evicting the copier's working set (NTM paper" + (figures == null ? ""
            : "; bench_ntm_copy: cold " + human(copy.ntmMinBytes()) + " copies " + range(figures.ntmColdSpeed())
                + " memcpy's speed, working set re-read " + num(figures.ntmWorkingSetReread()) + "x instead of "
                + num(figures.memcpyWorkingSetReread()) + "x") + ")";
  }

  private String plainCopy(Decision.PlainCopy copy) {
    if (copy.memcpy() == Decision.MemcpyRule.REREAD_SOON) {
      return "its reader on the same core reads it after only " + human(copy.reread()) + " (within the L2 of "
          + human(copy.l2Bytes()) + "): a cached copy re-reads " + (figures == null ? "faster than a streamed one"
              : "about " + num(Math.round(figures.cachedRereadGbs().low() / figures.streamedRereadGbs().high()))
                  + "x faster than a streamed one (machine baseline: " + num(figures.cachedRereadGbs().low()) + "-"
                  + num(figures.cachedRereadGbs().high()) + " vs " + num(figures.streamedRereadGbs().low()) + "-"
                  + num(figures.streamedRereadGbs().high()) + " GB/s)");
    }
    String text = human(copy.bytes()) + " is below " + human(copy.ntmMinBytes()) + ", where streaming stores stop "
        + "losing to memcpy" + (figures == null ? "" : " (" + num(figures.ntmWarmSlowdown().low()) + "-"
            + num(figures.ntmWarmSlowdown().high()) + "x slower on warm copies, bench_ntm_copy)");
    if (!copy.crossCore()) {
      return text;
    }
    if (copy.late() != null && copy.bytes() <= copy.prestoreMaxBytes()) {
      return text + ", and " + late(copy.late());
    }
    return text + ", and above " + human(copy.prestoreMaxBytes()) + " pre-stores slow cross-core hand-offs"
        + (figures == null ? "" : " (bench_prestore, " + human(figures.prestoreLossBytes()) + ": clean "
            + num(figures.prestoreLossClean()) + "x, demote " + num(figures.prestoreLossDemote()) + "x)");
  }

  // ------------------------------------------------------------------------------------------ classes

  /** The evidence for a buffer's class: its rule, and where the memory scripts said so. */
  public String evidence(int edge) {
    String detail = classes.evidenceDetail(edge);
    String rule = rule(classes.rule(edge));
    return detail == null ? rule : rule + ": " + detail;
  }

  /** Why a merge group has its slots, as the generated code's comment on the group gives it. */
  public static String groupSlots(GroupSlots.Reason reason) {
    int slots = reason.slots();
    String l2 = "the reader's L2 (" + human(reason.l2Bytes()) + ")";
    return switch (reason.rule()) {
      case ASKED -> slots + " slots as asked";
      case MOST -> slots + " slots (the most; together " + human(slots * reason.bytes()) + ", within " + l2 + ")";
      case ONE_SPANS -> slots + " slots (one already spans " + l2 + ")";
      case TRAFFIC -> slots + " slots: with the other merge groups its cores share (" + human(reason.traffic())
          + " an iteration) together at least " + reason.trafficSpans() + " x " + l2 + ", so a slot's lines have left "
          + "it when the writer comes back";
      case SPANNING -> slots + " slots, together spanning " + l2 + ": a slot's lines have left it when the writer "
          + "comes back";
    };
  }

  /** A class rule in words. */
  public static String rule(ClassRule rule) {
    return switch (rule) {
      case MERGED -> "memory-script merging placed it in the same memory as another buffer";
      case MARKED_READ_MOSTLY -> "a memory script marked its FIFO read-mostly";
      case MARKED_PRIVATE -> "a memory script marked its FIFO private";
      case MARKED_WRITE_MOSTLY -> "a memory script marked its FIFO write-mostly";
      case SHARED_COPY_WRITTEN -> "a broadcast / round buffer output whose consumers are not all READ_ONLY: they may "
          + "write, but rarely";
      case SHARED_COPY_NOT_MERGED -> "a broadcast / round buffer output whose consumers only read, which memory "
          + "scripts did not merge";
      case COPY_WRITTEN -> "a copy (fork / join output) whose destination its consumer writes";
      case COPY_READ -> "a copy (fork / join output) its consumers only read";
      case DELAY_TOKENS -> "it holds a delay's initial tokens, which keep their own memory";
      case FEEDBACK -> "a feedback FIFO: only its own actor writes and reads it";
      case PRODUCED -> "written by its producer, which does not read it again";
    };
  }

  // ------------------------------------------------------------------------------------------ refusals

  /** Why a copy-on-write view cannot replace a copy. */
  public String cow(CowRefusal refusal) {
    if (refusal instanceof CowRefusal.Plain plain) {
      return switch (plain.rule()) {
        case IN_PLACE -> "nothing is copied into it: its producer writes it in place";
        case MARKED_PRIVATE -> "memory scripts mark it private: its consumer gets a copy of its own";
        case COPIED_FROM_OTHER_GROUP -> "its data is copied into its place from another merge group's memory";
        case IN_PIECES -> "it lies in pieces of its merge group's memory; a view maps one range";
        case HOSTS_GROUP -> "it hosts its merge group's memory";
        case JOIN_GATHERS -> "a join output gathers several inputs; a view maps one range";
        default -> "its consumer is a special vertex that copies it on (a view feeds actors)";
      };
    }
    if (refusal instanceof CowRefusal.OfVertex of) {
      String kind = kindOf(of.vertex());
      return switch (of.rule()) {
        case INPUT_DELAY -> "the " + kind + "'s input holds a delay's initial tokens";
        case NO_LAYOUT -> "the " + kind + "'s input is merged without a byte layout";
        default -> "its slice spans several pieces of the " + kind + "'s input in its merge group's memory";
      };
    }
    if (refusal instanceof CowRefusal.Inputs inputs) {
      return "its " + kindOf(inputs.vertex()) + " has " + inputs.inputs() + " inputs";
    }
    if (refusal instanceof CowRefusal.Repeats repeats) {
      return "it repeats the " + kindOf(repeats.vertex()) + "'s " + human(repeats.inputBytes()) + " input to fill "
          + human(repeats.bytes()) + "; a view maps one copy";
    }
    if (refusal instanceof CowRefusal.SmallerThanPage small) {
      return "copy-on-write works on whole pages of " + human(small.pageBytes()) + " and it carries "
          + human(small.bytes());
    }
    return memoryRefusal(refusal);
  }

  /** Why the memory holding a copy's data cannot be shared through views. */
  private String memoryRefusal(CowRefusal refusal) {
    if (refusal instanceof CowRefusal.OfMemory of) {
      return memory(of.memory()) + " holds a delay's initial tokens";
    }
    if (refusal instanceof CowRefusal.OffNode off) {
      return memory(off.memory()) + " (written on node " + off.homeNode() + ") is also used on node " + off.node()
          + " (" + fifoName(off.user()) + "): a copy-on-write buffer and its views live in one process, and nodes "
          + "share no memory";
    }
    if (refusal instanceof CowRefusal.MemberNotViewable member) {
      return memory(member.memory()) + " is shared in place with " + fifoName(member.member()) + ", whose consumer "
          + (!member.consumerWrites() ? "runs on " + coreName(member.consumerCore())
              + ", where nothing writes that memory" : "may write it")
          + ", and a view cannot replace it (" + (member.smallerThanPage() ? "smaller than a page"
              : "it lies in pieces") + ")";
    }
    if (refusal instanceof CowRefusal.WrittenInPlace written) {
      return memory(written.memory()) + " is written in place by the consumer of " + fifoName(written.member());
    }
    if (refusal instanceof CowRefusal.ConsumerBeforePublication before) {
      return "the consumer of " + fifoName(before.reader()) + " runs on " + coreName(before.core())
          + " before the last use of " + memory(before.memory()) + " there, which publishes that core's part of it";
    }
    CowRefusal.WaitsForView waits = (CowRefusal.WaitsForView) refusal;
    return "publishing " + memory(waits.memory()) + " after its last use on " + coreName(waits.core())
        + " would wait for the consumer of " + fifoName(waits.reader()) + " on " + coreName(waits.readerCore())
        + ", which waits for that publication";
  }

  private String memory(int edge) {
    return "the memory of " + fifoName(edge);
  }

  /** Why an override cannot apply to the buffer of {@code edge}. */
  public String refusal(OverrideRefusal refusal, int edge) {
    return switch (refusal.rule()) {
      case OTHER_NODES -> "its producer and consumer run on different nodes (" + refusal.producerNode() + " -> "
          + refusal.consumerNode() + "): only an MPI transfer (send) crosses nodes";
      case NOT_MERGED -> "memory scripts did not merge it with another buffer, and sharing memory unmerged could let "
          + "one buffer overwrite another";
      case FILLED_BY_COPY -> "the " + kindOf(refusal.vertex()) + " fills it by copying; the copy goes only when "
          + "memory scripts merge it";
      case DELAY_NOTHING_COPIED -> "it holds a delay's initial tokens; nothing is copied into it";
      case NOTHING_COPIED -> "nothing is copied into it: its producer writes it in place";
      case COW -> cow(refusal.cow());
      case DELAY_WRITTEN_ONCE -> "it holds a delay's initial tokens, written once";
      case SAME_CORE -> "producer and consumer both run on " + coreName(refusal.core());
      case MERGED -> "it shares memory with its merge group, so it cannot move into a channel's slots";
      case DELAY_TOKENS -> "it carries a delay's tokens";
      case ONE_NODE -> "its producer and consumer run on one node, which shares memory";
      case HOSTS_GROUP -> "it hosts the other buffers of its merge group (memory scripts); override those instead";
    };
  }

  // ------------------------------------------------------------------------------------------ run-time schedules

  /**
   * What a dynamic or hybrid schedule ({@code --schedule}) does to the program, in words: what was chosen and why,
   * which of the asked strategy's mechanisms it keeps, and what a firing placed at run time loses (none for
   * {@code static}).
   *
   * @param schedule the choice
   * @param asked the strategy asked for ({@code --strategy}), by its label
   * @param cores the cores (workers) the program runs on
   * @param slots the iterations in flight
   * @param variable the actors marked variable (hybrid)
   * @param counted what the one-core plan kept and dropped, counted ({@code "3 buffers in 1 merge group, ..."}), or
   *     null when no one-core plan was made (plan)
   */
  public static List<String> schedule(RunSchedule schedule, String asked, int cores, int slots,
      List<String> variable, String counted) {
    if (!schedule.dispatched()) {
      return List.of();
    }
    List<String> notes = new ArrayList<>();
    if (schedule.kind() == RunSchedule.Kind.DYNAMIC) {
      notes.add("schedule dynamic: every firing of the single-rate graph goes to a pool of ready firings when its "
          + "last predecessor completes, and any of the " + cores + " cores takes the next (the highest data-demand "
          + "priority first); chosen with --schedule, for actors whose cost varies or timings that are wrong");
    } else {
      notes.add("schedule hybrid: the firings of " + (variable.isEmpty() ? "no actor (none marked with --variable)"
          : String.join(", ", variable)) + " and the copies of special actors go to a pool any of the " + cores
          + " cores takes from in the gaps of its static order; every other firing keeps a static order per core; "
          + "chosen with --schedule");
    }
    notes.add("schedule " + schedule.kind().label() + ": the graph is planned on one core with strategy " + asked
        + ", keeping what does not depend on the core that runs a firing (merge groups and non-temporal copies), "
        + "each buffer in memory of its own that no core owns, and " + (slots == 1
        ? "one iteration runs at a time (slots=1)" : "up to " + slots + " iterations overlap, with a copy of every "
        + "buffer or merge group an iteration uses on its own per iteration in flight (--override slots=K)")
        + "; a firing placed at run time loses copy-on-write views (plain copies instead), pre-stores and what the "
        + "static schedule decides per core: buffers homed at the core that reads them, the rdy-ack flags and "
        + "channels between fixed cores (the dispatcher's counters order the firings instead) and software "
        + "pipelining" + (counted == null ? "" : " (here " + counted + ")"));
    return notes;
  }

  // ------------------------------------------------------------------------------------------ notes

  /** The notes of the plan these words are for, in order. */
  public List<String> notes() {
    List<String> notes = new ArrayList<>();
    for (PlanNote note : planNotes) {
      notes.add(note(note));
    }
    return notes;
  }

  /** A note in words. */
  public String note(PlanNote note) {
    if (note instanceof PlanNote.PartialOverride partial) {
      return "override '" + partial.override() + "' applies to " + partial.applied() + " of the " + partial.buffers()
          + " buffers of FIFO " + names.fifo(srdag.flatGraph().fifo(partial.fifo())) + "; the others keep their "
          + "strategy (" + refusal(partial.why(), -1) + ")";
    }
    if (note instanceof PlanNote.Balanced balanced) {
      return String.format(Locale.ROOT,
          "balanced the cores for pipelined iterations: period %.2f -> %.2f%s (%d firings moved, %d swapped)",
          balanced.before(), balanced.after(), unit(balanced.micros()), balanced.moved(), balanced.swapped());
    }
    if (note instanceof PlanNote.Pipelined pipelined) {
      return pipelined(pipelined);
    }
    if (note instanceof PlanNote.NotPipelined not) {
      String text = not.rule() == PlanNote.Rule.NOT_PIPELINED_VIEW ? "not pipelined: the copy-on-write view "
          + srdag.vertexName(not.from()) + " -> " + srdag.vertexName(not.to()) + " would be used in two iterations "
          + "of its core's loop at once" : "not pipelined: the init prototype of " + srdag.vertexName(not.from())
              + " fills a buffer once, before the loop, that two iterations of its core's loop would use at once";
      return not.remapped() ? text + "; the cores were mapped again for loops without iteration offsets" : text;
    }
    return verdict((PlanNote.CoreVerdict) note);
  }

  private static String unit(boolean micros) {
    return micros ? " us" : " (scenario time units, work only)";
  }

  private String pipelined(PlanNote.Pipelined pipelined) {
    List<String> parts = new ArrayList<>();
    for (PlanNote.CoreFirings core : pipelined.behind()) {
      List<String> named = new ArrayList<>();
      core.vertices().forEach(v -> named.add(srdag.vertexName(v)));
      parts.add(String.join(", ", named) + (core.more() > 0 ? " and " + core.more() + " more" : "") + " on "
          + coreName(core.core()));
    }
    int count = pipelined.count();
    return String.format(Locale.ROOT,
        "pipelined the cores' loops: %s run%s one iteration behind the rest of %s core's loop%s: period %.2f -> %.2f%s",
        String.join("; ", parts), count == 1 ? "s" : "", count == 1 ? "its" : "their",
        pipelined.rebalanced() ? ", and the cores balanced anew" : "", pipelined.before(), pipelined.after(),
        unit(pipelined.micros()));
  }

  private String verdict(PlanNote.CoreVerdict v) {
    PlanNote.CoreLoad load = v.busiest();
    String figures = String.format(Locale.ROOT,
        "one iteration's work is %.2f us (actor timings x %.3g ns), and on %d cores core %d alone would take "
            + "%.2f us (%.2f us of work, %d hand-offs at %d ns, and %d cache lines pulled from or taken back by "
            + "another core at %.3g ns%s)",
        v.workNanos() / 1e3, v.costs().timeUnitNanos(), v.cores(), load.core(), load.nanos() / 1e3,
        load.busyNanos() / 1e3, load.handoffs(), v.costs().handoffNanos(), load.lines(), v.costs().lineNanos(),
        load.spanningLines() == 0 ? "" : String.format(Locale.ROOT, ", %d more in merge groups whose slots span the "
            + "L2 at %.3g ns", load.spanningLines(), v.costs().spanningLineNanos()));
    if (v.cycle() != null) {
      figures += String.format(Locale.ROOT, "; but the cores' orders form a cycle across cores (%s), so an "
          + "iteration takes %.2f us, not the busiest core's %.2f us", cycle(v), v.periodNanos() / 1e3,
          load.nanos() / 1e3);
    }
    double gain = v.workNanos() / v.periodNanos();
    return switch (v.rule()) {
      case KEPT_CORES -> String.format(Locale.ROOT, "kept %d cores: %s, %.2fx faster than one core", v.cores(),
          figures, gain);
      case FEWER_CORES_WITHIN_MARGIN -> String.format(Locale.ROOT, "mapped to 1 core instead of %d: %s: only %.2fx "
          + "faster than one core, within the %.0f%% the prediction cannot tell from break-even", v.cores(), figures,
          gain, 100 * v.margin());
      default -> String.format(Locale.ROOT, "mapped to 1 core instead of %d: %s: the cross-core hand-offs and data "
          + "cost more than the work they would share", v.cores(), figures);
    };
  }

  /** The critical cycle: "emit_0 (core 0) -> w_2 (core 1) -> ... -> emit_0 of the next iteration". */
  private String cycle(PlanNote.CoreVerdict v) {
    if (v.cycle().isEmpty()) {
      return "its critical firings are inserted vertices";
    }
    StringBuilder text = new StringBuilder();
    for (PlanNote.CycleStep step : v.cycle()) {
      text.append(srdag.vertexName(step.vertex())).append(" (core ").append(step.core()).append(") -> ");
    }
    return text.append(srdag.vertexName(v.cycle().get(0).vertex())).append(v.cycleIterations() == 1
        ? " of the next iteration" : " " + v.cycleIterations() + " iterations later").toString();
  }

  // ------------------------------------------------------------------------------------------ helpers

  /** A measured range, {@code 1.21-1.26x}. */
  private static String range(MeasuredFigures.Range range) {
    return num(range.low()) + "-" + num(range.high()) + "x";
  }

  /** A measured figure as written: {@code 0.96}, {@code 26}, {@code 0.1}. */
  private static String num(double value) {
    return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
  }

  private String fifoName(int edge) {
    return names.fifo(srdag.flatGraph().fifo(srdag.edgeFifo(edge)));
  }

  private String coreName(int core) {
    return platform.core(core).name();
  }

  /** "Core0" or "Core0 and Core1" or "Core0, Core1 and Core2". */
  private String coreNames(List<Integer> cores) {
    List<String> list = new ArrayList<>();
    cores.forEach(core -> list.add(coreName(core)));
    return list.size() == 1 ? list.get(0)
        : String.join(", ", list.subList(0, list.size() - 1)) + " and " + list.get(list.size() - 1);
  }

  private String sourceKind(int edge) {
    return kindOf(srdag.edgeSource(edge));
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
}
