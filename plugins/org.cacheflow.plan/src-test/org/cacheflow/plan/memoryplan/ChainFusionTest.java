package org.cacheflow.plan.memoryplan;

import static org.cacheflow.plan.memoryplan.PlanFixtures.connect;
import static org.cacheflow.plan.memoryplan.PlanFixtures.edge;
import static org.cacheflow.plan.memoryplan.PlanFixtures.expand;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import org.cacheflow.io.pisdf.PiReader;
import org.cacheflow.io.project.PreesmProject;
import org.cacheflow.io.project.ScenarioRun;
import org.cacheflow.model.Actor;
import org.cacheflow.model.ActorKind;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.analysis.AnalysisResult;
import org.cacheflow.analysis.GraphAnalysis;
import org.cacheflow.analysis.TestGraph;
import org.cacheflow.plan.classify.MemoryFacts;
import org.cacheflow.plan.mapping.MappingInputs;
import org.cacheflow.plan.mapping.Platform;
import org.cacheflow.plan.schedule.Topology;
import org.cacheflow.analysis.srdag.SingleRateExpansion;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.plan.strategy.GlobalStrategy;
import org.cacheflow.plan.strategy.TargetCache;
import org.cacheflow.scripts.FifoMark;
import org.junit.jupiter.api.Test;

/** State chains fused into one memory ({@link ChainFusion}): the bundled stereo example, and a chain that must not
 * fuse. */
class ChainFusionTest {

  private static final long STATE = 1572864;

  /** Merge groups laid out by hand: every member at byte 0 of its root, a group as large as its root. */
  private static final class LaidOut implements MemoryFacts {

    private final Srdag srdag;
    private final Map<Integer, Integer> roots = new HashMap<>();

    LaidOut(Srdag srdag) {
      this.srdag = srdag;
    }

    LaidOut merge(int guest, int root) {
      roots.put(guest, root);
      roots.put(root, root);
      return this;
    }

    @Override
    public int mergeRoot(int edge) {
      return roots.getOrDefault(edge, -1);
    }

    @Override
    public long mergeOffset(int edge) {
      return roots.containsKey(edge) ? 0 : -1;
    }

    @Override
    public long groupBytes(int rootEdge) {
      return roots.getOrDefault(rootEdge, -1) == rootEdge ? srdag.edgeBytes(rootEdge) : -1;
    }

    @Override
    public Set<FifoMark> marks(int edge) {
      return Set.of();
    }
  }

  /**
   * src -> s1 (in place) -> b1 (broadcast) -next-> s2 (in place) -> b2 -> k0, k1; b1's other output {@code last}
   * goes to the actor {@code reader}, which runs after b1 (nothing orders it before s2 overwrites the state).
   */
  private static Srdag chain() {
    TestGraph top = TestGraph.named("top");
    Actor src = top.actor("src");
    Actor s1 = top.actor("s1");
    Actor b1 = top.actor("b1", ActorKind.BROADCAST);
    Actor s2 = top.actor("s2");
    Actor b2 = top.actor("b2", ActorKind.BROADCAST);
    Actor reader = top.actor("reader");
    Actor k0 = top.actor("k0");
    Actor k1 = top.actor("k1");
    connect(top, src, "o", 64, s1, "prev", 64);
    connect(top, s1, "best", 64, b1, "in", 64);
    connect(top, b1, "next", 64, s2, "prev", 64);
    connect(top, b1, "last", 64, reader, "i", 64);
    connect(top, s2, "best", 64, b2, "in", 64);
    connect(top, b2, "next", 64, k0, "i", 64);
    connect(top, b2, "last", 64, k1, "i", 64);
    return expand(top);
  }

  @Test
  void aChainWhoseLastIsReadInPlaceDoesNotFuse() {
    Srdag srdag = chain();
    int in1 = edge(srdag, "top/s1_0", "top/b1_0");
    int last1 = edge(srdag, "top/b1_0", "top/reader_0");
    int next1 = edge(srdag, "top/b1_0", "top/s2_0");
    int in2 = edge(srdag, "top/s2_0", "top/b2_0");
    // the reader reads b1's input in place, after b1: s2 must not overwrite it
    MemoryFacts facts = new LaidOut(srdag).merge(last1, in1).merge(next1, in2);
    assertSame(facts, ChainFusion.of(srdag, Topology.of(srdag), facts));
  }

