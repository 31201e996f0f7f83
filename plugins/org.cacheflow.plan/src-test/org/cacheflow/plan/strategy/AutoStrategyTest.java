package org.cacheflow.plan.strategy;

import static org.cacheflow.plan.memoryplan.PlanFixtures.connect;
import static org.cacheflow.plan.memoryplan.PlanFixtures.edge;
import static org.cacheflow.plan.memoryplan.PlanFixtures.expand;
import static org.cacheflow.plan.memoryplan.PlanFixtures.inputs;
import static org.cacheflow.plan.memoryplan.PlanFixtures.target;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

import org.cacheflow.model.Actor;
import org.cacheflow.model.ActorKind;
import org.cacheflow.model.Fifo;
import org.cacheflow.model.MemoryAnnotation;
import org.cacheflow.model.PersistenceLevel;
import org.cacheflow.model.Scenario;
import org.cacheflow.analysis.TestGraph;
import org.cacheflow.plan.classify.MemoryFacts;
import org.cacheflow.plan.memoryplan.BufferPlan;
import org.cacheflow.plan.memoryplan.MemoryPlan;
import org.cacheflow.plan.memoryplan.MemoryPlanner;
import org.cacheflow.plan.memoryplan.PlanFixtures.HandFacts;
import org.cacheflow.plan.memoryplan.PlanFixtures.ScenarioBuilder;
import org.cacheflow.plan.memoryplan.PlanRequest;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.scripts.FifoMark;
import org.junit.jupiter.api.Test;

/**
 * Each decision of {@code auto}, written from the papers' rules and the runtime's measured break-evens
 * ({@link MeasuredCosts#MEASURED}), including the cases where the safe plain copy wins.
 */
class AutoStrategyTest {

  private static MemoryPlan plan(Srdag srdag, int cores, Scenario scenario, TargetCache target, MemoryFacts facts) {
    return MemoryPlanner.plan(srdag, PlanRequest.of(inputs(srdag, cores, scenario), target).withFacts(facts));
  }

  /** src -in-> B (broadcast) -out-> c0, c1 with the annotation given, everything on one core. */
  private static Srdag broadcast(long in, long out, MemoryAnnotation annotation) {
    TestGraph top = TestGraph.named("top");
    Actor src = top.actor("src");
    Actor b = top.actor("B", ActorKind.BROADCAST);
    Actor c0 = top.actor("c0");
    Actor c1 = top.actor("c1");
    connect(top, src, "o", in, b, "in", in);
    connect(top, b, "out0", out, c0, "i", out, annotation);
    connect(top, b, "out1", out, c1, "i", out, annotation);
    return expand(top);
  }

  private static BufferPlan output(MemoryPlan plan) {
    return plan.buffer(edge(plan.srdag(), "top/B_0", "top/c1_0"));
  }

  @Test
  void readOnlyConsumersShareByCopyOnWriteFromTheMeasuredBreakEven() {
    // bench_cow: a view beats memcpy for read-only consumers from 64 KiB. Unmerged here (no facts) so the
    // copy-on-write rule decides: at 64 KiB a view, at 32 KiB the plain copy.
    BufferPlan at = output(plan(broadcast(64 << 10, 64 << 10, MemoryAnnotation.READ_ONLY), 1, null,
        TargetCache.ZEN4_VM, MemoryFacts.NONE));
    assertEquals(Strategy.COW, at.strategy(), why(at));
    assertEquals(0, at.bytesCopied());
    assertEquals(64 << 10, at.baselineBytesCopied());
    BufferPlan below = output(plan(broadcast(32 << 10, 32 << 10, MemoryAnnotation.READ_ONLY), 1, null,
        TargetCache.ZEN4_VM, MemoryFacts.NONE));
    assertEquals(Strategy.MEMCPY, below.strategy(), why(below));
    Decision.NoView noView = ((Decision.PlainCopy) below.decision()).noView();
    assertEquals(Decision.NoView.Rule.BELOW_BREAK_EVEN, noView.rule(), why(below));
    assertEquals(64 << 10, noView.breakEven().bytes(), why(below));
    assertEquals(32 << 10, below.bytesCopied());
  }

