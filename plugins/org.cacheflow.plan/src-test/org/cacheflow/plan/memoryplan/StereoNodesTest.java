package org.cacheflow.plan.memoryplan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.cacheflow.io.pisdf.PiReader;
import org.cacheflow.io.project.PreesmProject;
import org.cacheflow.io.project.ScenarioRun;
import org.cacheflow.io.slam.SlamReader;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.analysis.AnalysisResult;
import org.cacheflow.analysis.GraphAnalysis;
import org.cacheflow.plan.mapping.MappingInputs;
import org.cacheflow.plan.mapping.Platform;
import org.cacheflow.plan.partition.NodePartition;
import org.cacheflow.analysis.srdag.SingleRateExpansion;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.plan.strategy.GlobalStrategy;
import org.cacheflow.plan.strategy.Strategy;
import org.cacheflow.plan.strategy.TargetCache;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bundled stereo example on several nodes: from {@code --nodes}-like generic platforms and a multi-node S-LAM. */
class StereoNodesTest {

  @TempDir
  Path temp;

  private record Stereo(Srdag srdag, ScenarioRun run) {

    MappingInputs on(Platform platform) {
      return MappingInputs.fromScenario(srdag.flatGraph(), platform, run.scenario().scenario(),
          run.scenario().specialVertexOperators(), new Diagnostics());
    }
  }

  private static Stereo stereo() {
    Path app = Path.of("../../examples/stereo");
    PreesmProject project = PreesmProject.open(app, new Diagnostics());
    ScenarioRun run = project.load(app.resolve("Scenarios/2core.scenario"), PiReader::read, new Diagnostics());
    AnalysisResult analysis = GraphAnalysis.analyse(run.graph(), run.scenario().parameterOverrides(Map.of()),
        new Diagnostics());
    return new Stereo(SingleRateExpansion.expand(analysis.flatGraph()), run);
  }

  private static MemoryPlan plan(Srdag srdag, MappingInputs inputs, GlobalStrategy strategy) {
    return MemoryPlanner.plan(srdag, PlanRequest.of(inputs, TargetCache.ZEN4_VM).withStrategy(strategy)
        .withFacts(MemoryPlanner.scriptFacts(srdag, Path.of("../../examples/stereo"))));
  }

  @Test
  void stereoOnTwoNodesSplitsItsWorkAndSendsAcrossThem() {
    Stereo stereo = stereo();
    MappingInputs inputs = stereo.on(Platform.generic(2, 1));
    for (GlobalStrategy strategy : List.of(GlobalStrategy.AUTO, GlobalStrategy.COW, GlobalStrategy.BASELINE)) {
      MemoryPlan plan = plan(stereo.srdag(), inputs, strategy);
      NodeInvariants.check(plan);
      PlanInvariants.check(plan);
      NodePartition partition = plan.partition();
      long total = partition.load(0) + partition.load(1);
      assertTrue(partition.load(0) > 0 && partition.load(1) > 0, partition.toString());
      assertTrue(partition.cutBytes() > 0 && partition.cutMessages() > 0, partition.toString());
      assertTrue(Math.max(partition.load(0), partition.load(1)) <= total * 0.55 + maxVertexLoad(plan), partition
          + " is balanced within 10% (or one firing)");
      // Generate and Evaluate are constrained to Core0, hence node 0
      for (int v = 0; v < stereo.srdag().vertexCount(); v++) {
        String name = stereo.srdag().vertexName(v);
        if (name.startsWith("stereo/Generate") || name.startsWith("stereo/Evaluate")) {
          assertEquals(0, partition.nodeOf(v), name);
        }
      }
      assertTrue(plan.buffers().stream().anyMatch(b -> b.strategy() == Strategy.SEND));
      assertTrue(partition.predictedTime() >= Math.max(partition.load(0), partition.load(1)));
    }
    // deterministic
    assertArrayEquals(plan(stereo.srdag(), inputs, GlobalStrategy.AUTO).partition().nodeOfVertices(),
        plan(stereo().srdag(), stereo.on(Platform.generic(2, 1)), GlobalStrategy.AUTO).partition().nodeOfVertices());
  }

  private static long maxVertexLoad(MemoryPlan plan) {
    long max = 0;
    for (int v = 0; v < plan.srdag().vertexCount(); v++) {
      max = Math.max(max, plan.schedule().end(v) - plan.schedule().start(v));
    }
    return max;
  }

  @Test
  void aMultiNodeSlamGivesNodesAndTheNetworkSpeed() throws IOException {
    String head = "<?xml version=\"1.0\"?>\n<spirit:design xmlns:spirit=\"http://www.spiritconsortium.org/XMLSchema/"
        + "SPIRIT/1.4\" xmlns:slam=\"http://sourceforge.net/projects/dftools/slam\">\n";
    Files.copy(Path.of("../../examples/stereo/Archi/2CoreX86.slam"), temp.resolve("node.slam"));
    Files.writeString(temp.resolve("cluster.slam"), head + "<spirit:name>cluster</spirit:name>"
        + "<spirit:componentInstances>\n"
        + "<spirit:componentInstance><spirit:instanceName>Node0</spirit:instanceName><spirit:hardwareId>0"
        + "</spirit:hardwareId><spirit:componentRef spirit:name=\"node\"/></spirit:componentInstance>\n"
        + "<spirit:componentInstance><spirit:instanceName>Node1</spirit:instanceName><spirit:hardwareId>1"
        + "</spirit:hardwareId><spirit:componentRef spirit:name=\"node\"/></spirit:componentInstance>\n"
        + "<spirit:componentInstance><spirit:instanceName>network</spirit:instanceName><spirit:hardwareId>0"
        + "</spirit:hardwareId><spirit:componentRef spirit:name=\"ETH\"/></spirit:componentInstance>\n"
        + "</spirit:componentInstances><spirit:vendorExtensions><slam:componentDescriptions>\n"
        + "<slam:componentDescription slam:componentRef=\"node\" slam:componentType=\"Operator\" "
        + "slam:refinement=\"node.slam\"/>\n<slam:componentDescription slam:componentRef=\"ETH\" "
        + "slam:componentType=\"contentionComNode\" slam:refinement=\"\" slam:speed=\"2000000000\"/>\n"
        + "</slam:componentDescriptions></spirit:vendorExtensions></spirit:design>\n");
    Platform platform = Platform.of(SlamReader.read(temp.resolve("cluster.slam"), new Diagnostics()));
    assertEquals(2, platform.nodes());
    assertEquals(4, platform.size());
    assertArrayEquals(new int[] {2, 3}, platform.coresOf(1));
    assertEquals("Node1_Core0", platform.core(2).name());
    assertEquals(2.0, platform.network().bytesPerTimeUnit(), "2 GB/s is 2 bytes per ns");
    assertEquals(1000, platform.network().latency(), "1 us per message, in ns");
    Platform micro = Platform.of(SlamReader.read(temp.resolve("cluster.slam"), new Diagnostics()), 1e-6);
    assertEquals(new org.cacheflow.plan.mapping.Network(1, 2000.0), micro.network(), "in us");
    Stereo stereo = stereo();
    // the scenario's constraints name Core0 and Core1, which this platform does not have: unconstrained
    MemoryPlan plan = plan(stereo.srdag(), stereo.on(platform).unconstrained(), GlobalStrategy.AUTO);
    NodeInvariants.check(plan);
    PlanInvariants.check(plan);
    assertTrue(plan.partition().load(1) > 0);
  }
}