  @Test
  void aChainWhoseLastHasMemoryOfItsOwnFuses() {
    Srdag srdag = chain();
    int in1 = edge(srdag, "top/s1_0", "top/b1_0");
    int next1 = edge(srdag, "top/b1_0", "top/s2_0");
    int in2 = edge(srdag, "top/s2_0", "top/b2_0");
    // b1 copies last into memory of its own when it fires, before s2 writes: the state can stay in place
    MemoryFacts fused = ChainFusion.of(srdag, Topology.of(srdag), new LaidOut(srdag).merge(next1, in2)
        .merge(edge(srdag, "top/src_0", "top/s1_0"), in1));
    assertEquals(in1, fused.mergeRoot(next1));
    assertEquals(in1, fused.mergeRoot(in2));
    assertEquals(0, fused.mergeOffset(in2));
    assertEquals(-1, fused.groupBytes(in2), "no longer a root");
    assertEquals(64, fused.groupBytes(in1));
    assertTrue(fused.describeMerge(next1).contains("fused into the memory of top/s1_0.best->top/b1_0.in"),
        fused.describeMerge(next1));
  }

  /** The bundled stereo example planned on 2 cores with its scenario and memory scripts. */
  static MemoryPlan stereo(GlobalStrategy strategy) {
    Path app = Path.of("../../examples/stereo");
    PreesmProject project = PreesmProject.open(app, new Diagnostics());
    ScenarioRun run = project.load(app.resolve("Scenarios/2core.scenario"), PiReader::read, new Diagnostics());
    AnalysisResult analysis = GraphAnalysis.analyse(run.graph(), run.scenario().parameterOverrides(Map.of()),
        new Diagnostics());
    Srdag srdag = SingleRateExpansion.expand(analysis.flatGraph());
    MappingInputs inputs = MappingInputs.fromScenario(srdag.flatGraph(), Platform.generic(2),
        run.scenario().scenario(), run.scenario().specialVertexOperators(), new Diagnostics());
    return MemoryPlanner.plan(srdag, PlanRequest.of(inputs, TargetCache.ZEN4_VM).withStrategy(strategy)
        .withFacts(MemoryPlanner.scriptFacts(srdag, app)));
  }

  @Test
  void stereoStateChainCopiesOnlyIntoTheDelay() {
    for (GlobalStrategy strategy : new GlobalStrategy[] {GlobalStrategy.AUTO, GlobalStrategy.COW}) {
      MemoryPlan plan = stereo(strategy);
      PlanInvariants.check(plan);
      Srdag srdag = plan.srdag();
      int first = edge(srdag, "stereo/DisparityCosts/SelectDisparity_0", "stereo/DisparityCosts/StateFanout_0");
      long nextCopied = 0;
      int chained = 0;
      for (int e = 0; e < srdag.edgeCount(); e++) {
        String producer = srdag.vertexName(srdag.edgeSource(e));
        if (producer.matches("stereo/DisparityCosts/StateFanout_\\d+") && srdag.edgeSourcePort(e).equals("next")) {
          nextCopied += plan.buffer(e).bytesCopied();
          if (!srdag.isToEnd(e)) {
            chained++;
            assertEquals(first, plan.buffer(e).mergeRoot(), srdag.vertexName(srdag.edgeTarget(e)));
          }
        }
      }
      assertEquals(31, chained);
      // before: each of the 32 broadcasts copied the 1.5 MiB state (50331648 bytes); now only into the delay
      assertEquals(STATE, nextCopied, strategy.name());
      long baseline = plan.totals().baselineBytesCopied();
      assertTrue(plan.totals().planBytesCopied() * 20 <= baseline, strategy + ": " + plan.totals());
    }
  }

  @Test
  void mergerAloneCopiesEveryStateAndBaselineKeepsItsGroups() {
    MemoryPlan plan = stereo(GlobalStrategy.BASELINE);
    Srdag srdag = plan.srdag();
    int next = edge(srdag, "stereo/DisparityCosts/StateFanout_0", "stereo/DisparityCosts/SelectDisparity_1");
    int in = edge(srdag, "stereo/DisparityCosts/SelectDisparity_0", "stereo/DisparityCosts/StateFanout_0");
    MemoryFacts facts = plan.classification().facts();
    assertNotEquals(facts.mergeRoot(in), facts.mergeRoot(next), "the merger places next with its consumer");
    assertEquals(STATE, plan.classification().copiedIntoMerged(next));
  }
}