  @Test
  void consumersThatMayWriteNeedTheLargerBreakEven() {
    // bench_cow (quiet machine): with one page written a view wins only from 1 MiB (0.97x / 0.81x at 256 KiB).
    // Without merges: the broadcast script would give one output the input's memory (see globalStrategies).
    // A lone copy whose consumer may write (the other output marked private keeps a copy of its own):
    Srdag lone = broadcast(512 << 10, 512 << 10, MemoryAnnotation.NONE);
    BufferPlan small = plan(lone, 1, null, TargetCache.ZEN4_VM, new HandFacts().mark(edge(lone, "top/B_0",
        "top/c1_0"), FifoMark.PRIVATE)).buffer(edge(lone, "top/B_0", "top/c0_0"));
    assertEquals(Strategy.MEMCPY, small.strategy(), why(small));
    Decision.BreakEven loneBreakEven = ((Decision.PlainCopy) small.decision()).noView().breakEven();
    assertEquals(Decision.BreakEvenCase.WRITE_PAGE, loneBreakEven.breakEvenCase(), why(small));
    assertEquals(1 << 20, loneBreakEven.bytes(), why(small));
    // two consumers reading the same bytes: each view saves a whole copy, so the read-only break-even applies
    BufferPlan shared = output(plan(broadcast(512 << 10, 512 << 10, MemoryAnnotation.NONE), 1, null,
        TargetCache.ZEN4_VM, MemoryFacts.NONE));
    assertEquals(Strategy.COW, shared.strategy(), why(shared));
    Decision.AutoView sharedView = (Decision.AutoView) shared.decision();
    assertEquals(Decision.BreakEvenCase.SHARED_READERS, sharedView.breakEven().breakEvenCase(), why(shared));
    assertEquals(2, sharedView.breakEven().sharers(), why(shared));
    Srdag large = broadcast(2 << 20, 2 << 20, MemoryAnnotation.NONE);
    BufferPlan view = output(plan(large, 1, null, TargetCache.ZEN4_VM, MemoryFacts.NONE));
    assertEquals(Strategy.COW, view.strategy(), why(view));
    assertEquals(0, view.footprintBytes(), "a view shares the source's pages");
  }

  @Test
  void copyOnWriteNeedsWholePagesOfOneSourceCopy() {
    BufferPlan tiny = output(plan(broadcast(1000, 1000, MemoryAnnotation.READ_ONLY), 1, null, TargetCache.ZEN4_VM,
        MemoryFacts.NONE));
    assertEquals(Strategy.MEMCPY, tiny.strategy());
    assertEquals(new CowRefusal.SmallerThanPage(4096, 1000), ((Decision.PlainCopy) tiny.decision()).noView().refusal(),
        why(tiny));
    BufferPlan repeated = output(plan(broadcast(64 << 10, 128 << 10, MemoryAnnotation.READ_ONLY), 1, null,
        TargetCache.ZEN4_VM, MemoryFacts.NONE));
    assertEquals(Strategy.MEMCPY, repeated.strategy());
    CowRefusal repeats = ((Decision.PlainCopy) repeated.decision()).noView().refusal();
    assertEquals(CowRefusal.Rule.REPEATS, repeats.rule(), why(repeated));
    assertEquals(64 << 10, ((CowRefusal.Repeats) repeats).inputBytes(), why(repeated));
  }

  @Test
  void mergedBuffersAreAliasedAndCopyNothing() {
    Srdag srdag = broadcast(1 << 20, 1 << 20, MemoryAnnotation.READ_ONLY);
    MemoryPlan plan = plan(srdag, 1, null, TargetCache.ZEN4_VM, MemoryPlanner.defaultFacts(srdag));
    for (BufferPlan buffer : plan.buffers()) {
      assertEquals(Strategy.ALIAS, buffer.strategy(), why(buffer));
      assertEquals(0, buffer.bytesCopied());
    }
    assertEquals(2 << 20, plan.totals().baselineBytesCopied());
    assertEquals(0, plan.totals().planBytesCopied());
    assertEquals(1 << 20, plan.totals().footprintBytes(), "one allocation for the whole group");
  }

