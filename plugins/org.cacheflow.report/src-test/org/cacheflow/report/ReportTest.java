package org.cacheflow.report;

import static org.cacheflow.plan.memoryplan.PlanFixtures.connect;
import static org.cacheflow.plan.memoryplan.PlanFixtures.expand;
import static org.cacheflow.plan.memoryplan.PlanFixtures.inputs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import javax.xml.parsers.DocumentBuilderFactory;

import org.cacheflow.model.Actor;
import org.cacheflow.model.ActorKind;
import org.cacheflow.model.Fifo;
import org.cacheflow.model.MemoryAnnotation;
import org.cacheflow.model.PersistenceLevel;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.analysis.FlatFifo;
import org.cacheflow.analysis.TestGraph;
import org.cacheflow.plan.memoryplan.FifoPlan;
import org.cacheflow.plan.memoryplan.MemoryPlan;
import org.cacheflow.plan.memoryplan.MemoryPlanner;
import org.cacheflow.plan.memoryplan.PlanFixtures.ScenarioBuilder;
import org.cacheflow.plan.memoryplan.PlanRequest;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.plan.strategy.TargetCache;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

/** The report files: well-formed, complete (every FIFO, actor and core appears), consistent with the plan. */
class ReportTest {

  @TempDir
  Path dir;

  /** read -> B (broadcast) -> {show (READ_ONLY), edit (writes)}, edit -> loop with a delay back to edit. */
  private static MemoryPlan plan() {
    TestGraph top = TestGraph.named("demo");
    Actor read = top.actor("read");
    Actor b = top.actor("B", ActorKind.BROADCAST);
    Actor show = top.actor("show");
    Actor edit = top.actor("edit");
    connect(top, read, "o", 1 << 20, b, "in", 1 << 20);
    connect(top, b, "out0", 1 << 20, show, "i", 1 << 20, MemoryAnnotation.READ_ONLY);
    connect(top, b, "out1", 1 << 20, edit, "i", 256 << 10, MemoryAnnotation.NONE);
    Fifo loop = top.fifo(TestGraph.out(edit, "state", "16"), TestGraph.in(edit, "previous", "16"), "char", 8);
    TestGraph.delay(loop, "16", PersistenceLevel.PERMANENT);
    Srdag srdag = expand(top);
    return MemoryPlanner.plan(srdag, PlanRequest.of(inputs(srdag, 2, new ScenarioBuilder().allow("Core0", "read", "B",
        "show").allow("Core1", "edit").build()), TargetCache.ZEN4_VM));
  }

