package org.cacheflow.io.pisdf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.cacheflow.model.Actor;
import org.cacheflow.model.ActorKind;
import org.cacheflow.model.Delay;
import org.cacheflow.model.Dependency;
import org.cacheflow.model.Fifo;
import org.cacheflow.model.Graph;
import org.cacheflow.model.MemoryAnnotation;
import org.cacheflow.model.Parameter;
import org.cacheflow.model.ParameterKind;
import org.cacheflow.model.PersistenceLevel;
import org.cacheflow.model.Port;
import org.cacheflow.model.PortDirection;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.expression.ParameterResolver;
import org.junit.jupiter.api.Test;

/** Graphs of the corpus whose content was counted by hand in the .pi files. */
class CorpusGraphStructureTest {

  private static Graph read(String app, String graph, Diagnostics diagnostics) {
    return PiReader.read(PiCorpus.app(app).resolve("Algo").resolve(graph), diagnostics);
  }

  private static Actor actor(Graph graph, String name) {
    return graph.getActors().stream().filter(actor -> actor.getName().equals(name)).findFirst().orElseThrow();
  }

  private static Port port(Actor actor, String name) {
    return actor.getPorts().stream().filter(port -> port.getName().equals(name)).findFirst().orElseThrow();
  }

  private static List<Actor> allActors(Graph graph) {
    List<Actor> all = new ArrayList<>();
    for (Actor actor : graph.getActors()) {
      all.add(actor);
      if (actor.getRefinement() != null && actor.getRefinement().getSubgraph() != null) {
        all.addAll(allActors(actor.getRefinement().getSubgraph()));
      }
    }
    return all;
  }

  @Test
  void stereoTopLevelHasTheCountedElements() {
    Graph top = read("org.ietr.preesm.stereo", "stereo_top.pi", new Diagnostics());
    assertEquals("stereo_top", top.getName());
    // 12 kind="actor" and 4 kind="broadcast" nodes, 14 params, 18 FIFOs, 43 dependencies in the file
    assertEquals(16, top.getActors().size());
    assertEquals(4, top.getActors().stream().filter(actor -> actor.getKind() == ActorKind.BROADCAST).count());
    assertEquals(14, top.getParameters().size());
    assertEquals(18, top.getFifos().size());
    assertEquals(43, top.getDependencies().size());
    assertTrue(top.getParameters().stream().allMatch(parameter -> parameter.getKind() == ParameterKind.STATIC));

    Parameter sliceHeight = top.getParameters().stream().filter(p -> p.getName().equals("sliceHeight"))
        .findFirst().orElseThrow();
    assertEquals("height/nbSlice+2*overlap", sliceHeight.getExpression());
    // line 23: <node expr="height/nbSlice+2*overlap" id="sliceHeight" kind="param"/>, value at column 21
    assertEquals(23, sliceHeight.getLine());
    assertEquals(21, sliceHeight.getColumn());

    Actor readPpm = actor(top, "Read_PPM0");
    assertEquals(ActorKind.NORMAL, readPpm.getKind());
    assertEquals("Code/include/ppm.h", readPpm.getRefinement().getHeaderPath());
    assertEquals("readPPM", readPpm.getRefinement().getLoopPrototype().getName());
    assertEquals("readPPMInit", readPpm.getRefinement().getInitPrototype().getName());
    assertEquals(4, readPpm.getRefinement().getLoopPrototype().getParameters().size());
    assertTrue(readPpm.getRefinement().getLoopPrototype().getParameters().get(0).isConfig());
    Port rgb = port(readPpm, "rgb");
    assertEquals(PortDirection.OUTPUT, rgb.getDirection());
    assertEquals("height*width*3", rgb.getRate());
    assertEquals("uchar", rgb.getFifo().getType());
    assertSame(port(actor(top, "Broadcast0"), "in"), rgb.getFifo().getTarget());

    assertEquals("Code/Scripts/rgb2gray.bsh", actor(top, "RGB2Gray_R").getMemoryScript());
    assertEquals(MemoryAnnotation.READ_ONLY, port(actor(top, "RGB2Gray_L"), "rgb").getAnnotation());

    // sliceHeight feeds Median_Filter's config input port "height": rates there use the port's name
    Dependency toMedian = top.getDependencies().stream()
        .filter(d -> d.getTargetPort() != null && d.getTargetPort().getActor().getName().equals("Median_Filter")
            && d.getTargetPort().getName().equals("height"))
        .findFirst().orElseThrow();
    assertSame(sliceHeight, toMedian.getSource());

    Map<String, Long> values = ParameterResolver.resolve(top, Map.of(), Map.of());
    assertEquals(380L * 434L, values.get("size"));
    assertEquals(Math.round(380.0 / 20 + 2), values.get("sliceHeight"));
  }

