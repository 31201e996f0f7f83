package org.cacheflow.report;

import static org.cacheflow.plan.memoryplan.PlanFixtures.connect;
import static org.cacheflow.plan.memoryplan.PlanFixtures.edge;
import static org.cacheflow.plan.memoryplan.PlanFixtures.expand;
import static org.cacheflow.plan.memoryplan.PlanFixtures.inputs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;

import org.cacheflow.analysis.TestGraph;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.model.Actor;
import org.cacheflow.model.ActorKind;
import org.cacheflow.model.MemoryAnnotation;
import org.cacheflow.plan.classify.MemoryFacts;
import org.cacheflow.plan.memoryplan.BufferPlan;
import org.cacheflow.plan.memoryplan.MemoryPlan;
import org.cacheflow.plan.memoryplan.MemoryPlanner;
import org.cacheflow.plan.memoryplan.PlanFixtures.ScenarioBuilder;
import org.cacheflow.plan.memoryplan.PlanRequest;
import org.cacheflow.plan.strategy.GroupSlots;
import org.cacheflow.plan.strategy.Decision;
import org.cacheflow.plan.strategy.MeasuredCosts;
import org.cacheflow.plan.strategy.OverrideException;
import org.cacheflow.plan.strategy.PlanNote;
import org.cacheflow.plan.strategy.StrategyOverride;
import org.cacheflow.plan.strategy.TargetCache;
import org.junit.jupiter.api.Test;

/**
 * The words of the planner's decisions: each rule family rendered from its value, the measured figures quoted on a
 * target that has them and left out on one that does not.
 */
class DecisionTextTest {

  private static final TargetCache ZEN4 = TargetCache.ZEN4_VM;

  /** zen4-vm's caches and break-even sizes, without benchmark figures. */
  private static final TargetCache UNMEASURED;

  static {
    MeasuredCosts m = MeasuredCosts.MEASURED;
    TargetCache z = TargetCache.ZEN4_VM;
    UNMEASURED = new TargetCache("unmeasured", z.l1dBytes(), z.l2Bytes(), z.llcBytes(), z.lineBytes(), z.pageBytes(),
        z.cores(), new MeasuredCosts(m.cowReadOnlyMinBytes(), m.cowReadMostlyMinBytes(), m.ntmMinBytes(),
            m.prestoreMaxBytes(), m.handoffNanos(), m.lineNanos(), m.timeUnitNanos(), m.spanningLineNanos()));
  }

  /** src -> B (broadcast) -> {c0, c1}, READ_ONLY consumers, {@code bytes} each, one core, no merges. */
  private static MemoryPlan broadcast(long bytes, TargetCache target, String... overrides) {
    TestGraph top = TestGraph.named("top");
    Actor src = top.actor("src");
    Actor b = top.actor("Broadcast", ActorKind.BROADCAST);
    connect(top, src, "o", bytes, b, "in", bytes);
    connect(top, b, "out0", bytes, top.actor("c0"), "i", bytes, MemoryAnnotation.READ_ONLY);
    connect(top, b, "out1", bytes, top.actor("c1"), "i", bytes, MemoryAnnotation.READ_ONLY);
    Srdag srdag = expand(top);
    return MemoryPlanner.plan(srdag, PlanRequest.of(inputs(srdag, 1, null), target).withFacts(MemoryFacts.NONE)
        .withOverrides(Arrays.stream(overrides).map(StrategyOverride::parse).toList()));
  }

  /** a -> b across two cores, {@code bytes}. */
  private static MemoryPlan handOff(long bytes, TargetCache target) {
    TestGraph top = TestGraph.named("top");
    connect(top, top.actor("a"), "o", bytes, top.actor("b"), "i", bytes);
    Srdag srdag = expand(top);
    return MemoryPlanner.plan(srdag, PlanRequest.of(inputs(srdag, 2, new ScenarioBuilder().allow("Core0", "a")
        .allow("Core1", "b").build()), target));
  }

