package org.cacheflow.io.scenario;

import static org.cacheflow.io.scenario.TestGraphs.actor;
import static org.cacheflow.io.scenario.TestGraphs.graph;
import static org.cacheflow.io.scenario.TestGraphs.parameter;
import static org.cacheflow.io.scenario.TestGraphs.refine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.cacheflow.model.Actor;
import org.cacheflow.model.Architecture;
import org.cacheflow.model.Core;
import org.cacheflow.model.Graph;
import org.cacheflow.model.ModelFactory;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScenarioCheckerTest {

  @TempDir
  Path temp;

  private final Graph top = graph("stereo_top");
  private final Actor census = actor(top, "Census_L");
  private final Actor costWork = actor(top, "Cost_Parallel_Work");
  private final Graph inner = refine(costWork, "Cost_Parallel_Work");
  private final Actor rgb = actor(inner, "rgbL");

  @Test
  void actorPathsFollowPreesmRules() {
    assertSame(census, ActorPaths.findActor(top, "stereo_top/Census_L").orElseThrow());
    assertSame(census, ActorPaths.findActor(top, "Census_L").orElseThrow(), "the graph name is optional");
    assertSame(rgb, ActorPaths.findActor(top, "/stereo_top//Cost_Parallel_Work/rgbL/").orElseThrow());
    assertSame(rgb, ActorPaths.findActor(top, "Cost_Parallel_Work/rgbL").orElseThrow());
    assertTrue(ActorPaths.findActor(top, "stereo_top/Census_L/deeper").isEmpty());
    assertTrue(ActorPaths.findActor(top, "stereo_top/Missing").isEmpty());
    assertTrue(ActorPaths.namesGraph(top, "stereo_top"));
    assertFalse(ActorPaths.namesGraph(top, "stereo_top/Census_L"));
    assertSame(inner, ActorPaths.findGraph(top, "stereo_top/Cost_Parallel_Work").orElseThrow());
  }

  @Test
  void settingsThatReferToNothingAreWarnedAboutAtTheirLine() throws IOException {
    parameter(top, "maxDisparity");
    parameter(inner, "nbSlices");
    Path file = temp.resolve("check.scenario");
    Files.writeString(file, """
        <scenario>
          <constraints>
            <constraintGroup><operator name="Core0"/><task name="stereo_top"/><task name="stereo_top/Census_L"/><task name="stereo_top/Cost_Parallel_Work/rgbL"/></constraintGroup>
            <constraintGroup><operator name="Core9"/><task name="stereo_top/Gone"/></constraintGroup>
          </constraints>
          <timings>
            <timing opname="x86" time="5" vertexname="stereo_top/Census_L"/>
            <timing opname="arm" time="5" vertexname="stereo_top/Nope"/>
          </timings>
          <simuParams><specialVertexOperators><specialVertexOperator path="Core0"/></specialVertexOperators></simuParams>
          <parameterValues>
            <parameter name="maxDisparity" parent="stereo_top" value="4"/>
            <parameter name="nbSlices" parent="stereo_top/Cost_Parallel_Work" value="2"/>
            <parameter name="unknown" parent="stereo_top" value="1"/>
          </parameterValues>
        </scenario>
        """);
    ScenarioFile scenario = ScenarioReader.readFile(file, new Diagnostics());
    Diagnostics diagnostics = new Diagnostics();
    ScenarioChecker.check(scenario, top, architecture("Core0", "Core1"), diagnostics);

    // line and message of each warning; columns depend on where the XML parser places an element
    List<String> warnings = diagnostics.warnings().stream()
        .map(warning -> {
          assertEquals(file.toString(), warning.location().file());
          return warning.location().line() + ": " + warning.message();
        }).toList();
    assertEquals(List.of(
        "4: mapping constraint for core 'Core9', which architecture 'arch' does not have",
        "4: mapping constraint for core 'Core9' names 'stereo_top/Gone', which is not an actor of graph 'stereo_top'",
        "8: timing for 'stereo_top/Nope', which is not an actor of graph 'stereo_top'",
        "8: timing for core type 'arm', which architecture 'arch' does not have (it has [x86])",
        "14: value for parameter 'unknown' of 'stereo_top', which graph 'stereo_top' does not have"),
        warnings);
  }

  private static Architecture architecture(String... coreNames) {
    Architecture architecture = ModelFactory.eINSTANCE.createArchitecture();
    architecture.setName("arch");
    int id = 0;
    for (String name : coreNames) {
      Core core = ModelFactory.eINSTANCE.createCore();
      core.setName(name);
      core.setType("x86");
      core.setId(id++);
      architecture.getCores().add(core);
    }
    architecture.setMainCore(architecture.getCores().get(0));
    return architecture;
  }
}