  @Test
  void stereoHierarchyMatchesTheApplicationDescription() {
    Diagnostics diagnostics = new Diagnostics();
    Graph top = read("org.ietr.preesm.stereo", "stereo_top.pi", diagnostics);
    Actor hierarchical = actor(top, "Cost_Parallel_Work");
    assertEquals("Algo/cost_parallel_work.pi", hierarchical.getRefinement().getSubgraphPath());
    Graph sub = hierarchical.getRefinement().getSubgraph();
    assertNotNull(sub);
    // cost_parallel_work.pi: 7 actors, 6 broadcasts, 5 src, 1 snk; 4 params and 7 cfg_in_iface; 25 FIFOs
    assertEquals(19, sub.getActors().size());
    assertEquals(5, sub.getActors().stream().filter(a -> a.getKind() == ActorKind.SOURCE_INTERFACE).count());
    assertEquals(1, sub.getActors().stream().filter(a -> a.getKind() == ActorKind.SINK_INTERFACE).count());
    assertEquals(7, sub.getParameters().stream().filter(p -> p.getKind() == ParameterKind.CONFIG_INPUT).count());
    assertEquals(11, sub.getParameters().size());
    assertEquals(25, sub.getFifos().size());

    // the corpus README: 19 actors, 10 broadcasts, 27 READ_ONLY ports, 3 memory scripts over the hierarchy
    List<Actor> all = allActors(top);
    assertEquals(19, all.stream().filter(a -> a.getKind() == ActorKind.NORMAL).count());
    assertEquals(10, all.stream().filter(a -> a.getKind() == ActorKind.BROADCAST).count());
    assertEquals(27, all.stream().flatMap(a -> a.getPorts().stream())
        .filter(p -> p.getAnnotation() == MemoryAnnotation.READ_ONLY).count());
    assertEquals(3, all.stream().filter(a -> a.getMemoryScript() != null).count());

    // the sub-graph's interfaces are the hierarchical actor's data ports, by name
    List<String> ports = hierarchical.getPorts().stream()
        .filter(p -> p.getDirection() == PortDirection.INPUT || p.getDirection() == PortDirection.OUTPUT)
        .map(Port::getName).sorted().collect(Collectors.toList());
    assertEquals(List.of("cenL", "cenR", "grayL", "grayR", "rawDisparity", "rgbL"), ports);
    // the interface "rawDisparity" is fed by a dependency from "size" with no port in the file
    Actor sink = actor(sub, "rawDisparity");
    assertEquals("size", sink.getPorts().get(0).getRate());
    assertTrue(sink.getPorts().stream().anyMatch(p -> p.getDirection() == PortDirection.CONFIG_INPUT
        && p.getName().equals("size")));

    // sub-graph config inputs take the parent's values
    Map<String, Long> topValues = ParameterResolver.resolve(top, Map.of(), Map.of());
    Map<String, Long> subValues = ParameterResolver.resolve(sub, Map.of("height", topValues.get("height"),
        "width", topValues.get("width"), "scale", 4L, "nbIterations", 5L, "minDisparity", 0L, "maxDisparity", 60L,
        "truncValue", 12L), Map.of());
    assertEquals(60L, subValues.get("nbDisparity"));

    assertTrue(diagnostics.warnings().stream().anyMatch(w -> w.message().contains("'Code/include/ppm.h'")),
        "the absent headers are warned about");
  }