  /**
   * The same group with c0 and c1 on two cores: generated code keeps k = 2 copies of a group several cores use
   * (iteration i in copy i % 2), so the plan's buffer memory is 2 x 1 MiB.
   */
  @Test
  void aMergeGroupOnTwoCoresTakesTwoCopies() {
    Srdag srdag = broadcast(1 << 20, 1 << 20, MemoryAnnotation.READ_ONLY);
    MemoryPlan plan = plan(srdag, 2, null, TargetCache.ZEN4_VM, MemoryPlanner.defaultFacts(srdag));
    Set<Integer> cores = new HashSet<>();
    for (BufferPlan buffer : plan.buffers()) {
      assertEquals(Strategy.ALIAS, buffer.strategy(), why(buffer));
      cores.add(buffer.producerCore());
      cores.add(buffer.consumerCore());
    }
    assertEquals(2, cores.size(), "the load mapping puts the consumers on both cores");
    assertEquals(2 << 20, plan.totals().footprintBytes(), "two copies of the group's 1 MiB");
  }

  /** a (Core0) -2 x slice-> fork -> b_0, b_1; b's port writes; b on the cores given. */
  private static Srdag forked(long slice) {
    TestGraph top = TestGraph.named("top");
    Actor a = top.actor("a");
    Actor b = top.actor("b");
    top.actor("z");
    connect(top, a, "o", 2 * slice, b, "i", slice, MemoryAnnotation.NONE);
    return expand(top);
  }

  private static final String FORK = "explode_top/a_0_o";

  @Test
  void largePrivateCopiesNotReadAgainByTheCopierAreNonTemporal() {
    // fork on Core0 after a; b_0 follows on Core0 (ties), b_1 runs on Core1. 1 MiB slices, private (b writes).
    Srdag srdag = forked(1 << 20);
    Scenario scenario = new ScenarioBuilder().allow("Core0", "a", "b", "z").allow("Core1", "b").build();
    MemoryPlan plan = plan(srdag, 2, scenario, TargetCache.ZEN4_VM, MemoryFacts.NONE);
    BufferPlan remote = plan.buffer(edge(srdag, FORK, "top/b_1"));
    BufferPlan local = plan.buffer(edge(srdag, FORK, "top/b_0"));
    assertTrue(remote.crossCore());
    assertEquals(Strategy.NTM, remote.strategy(), why(remote));
    assertEquals(1, ((Decision.NonTemporalCopy) remote.decision()).readerCore(), why(remote));
    assertEquals(1 << 20, remote.bytesCopied(), "a non-temporal copy is still a copy");
    // the safe choice: the copier's own core reads its copy at once, from the cache
    assertEquals(Strategy.MEMCPY, local.strategy(), why(local));
    assertEquals(Decision.MemcpyRule.REREAD_SOON, ((Decision.PlainCopy) local.decision()).memcpy(), why(local));
    // the same copy on a target whose L2 cannot hold it: the re-read would miss anyway
    MemoryPlan smallL2 = plan(srdag, 2, scenario, target(256 << 10, 8 << 20), MemoryFacts.NONE);
    assertEquals(Strategy.NTM, smallL2.buffer(edge(srdag, FORK, "top/b_0")).strategy());
    // below 1 MiB streaming stores lose: plain copies, even across cores
    Srdag half = forked(512 << 10);
    BufferPlan halfRemote = plan(half, 2, scenario, TargetCache.ZEN4_VM, MemoryFacts.NONE)
        .buffer(edge(half, FORK, "top/b_1"));
    assertEquals(Strategy.MEMCPY, halfRemote.strategy());
    Decision.PlainCopy halfCopy = (Decision.PlainCopy) halfRemote.decision();
    assertEquals(Decision.MemcpyRule.SMALL, halfCopy.memcpy(), why(halfRemote));
    assertTrue(halfCopy.crossCore() && halfCopy.bytes() > halfCopy.prestoreMaxBytes(), why(halfRemote));
  }