  private static String reason(MemoryPlan plan, String producer, String consumer) {
    BufferPlan buffer = plan.buffer(edge(plan.srdag(), producer, consumer));
    return DecisionText.of(plan).buffer(buffer);
  }

  @Test
  void aCopyBelowTheBreakEvenQuotesTheBenchmarkOnlyWhereMeasured() {
    MemoryPlan measured = broadcast(32 << 10, TargetCache.ZEN4_VM);
    assertEquals(Decision.Rule.AUTO_MEMCPY, measured.buffer(edge(measured.srdag(), "top/Broadcast_0", "top/c1_0"))
        .decision().rule());
    String text = reason(measured, "top/Broadcast_0", "top/c1_0");
    assertTrue(text.startsWith("read-mostly, but 32 KiB is below the copy-on-write break-even of 64 KiB for consumers "
        + "that only read (bench_cow); plain memcpy, the safe choice: 32 KiB is below 1 MiB, where streaming stores "
        + "stop losing to memcpy (2-7x slower on warm copies, bench_ntm_copy)"), text);
    String bare = reason(broadcast(32 << 10, UNMEASURED), "top/Broadcast_0", "top/c1_0");
    assertEquals("read-mostly, but 32 KiB is below the copy-on-write break-even of 64 KiB for consumers that only "
        + "read; plain memcpy, the safe choice: 32 KiB is below 1 MiB, where streaming stores stop losing to memcpy",
        bare.substring(bare.indexOf("read-mostly, but")));
  }

  @Test
  void aViewSaysWhyAndWhatItReplaces() {
    String text = reason(broadcast(64 << 10, TargetCache.ZEN4_VM), "top/Broadcast_0", "top/c1_0");
    assertTrue(text.endsWith("64 KiB is at least 64 KiB, the copy-on-write break-even for consumers that only read "
        + "(bench_cow): a view of the broadcast's input replaces the copy, pages are copied only if written"), text);
  }

  @Test
  void aChannelGivesItsSlotsAndHoming() {
    String text = reason(handOff(1 << 10, TargetCache.ZEN4_VM), "top/a_0", "top/b_0");
    assertTrue(text.startsWith("crosses Core0 -> Core1: a rdy-ack channel homed at Core1, filled and read in place "
        + "(no copy), replaces the shared buffer and its semaphores (one line transfer per message, channel.md; a "
        + "spinning hand-off takes ~0.1 us where a futex wake takes 26 us, machine baseline); 2 slots: both fit "
        + "Core1's L2 (2 x 1 KiB <= 1 MiB)"), text);
    assertTrue(text.contains("; homing demote: a hand-off of at most 4 KiB (bench_prestore: 1.21-1.26x faster); "
        + "re-written soon (Core0 touches"), text);
    String bare = reason(handOff(1 << 10, UNMEASURED), "top/a_0", "top/b_0");
    assertTrue(bare.contains("(one line transfer per message, channel.md); 2 slots"), bare);
    assertTrue(bare.contains("; homing demote: a hand-off of at most 4 KiB; re-written soon"), bare);
    String large = reason(handOff(64 << 10, TargetCache.ZEN4_VM), "top/a_0", "top/b_0");
    assertTrue(large.endsWith("; no homing pre-store: above 4 KiB they slowed hand-offs (bench_prestore, 64 KiB: "
        + "clean 0.79x, demote 0.82x, non-temporal 0.72x)"), large);
  }

