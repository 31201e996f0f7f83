package org.cacheflow.plan.memoryplan;

import static org.cacheflow.plan.memoryplan.PlanFixtures.connect;
import static org.cacheflow.plan.memoryplan.PlanFixtures.edge;
import static org.cacheflow.plan.memoryplan.PlanFixtures.expand;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.cacheflow.analysis.TestGraph;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.model.Actor;
import org.cacheflow.model.ActorKind;
import org.cacheflow.plan.classify.MemoryFacts;
import org.cacheflow.plan.mapping.MappingInputs;
import org.cacheflow.plan.mapping.Platform;
import org.cacheflow.plan.strategy.GlobalStrategy;
import org.cacheflow.plan.strategy.Strategy;
import org.cacheflow.plan.strategy.TargetCache;
import org.junit.jupiter.api.Test;

/**
 * The {@code preesm} mode merges what PREESM's memory scripts merge and nothing more: the merger's groups as the
 * scripts make them (no state chain fused, {@link ChainFusion}), every copy whole (no copy cut to the bytes read,
 * {@link LiveBytes}), while {@code auto} on the same graphs merges and cuts more.
 */
class PreesmPlanTest {

  private static final Path STEREO = Path.of("../../examples/stereo");

  @Test
  void stereoMergesExactlyTheScriptsGroupsWhereAutoFusesStateChains() {
    MemoryPlan preesm = ChainFusionTest.stereo(GlobalStrategy.PREESM);
    PlanInvariants.check(preesm);
    Srdag srdag = preesm.srdag();
    MemoryFacts scripts = MemoryPlanner.scriptFacts(srdag, STEREO);
    int aliased = 0;
    for (int e = 0; e < srdag.edgeCount(); e++) {
      int root = scripts.mergeRoot(e);
      assertEquals(root, preesm.buffer(e).mergeRoot(), srdag.vertexName(srdag.edgeSource(e)));
      assertEquals(root >= 0, preesm.buffer(e).strategy() == Strategy.ALIAS, "merged buffers share memory, others not");
      assertEquals(srdag.edgeBytes(e), preesm.liveBytes().bytes(e), "every copy whole");
      aliased += root >= 0 ? 1 : 0;
    }
    assertTrue(aliased > 0, "the scripts merge something");
    MemoryPlan auto = ChainFusionTest.stereo(GlobalStrategy.AUTO);
    int next = edge(srdag, "stereo/DisparityCosts/StateFanout_0", "stereo/DisparityCosts/SelectDisparity_1");
    int in = edge(srdag, "stereo/DisparityCosts/SelectDisparity_0", "stereo/DisparityCosts/StateFanout_0");
    // the merger places the state's next copy with its consumer; only auto's chain fusion puts it in one memory
    assertTrue(scripts.mergeRoot(next) != scripts.mergeRoot(in));
    assertEquals(auto.buffer(in).mergeRoot(), auto.buffer(next).mergeRoot());
    assertTrue(preesm.buffer(next).bytesCopied() > 0, "preesm copies the state as PREESM does");
    assertTrue(auto.totals().planBytesCopied() < preesm.totals().planBytesCopied(), auto.totals() + " vs "
        + preesm.totals());
    assertEquals(preesm.totals(), auto.preesmTotals(), "the reference of another plan is the preesm plan's totals");
    assertTrue(preesm.totals().planBytesCopied() < preesm.totals().baselineBytesCopied());
  }

  /** Four firings of {@code src} joined into a round buffer that keeps the last 16 bytes. */
  private static Srdag joinIntoRoundBuffer() {
    TestGraph top = TestGraph.named("top");
    Actor src = top.actor("src");
    Actor rb = top.actor("rb", ActorKind.ROUNDBUFFER);
    Actor snk = top.actor("snk");
    connect(top, src, "o", 16, rb, "in", 64);
    connect(top, rb, "out", 16, snk, "i", 16);
    return expand(top);
  }

  @Test
  void copiesNobodyReadsAreCutByAutoAndKeptByPreesm() {
    Srdag srdag = joinIntoRoundBuffer();
    MappingInputs inputs = PlanFixtures.inputs(srdag, Platform.generic(1));
    MemoryFacts none = new PlanFixtures.HandFacts();
    MemoryPlan preesm = MemoryPlanner.plan(srdag, PlanRequest.of(inputs, TargetCache.ZEN4_VM)
        .withStrategy(GlobalStrategy.PREESM).withFacts(none));
    MemoryPlan auto = MemoryPlanner.plan(srdag, PlanRequest.of(inputs, TargetCache.ZEN4_VM)
        .withStrategy(GlobalStrategy.AUTO).withFacts(none));
    int cut = 0;
    for (int e = 0; e < srdag.edgeCount(); e++) {
      assertEquals(srdag.edgeBytes(e), preesm.liveBytes().bytes(e), srdag.vertexName(srdag.edgeTarget(e)));
      cut += auto.liveBytes().partial(e) ? 1 : 0;
    }
    assertTrue(cut > 0, "auto reads only the round buffer's last bytes");
    assertTrue(auto.totals().planBytesCopied() < preesm.totals().planBytesCopied());
    assertEquals(preesm.totals().baselineBytesCopied(), preesm.totals().planBytesCopied(), "nothing merged here");
  }
}