  @Test
  void smallCrossCoreCopiesArePreStoredByTheReuseRule() {
    // a and the fork on Core0; z (1000) keeps Core1 busy until 1000, then b_0 [1000,1100], b_1 [1100,1200].
    // 2 KiB slices. Core0 touches a 4 KiB + fork 8 KiB: the fork's copies are re-written after 4 KiB.
    // fork->b_0 is read after 0 bytes, fork->b_1 after b_0's 2 KiB.
    Srdag srdag = forked(2 << 10);
    Scenario scenario = new ScenarioBuilder().allow("Core0", "a").allow("Core1", "b", "z")
        .time("z", "generic", "1000").build();
    // a big L2: re-written soon -> demote, for both
    MemoryPlan roomy = plan(srdag, 2, scenario, TargetCache.ZEN4_VM, MemoryFacts.NONE);
    BufferPlan first = roomy.buffer(edge(srdag, FORK, "top/b_0"));
    assertEquals(Strategy.PRESTORE, first.strategy(), why(first));
    assertEquals(PrestoreKind.DEMOTE, first.prestore(), why(first));
    assertEquals(4096, first.rewriteBytes());
    // L2 1 KiB, LLC 3 KiB: not re-written soon; b_0 re-reads within the LLC (0 + 2 KiB) -> clean;
    // b_1 only after b_0's 2 KiB (2 + 2 KiB > 3 KiB) -> skip
    MemoryPlan tight = plan(srdag, 2, scenario, target(1 << 10, 3 << 10), MemoryFacts.NONE);
    BufferPlan b0 = tight.buffer(edge(srdag, FORK, "top/b_0"));
    BufferPlan b1 = tight.buffer(edge(srdag, FORK, "top/b_1"));
    assertEquals(0, b0.rereadBytes());
    assertEquals(2048, b1.rereadBytes());
    assertEquals(PrestoreKind.CLEAN, b0.prestore(), why(b0));
    assertEquals(PrestoreKind.BYPASS, b1.prestore(), why(b1));
    assertEquals(PrestoreKind.BYPASS, ((Decision.PrestoredCopy) b1.decision()).reuse().kind(), why(b1));
  }

  /** a (Core0) -bytes-> b (Core1) and c (Core0) reading a's second output. */
  private static Srdag direct(long bytes) {
    TestGraph top = TestGraph.named("top");
    Actor a = top.actor("a");
    Actor b = top.actor("b");
    Actor c = top.actor("c");
    connect(top, a, "o1", bytes, b, "i", bytes);
    connect(top, a, "o2", bytes, c, "i", bytes);
    return expand(top);
  }

  private static final Scenario SPLIT = new ScenarioBuilder().allow("Core0", "a", "c").allow("Core1", "b").build();

  @Test
  void crossCoreBuffersBecomeChannelsHomedAtTheReader() {
    Srdag small = direct(1 << 10);
    MemoryPlan plan = plan(small, 2, SPLIT, TargetCache.ZEN4_VM, MemoryFacts.NONE);
    BufferPlan channel = plan.buffer(edge(small, "top/a_0", "top/b_0"));
    assertEquals(Strategy.CHANNEL, channel.strategy(), why(channel));
    assertEquals(1, channel.homeCore(), "homed at the reader");
    assertEquals(2, channel.slots(), "two 1 KiB slots fit the reader's L2");
    assertEquals(PrestoreKind.DEMOTE, channel.prestore(), "a 1 KiB hand-off re-written soon");
    assertEquals(0, channel.bytesCopied(), "filled and read in place");
    assertEquals(2 << 10, channel.footprintBytes());
    assertEquals("channel(k=2,demote)", channel.strategyLabel());

    BufferPlan same = plan.buffer(edge(small, "top/a_0", "top/c_0"));
    assertEquals(Strategy.DIRECT, same.strategy(), why(same));
    assertEquals(PrestoreKind.NONE, same.prestore(), "no pre-store on one core");

    Srdag large = direct(8 << 10);
    BufferPlan unhomed = plan(large, 2, SPLIT, target(12 << 10, 1 << 20), MemoryFacts.NONE)
        .buffer(edge(large, "top/a_0", "top/b_0"));
    assertEquals(Strategy.CHANNEL, unhomed.strategy());
    assertEquals(1, unhomed.slots(), "two 8 KiB slots would not fit a 12 KiB L2");
    assertEquals(PrestoreKind.NONE, unhomed.prestore(), "above 4 KiB pre-stores slowed hand-offs");
  }