  private static Document xml(String text) throws Exception {
    return DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void writesAllFiles() throws Exception {
    MemoryPlan plan = plan();
    List<Path> files = ReportWriter.write(plan, dir.resolve("report"));
    List<String> names = new ArrayList<>();
    for (Path file : files) {
      names.add(file.getFileName().toString());
      assertTrue(Files.size(file) > 100, file + " is empty");
    }
    assertEquals(List.of("plan.json", "plan.md", "graph.dot", "graph.svg", "gantt.svg"), names);
    String json = Files.readString(dir.resolve("report/plan.json"));
    assertTrue(json.contains("\"order\""), "plan.json lists each core's order");
    assertTrue(json.contains("\"buffers\""), "plan.json lists the buffers");
  }

  @Test
  void graphSvgShowsEveryActorAndFifoColouredByStrategy() throws Exception {
    MemoryPlan plan = plan();
    Document svg = xml(GraphDrawing.svg(plan));
    NodeList paths = svg.getElementsByTagName("path");
    int fifoPaths = 0;
    for (int i = 0; i < paths.getLength(); i++) {
      if (paths.item(i).getAttributes().getNamedItem("marker-end") != null) {
        fifoPaths++;
      }
    }
    assertEquals(plan.fifos().size(), fifoPaths);
    String text = GraphDrawing.svg(plan);
    for (FifoPlan fifo : plan.fifos()) {
      assertTrue(text.contains("stroke=\"" + StrategyColors.of(fifo.strategy()) + "\""), fifo.name());
    }
    for (String actor : List.of(">read<", ">B<", ">show<", ">edit ×4<")) {
      assertTrue(text.contains(actor), actor);
    }
  }

  @Test
  void layeredLayoutPutsConsumersRightOfProducers() {
    MemoryPlan plan = plan();
    var graph = plan.srdag().flatGraph();
    List<String> labels = new ArrayList<>();
    graph.actors().forEach(a -> labels.add(a.path()));
    GraphLayout layout = new GraphLayout(graph, labels, 0);
    for (FlatFifo fifo : graph.fifos()) {
      if (!layout.backEdge[fifo.index()] && fifo.source() != fifo.target()) {
        assertTrue(layout.layer[fifo.target()] > layout.layer[fifo.source()], graph.describe(fifo));
        assertTrue(layout.x[fifo.target()] > layout.x[fifo.source()] + layout.width[fifo.source()]);
      }
    }
    assertEquals(List.of(0, 1, 2), List.of(layout.layer[0], layout.layer[1], layout.layer[2]));
  }

  @Test
  void dotHasEveryFifo() {
    MemoryPlan plan = plan();
    String dot = GraphDrawing.dot(plan);
    assertTrue(dot.startsWith("// demo"));
    assertTrue(dot.contains("rankdir=LR"));
    for (FlatFifo fifo : plan.srdag().flatGraph().fifos()) {
      assertTrue(dot.contains("a" + fifo.source() + " -> a" + fifo.target() + " ["), plan.srdag().flatGraph()
          .describe(fifo));
    }
  }

  @Test
  void ganttHasARowPerCoreAndBarsCoverEveryFiring() throws Exception {
    MemoryPlan plan = plan();
    Document svg = xml(GanttChart.svg(plan));
    String text = GanttChart.svg(plan);
    assertTrue(text.contains(">Core0<") && text.contains(">Core1<"));
    int firings = 0;
    for (int core = 0; core < 2; core++) {
      for (GanttChart.Bar bar : GanttChart.bars(plan.schedule(), new org.cacheflow.plan.strategy.FifoNames(
          plan.srdag().flatGraph()), core)) {
        firings += bar.firings();
        assertTrue(bar.end() >= bar.start());
      }
    }
    assertEquals(plan.srdag().vertexCount(), firings);
    assertTrue(svg.getElementsByTagName("rect").getLength() > 1);
  }

  @Test
  void markdownExplainsAndListsEveryFifo() {
    MemoryPlan plan = plan();
    String md = PlanMarkdown.render(plan);
    assertTrue(md.startsWith("# Memory plan for `demo`"));
    assertTrue(md.contains("## How to read this"));
    assertTrue(md.contains("![Gantt chart of the static schedule](gantt.svg)"));
    for (FifoPlan fifo : plan.fifos()) {
      assertTrue(md.contains("| `" + fifo.source() + "` → `" + fifo.target() + "` |"), fifo.name());
    }
  }

  @Test
  void jsonRowsAddUpToTheTotals() {
    PlanJsonInvariants.check(plan());
  }

  @Test
  void jsonCarriesTheRequestedShape() {
    Map<String, Object> json = PlanJson.toJson(plan(), true, false);
    assertTrue(json.keySet().containsAll(List.of("fifos", "totals")));
    Map<?, ?> first = (Map<?, ?>) ((List<?>) json.get("fifos")).get(0);
    assertEquals(List.of("read.o"), List.of(first.get("source")));
    assertEquals(List.of("B.in"), first.get("targets"));
    assertEquals(1L << 20, first.get("bytes"));
    String printed = JsonText.print(json);
    assertTrue(printed.contains("\"baselineBytesCopied\": "));
  }

  @Test
  void anUnwritableDirectoryIsAnInputError() throws IOException {
    Path file = dir.resolve("file");
    Files.writeString(file, "x");
    InputException error = assertThrows(InputException.class, () -> ReportWriter.write(plan(), file.resolve("sub")));
    assertTrue(error.getMessage().startsWith("cannot create the report directory"), error.getMessage());
  }
}