  @Test
  void anOverrideThatCannotApplyReadsAsBefore() {
    OverrideException error = assertThrows(OverrideException.class, () -> broadcast(1000, TargetCache.ZEN4_VM,
        "Broadcast.out1=cow"));
    assertEquals("override 'Broadcast.out1=cow': cow cannot apply to FIFO Broadcast.out1 -> c1.i: copy-on-write "
        + "works on whole pages of 4 KiB and it carries 1000 B", DecisionText.message(error));
    OverrideException sameCore = assertThrows(OverrideException.class, () -> broadcast(1000, TargetCache.ZEN4_VM,
        "src.o=channel"));
    assertTrue(DecisionText.message(sameCore).endsWith("producer and consumer both run on Core0"),
        DecisionText.message(sameCore));
    OverrideException unknown = assertThrows(OverrideException.class, () -> broadcast(1000, TargetCache.ZEN4_VM,
        "nowhere.o=cow"));
    assertEquals(unknown.getMessage(), DecisionText.message(unknown));
    String overridden = reason(broadcast(1 << 20, TargetCache.ZEN4_VM, "Broadcast.out1=ntm"), "top/Broadcast_0",
        "top/c1_0");
    assertEquals("override 'Broadcast.out1=ntm'", overridden);
  }

  @Test
  void notesInWords() {
    MemoryPlan plan = broadcast(64 << 10, TargetCache.ZEN4_VM);
    DecisionText words = DecisionText.of(plan);
    assertEquals("balanced the cores for pipelined iterations: period 40.00 -> 20.00 (scenario time units, work "
        + "only) (2 firings moved, 0 swapped)", words.note(new PlanNote.Balanced(40, 20, false, 2, 0)));
    int c0 = plan.srdag().edgeTarget(edge(plan.srdag(), "top/Broadcast_0", "top/c0_0"));
    assertEquals("pipelined the cores' loops: top/c0_0 on Core0 runs one iteration behind the rest of its core's loop:"
        + " period 4.00 -> 2.00 us", words.note(new PlanNote.Pipelined(List.of(new PlanNote.CoreFirings(0, List.of(c0),
            0)), 1, false, 4, 2, true)));
    assertEquals("not pipelined: the init prototype of top/c0_0 fills a buffer once, before the loop, that two "
        + "iterations of its core's loop would use at once; the cores were mapped again for loops without iteration "
        + "offsets", words.note(new PlanNote.NotPipelined(PlanNote.Rule.NOT_PIPELINED_INIT, c0, -1, true)));
    PlanNote.CoreVerdict verdict = new PlanNote.CoreVerdict(PlanNote.Rule.FEWER_CORES_COSTLY, 2, 4000,
        new PlanNote.CoreLoad(0, 5140, 2000, 3, 256, 0), new MeasuredCosts(64 << 10, 1 << 20, 1 << 20, 4 << 10, 400, 6,
            1, 0.5), null, 1, 5140, 0.05);
    assertEquals("mapped to 1 core instead of 2: one iteration's work is 4.00 us (actor timings x 1.00 ns), and on 2 "
        + "cores core 0 alone would take 5.14 us (2.00 us of work, 3 hand-offs at 400 ns, and 256 cache lines pulled "
        + "from or taken back by another core at 6.00 ns): the cross-core hand-offs and data cost more than the work "
        + "they would share", words.note(verdict));
    assertFalse(words.note(verdict).contains("cycle"));
  }

  /** The words generated code's comments give each case. */
  @Test
  void groupSlotsInWords() {
    assertEquals("2 slots: with the other merge groups its cores share (10.9 MiB an iteration) together at least 2 x "
        + "the reader's L2 (1 MiB), so a slot's lines have left it when the writer comes back",
        DecisionText.groupSlots(GroupSlots.why(ZEN4, 393_216, 29 * 393_216, 2)));
    assertEquals("6 slots, together spanning the reader's L2 (1 MiB): a slot's lines have left it when the writer "
        + "comes back", DecisionText.groupSlots(GroupSlots.why(ZEN4, 200_704, 6)));
    assertEquals("64 slots (the most; together 64 KiB, within the reader's L2 (1 MiB))",
        DecisionText.groupSlots(GroupSlots.why(ZEN4, 1 << 10, 64)));
    assertEquals("2 slots (one already spans the reader's L2 (1 MiB))",
        DecisionText.groupSlots(GroupSlots.why(ZEN4, 4L << 20, 2)));
    assertEquals("3 slots as asked", DecisionText.groupSlots(GroupSlots.asked(ZEN4, 1 << 10, 3)));
  }
}