  /**
   * {@code --override slots=K} gives every channel K slots in the plan itself -- its memory and its reason, what
   * generated code follows -- and wins over a FIFO's own {@code channel:K}.
   */
  @Test
  void slotsTheUserAsksForAreEveryChannelsSlotsInThePlan() {
    Srdag small = direct(1 << 10);
    int e = edge(small, "top/a_0", "top/b_0");
    PlanRequest request = PlanRequest.of(inputs(small, 2, SPLIT), TargetCache.ZEN4_VM);
    for (List<StrategyOverride> overrides : List.of(List.<StrategyOverride>of(),
        List.of(StrategyOverride.parse("a.o1=channel:5")))) {
      BufferPlan channel = MemoryPlanner.plan(small, request.withOverrides(overrides).withSlots(3)).buffer(e);
      assertEquals(Strategy.CHANNEL, channel.strategy(), why(channel));
      assertEquals(3, channel.slots(), why(channel));
      assertEquals(3 << 10, channel.footprintBytes());
      Decision.Channel decided = channel.decision() instanceof Decision.Overridden overridden ? overridden.channel()
          : (Decision.Channel) channel.decision();
      assertEquals(new Decision.Slots(Decision.Slots.Rule.ASKED, 3, 1 << 10, TargetCache.ZEN4_VM.l2Bytes()),
          decided.slots(), why(channel));
    }
  }

  @Test
  void delaysKeepTheirMemory() {
    TestGraph top = TestGraph.named("top");
    Actor a = top.actor("a");
    Actor b = top.actor("b");
    Fifo fifo = top.fifo(TestGraph.out(a, "o", "64"), TestGraph.in(b, "i", "64"), "char", 8);
    TestGraph.delay(fifo, "64", PersistenceLevel.PERMANENT);
    Srdag srdag = expand(top);
    MemoryPlan plan = plan(srdag, 1, null, TargetCache.ZEN4_VM, MemoryPlanner.defaultFacts(srdag));
    BufferPlan init = plan.buffer(edge(srdag, "top/b_init_i", "top/b_0"));
    assertEquals(Strategy.DIRECT, init.strategy());
    assertEquals(Decision.Rule.DELAY_INITIAL, init.decision().rule(), why(init));
  }

  @Test
  void scriptMarkedPrivateBroadcastOutputsAreCopiedNotShared() {
    // the copy-on-write paper: read-mostly FIFOs are shared, private ones copied (with NTM when large)
    Srdag srdag = broadcast(2 << 20, 2 << 20, MemoryAnnotation.NONE);
    int out = edge(srdag, "top/B_0", "top/c1_0");
    MemoryPlan plan = plan(srdag, 1, null, target(256 << 10, 8 << 20), new HandFacts().mark(out, FifoMark.PRIVATE));
    assertEquals(Strategy.NTM, plan.buffer(out).strategy(), why(plan.buffer(out)));
    assertEquals(Strategy.COW, plan.buffer(edge(srdag, "top/B_0", "top/c0_0")).strategy());
  }

