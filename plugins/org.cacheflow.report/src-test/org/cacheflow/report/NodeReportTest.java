package org.cacheflow.report;

import static org.cacheflow.plan.memoryplan.PlanFixtures.connect;
import static org.cacheflow.plan.memoryplan.PlanFixtures.expand;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import javax.xml.parsers.DocumentBuilderFactory;

import org.cacheflow.analysis.TestGraph;
import org.cacheflow.plan.mapping.Platform;
import org.cacheflow.plan.memoryplan.MemoryPlan;
import org.cacheflow.plan.memoryplan.MemoryPlanner;
import org.cacheflow.plan.memoryplan.PlanFixtures;
import org.cacheflow.plan.memoryplan.PlanRequest;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.plan.strategy.TargetCache;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reports of plans on several nodes show the partition; reports of one-node plans do not. */
class NodeReportTest {

  @TempDir
  Path dir;

  /** src -4000-> snk on the platform: on 2 nodes of 1 core, one each, 4000 B sent, predicted 2200. */
  private static MemoryPlan plan(Platform platform) {
    TestGraph top = TestGraph.named("top");
    connect(top, top.actor("src"), "o", 4000, top.actor("snk"), "i", 4000);
    Srdag srdag = expand(top);
    return MemoryPlanner.plan(srdag, PlanRequest.of(PlanFixtures.inputs(srdag, platform), TargetCache.GENERIC));
  }

  @Test
  void reportsShowThePartitionBytesSentAndPredictedTime() throws Exception {
    ReportWriter.write(plan(Platform.generic(2, 1)), dir);
    String md = Files.readString(dir.resolve("plan.md"));
    assertTrue(md.contains("## Nodes"), md);
    assertTrue(md.contains("| predicted time per iteration | 2200 time units"), md);
    assertTrue(md.contains("| 0 | 1 | 3.91 KiB (4000 B) | 1 |") || md.contains("| 1 | 0 | 3.91 KiB (4000 B) | 1 |"),
        md);
    assertTrue(md.contains("`send` —"), "the legend explains send");

    Map<String, Object> json = PlanJson.toJson(plan(Platform.generic(2, 1)), false, false);
    Map<?, ?> partition = (Map<?, ?>) json.get("partition");
    assertEquals(2, partition.get("count"));
    assertEquals(4000L, partition.get("bytesSent"));
    assertEquals(1, partition.get("messages"));
    assertEquals(2200L, partition.get("predictedTime"));
    List<?> transfers = (List<?>) partition.get("transfers");
    assertEquals(1, transfers.size());
    assertEquals(4000L, ((Map<?, ?>) transfers.get(0)).get("bytes"));
    assertTrue(Files.readString(dir.resolve("plan.json")).contains("\"partition\""));

    String gantt = Files.readString(dir.resolve("gantt.svg"));
    DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(new ByteArrayInputStream(gantt.getBytes(StandardCharsets.UTF_8)));
    assertTrue(gantt.contains("Core1 (node 1)"), gantt);
    assertTrue(gantt.contains("predicted time per iteration 2200"), gantt);
    assertTrue(Files.readString(dir.resolve("graph.dot")).contains("sent between nodes per iteration"));
    String svg = Files.readString(dir.resolve("graph.svg"));
    DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    assertTrue(svg.contains("MPI transfer between nodes"), "the legend names send");
  }

  @Test
  void oneNodeReportsShowNoPartition() throws Exception {
    ReportWriter.write(plan(Platform.generic(1, 2)), dir);
    String md = Files.readString(dir.resolve("plan.md"));
    assertFalse(md.contains("## Nodes"));
    assertFalse(md.contains("`send`"), "one-node reports do not list send");
    assertFalse(md.contains("predicted time per iteration"));
    assertFalse(Files.readString(dir.resolve("plan.json")).contains("\"partition\""));
    assertFalse(Files.readString(dir.resolve("plan.json")).contains("\"node\""));
    assertFalse(Files.readString(dir.resolve("gantt.svg")).contains("(node "));
    assertFalse(Files.readString(dir.resolve("graph.dot")).contains("between nodes"));
  }
}