  @Test
  void stereoDelaysArePermanentWithTheirExpressions() {
    Graph top = read("org.ietr.preesm.stereo", "stereo_top.pi", new Diagnostics());
    Graph sub = actor(top, "Cost_Parallel_Work").getRefinement().getSubgraph();
    List<Fifo> delayed = sub.getFifos().stream().filter(f -> f.getDelay() != null).toList();
    assertEquals(3, delayed.size());
    Fifo feedback = delayed.stream().filter(f -> f.getSource().getName().equals("backBestCost")).findFirst()
        .orElseThrow();
    Delay delay = feedback.getDelay();
    assertEquals("size +1", delay.getExpression());
    assertEquals(PersistenceLevel.PERMANENT, delay.getPersistence());
    assertEquals("disparitySelect_backBestCost__disparitySelect_bestCostFeed", delay.getName());
    assertNull(delay.getSetter());
    assertEquals(ActorKind.DELAY, delay.getActor().getKind());
    assertEquals(List.of("set", "get"), delay.getActor().getPorts().stream().map(Port::getName).toList());
    assertEquals("float", feedback.getType());
    assertSame(feedback.getSource().getActor(), feedback.getTarget().getActor(), "a self-loop on disparitySelect");
    // lines 443 and 444: dependencies from "size" to two of the delay nodes
    List<Dependency> toDelays = sub.getDependencies().stream().filter(d -> d.getTargetDelay() != null).toList();
    assertEquals(2, toDelays.size());
    Dependency toCurrentResult = toDelays.stream()
        .filter(d -> d.getTargetDelay().getName().equals("Broadcast5_out1__disparitySelect_currentResult"))
        .findFirst().orElseThrow();
    assertEquals(444, toCurrentResult.getLine());
    assertEquals("size", toCurrentResult.getSource().getName());
    assertSame(delay, toDelays.stream().filter(d -> d.getLine() == 443).findFirst().orElseThrow().getTargetDelay());
  }

  @Test
  void differenceReadsWithAWarningForItsMissingHeader() {
    Diagnostics diagnostics = new Diagnostics();
    Graph graph = read("org.ietr.preesm.difference", "difference.pi", diagnostics);
    Actor difference = actor(graph, "Difference");
    assertEquals("Code/include/difference.h", difference.getRefinement().getHeaderPath());
    assertNotNull(difference.getRefinement().getLoopPrototype(), "the .pi's prototype is enough");
    assertTrue(diagnostics.warnings().stream().anyMatch(w -> w.location().line() == 67
        && w.message().contains("'Code/include/difference.h'") && w.message().contains("not found")),
        diagnostics.warnings().toString());
    Fifo selfLoop = graph.getFifos().stream().filter(f -> f.getDelay() != null).findFirst().orElseThrow();
    assertEquals("height*width", selfLoop.getDelay().getExpression());
  }

  @Test
  void deepHierarchyOfReinforcementLearningReadsEveryLevel() {
    Path training = PiCorpus.app("org.ietr.preesm.reinforcement_learning").resolve("Algo/training/training.pi");
    Graph graph = PiReader.read(training, new Diagnostics());
    int depth = depth(graph);
    assertTrue(depth >= 3, "training.pi nests sub-graphs at least three levels deep, found " + depth);
  }

  private static int depth(Graph graph) {
    int deepest = 0;
    for (Actor actor : graph.getActors()) {
      if (actor.getRefinement() != null && actor.getRefinement().getSubgraph() != null) {
        deepest = Math.max(deepest, depth(actor.getRefinement().getSubgraph()));
      }
    }
    return deepest + 1;
  }
}