  @Test
  void globalStrategies() {
    Srdag srdag = broadcast(1 << 20, 1 << 20, MemoryAnnotation.NONE);
    Scenario scenario = new ScenarioBuilder().allow("Core0", "src", "B", "c0").allow("Core1", "c1").build();
    int in = edge(srdag, "top/src_0", "top/B_0");
    int local = edge(srdag, "top/B_0", "top/c0_0");
    int remote = edge(srdag, "top/B_0", "top/c1_0");
    // each strategy's own rule, without merges; the default scripts' merges are checked with cow below
    Function<GlobalStrategy, MemoryPlan> planned = strategy -> MemoryPlanner.plan(srdag,
        PlanRequest.of(inputs(srdag, 2, scenario), TargetCache.ZEN4_VM).withStrategy(strategy)
            .withFacts(MemoryFacts.NONE));
    MemoryPlan baseline = planned.apply(GlobalStrategy.BASELINE);
    assertEquals(Strategy.MEMCPY, baseline.buffer(local).strategy());
    assertEquals(Strategy.DIRECT, baseline.buffer(in).strategy());
    assertEquals(baseline.totals().baselineBytesCopied(), baseline.totals().planBytesCopied());
    assertEquals(baseline.totals().baselineFootprintBytes(), baseline.totals().footprintBytes());
    assertEquals(List.of(Strategy.COW, Strategy.COW), List.of(planned.apply(GlobalStrategy.COW).buffer(local)
        .strategy(), planned.apply(GlobalStrategy.COW).buffer(remote).strategy()));
    // the broadcast script lets out0 take the input's memory, but c0 may write it (and c1 on the other core
    // reads the same bytes): out0 becomes a view of its place too, so the memory stays the producer's
    MemoryPlan cow = MemoryPlanner.plan(srdag, PlanRequest.of(inputs(srdag, 2, scenario), TargetCache.ZEN4_VM)
        .withStrategy(GlobalStrategy.COW));
    assertEquals(List.of(Strategy.COW, Strategy.COW), List.of(cow.buffer(local).strategy(),
        cow.buffer(remote).strategy()));
    Decision.MergedView merged = (Decision.MergedView) cow.buffer(local).decision();
    assertTrue(!merged.consumerReadOnly() && merged.underCow(), why(cow.buffer(local)));
    int root = cow.classification().mergeRoot(local);
    assertTrue(root >= 0, "out0 is merged by the broadcast script");
    assertEquals(List.of(root, root), List.of(cow.viewSource(local), cow.viewSource(remote)));
    assertEquals(cow.viewOffset(local), cow.viewOffset(remote));
    assertEquals(0, cow.totals().planBytesCopied());
    // without merges nothing lies in place: the views read the broadcast's input itself
    assertEquals(in, planned.apply(GlobalStrategy.COW).viewSource(remote));
    assertEquals(Strategy.NTM, planned.apply(GlobalStrategy.NTM).buffer(local).strategy());
    assertEquals(Strategy.DIRECT, planned.apply(GlobalStrategy.NTM).buffer(in).strategy());
    MemoryPlan prestore = planned.apply(GlobalStrategy.PRESTORE);
    assertEquals(Strategy.PRESTORE, prestore.buffer(in).strategy());
    // src's 1 MiB is read by B at once (within the 1 MiB L2), but Core0 touches 5 MiB more (B copies 2 x 1 MiB,
    // c0 reads 1 MiB) before src writes it again: clean, not demote
    assertEquals(5 << 20, prestore.buffer(in).rewriteBytes());
    assertEquals(PrestoreKind.CLEAN, prestore.buffer(in).prestore(), why(prestore.buffer(in)));
    MemoryPlan homeforward = planned.apply(GlobalStrategy.HOMEFORWARD);
    assertEquals(Strategy.CHANNEL, homeforward.buffer(remote).strategy());
    assertEquals(Strategy.MEMCPY, homeforward.buffer(local).strategy());
  }

  /** The decision, for assertion messages. */
  private static String why(BufferPlan buffer) {
    return String.valueOf(buffer.decision());
  }
}
