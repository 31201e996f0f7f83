package org.cacheflow.ui.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.pipeline.OptionException;
import org.cacheflow.pipeline.PipelineListener;
import org.cacheflow.pipeline.PlanOptions;
import org.cacheflow.pipeline.PlatformOptions;
import org.cacheflow.plan.mapping.MappingPolicy;
import org.cacheflow.plan.strategy.StrategyOverride;
import org.cacheflow.plan.strategy.StrategyPreset;
import org.cacheflow.workflow.CodegenTask;
import org.cacheflow.workflow.run.ActorCode;
import org.cacheflow.workflow.run.CodegenSettings;
import org.cacheflow.workflow.run.Generation;
import org.cacheflow.workflow.run.GenerationRequest;
import org.cacheflow.workflow.run.WorkflowRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A workflow's generation request becomes the pipeline's typed plan options; its errors stay typed. */
class PlanReportsTest {

  @TempDir
  Path directory;

  private static GenerationRequest request(Path input, List<String> overrides, Map<String, SourceLocation> origins) {
    return new GenerationRequest(input, Path.of("p/Scenarios/s.scenario"), StrategyPreset.HOMEFORWARD, 4, 2,
        null, "generic", overrides, true, Path.of("p/out"), ActorCode.NONE, origins);
  }

  @Test
  void requestsBecomeThePlanOptions() {
    PlanOptions options = PlanReports.options(request(Path.of("p"), List.of("A.out=cow", "B.*=ntm"), Map.of()),
        Path.of("p/out-plan"));
    assertEquals(Path.of("p"), options.input().path());
    assertEquals(Path.of("p/Scenarios/s.scenario"), options.input().scenario());
    assertEquals(StrategyPreset.HOMEFORWARD, options.strategy());
    // the workflow's Nodes reaches the plan; a built-in target other than the default too
    assertEquals(new PlatformOptions(2, 4), options.platform());
    assertEquals("generic", options.target());
    assertEquals(List.of("A.out=cow", "B.*=ntm"), options.overrides().stream().map(StrategyOverride::text).toList());
    assertEquals(Path.of("p/out-plan"), options.reportDirectory());
    assertEquals(Path.of("p/out-plan").toAbsolutePath(), PlanReports.reportDirectory(Path.of("p/out")));
    assertEquals(MappingPolicy.LOAD_BALANCE, options.policy());
  }

  /** The task's pipelining=off and slots=1 (no second copy) reach the plan report, as they reach generation. */
  @Test
  void pipeliningOverridesReachThePlan() {
    assertTrue(PlanReports.options(request(Path.of("p"), List.of("A.out=cow"), Map.of()), directory).pipelining());
    assertFalse(PlanReports.options(request(Path.of("p"), List.of("pipelining=off", "A.out=cow"), Map.of()),
        directory).pipelining());
    PlanOptions one = PlanReports.options(request(Path.of("p"), List.of("slots=1"), Map.of()), directory);
    assertFalse(one.pipelining());
    assertEquals(List.of(), one.overrides());
    assertTrue(PlanReports.options(request(Path.of("p"), List.of("slots=3"), Map.of()), directory).pipelining());
  }

  /** The task's Mapping policy reaches the plan report, so that it shows the mapping the generated code runs. */
  @Test
  void theMappingPolicyReachesThePlan() {
    GenerationRequest request = new GenerationRequest(Path.of("p"), null, StrategyPreset.AUTO, 2, null,
        MappingPolicy.LOCALITY, "zen4-vm", List.of(), true, Path.of("p/out"), ActorCode.NONE, Map.of());
    assertEquals(MappingPolicy.LOCALITY, PlanReports.options(request, directory).policy());
  }

  @Test
  void aBadOverrideIsReportedAtTheTaskLineThatGaveIt() {
    SourceLocation line = new SourceLocation("w.workflow", 9, 5);
    InputException error = assertThrows(InputException.class, () -> PlanReports.options(request(Path.of("p"),
        List.of("nonsense"), Map.of(CodegenTask.OVERRIDES, line)), directory));
    assertEquals(line, error.location());
  }

  @Test
  void badInputIsAnInputExceptionAtItsFileAndLine() throws IOException {
    Path graph = directory.resolve("broken.pi");
    Files.writeString(graph, "<?xml version=\"1.0\"?>\n<graphml>\n  <graph>\n</graphml>\n");
    GenerationRequest request = new GenerationRequest(graph, null, StrategyPreset.AUTO, null, null, null,
        "zen4-vm", List.of(), false, directory.resolve("out"), ActorCode.NONE, Map.of());
    Path report = directory.resolve("out-plan");
    InputException error = assertThrows(InputException.class,
        () -> PlanReports.write(request, report, PipelineListener.SILENT));
    assertTrue(error.location().file().endsWith("broken.pi"), error.describe());
    assertEquals(4, error.location().line(), error.describe());
    assertTrue(error.location().column() > 0, error.describe());
    assertFalse(Files.exists(report), "no report for bad input");
  }

  /** A setting the planner rejects (too many cores for the Nodes) is marked at the line of the Nodes variable. */
  @Test
  void aSettingThePlannerRejectsIsReportedAtItsParameterLine() {
    SourceLocation task = new SourceLocation("w.workflow", 5, 3);
    SourceLocation nodes = new SourceLocation("w.workflow", 8, 5);
    GenerationRequest request = new GenerationRequest(Path.of("../../examples/filter-bank"), null,
        StrategyPreset.AUTO, 4, 100_000, null, "zen4-vm", List.of(), true, directory.resolve("out"),
        ActorCode.NONE, Map.of(CodegenSettings.TASK, task, CodegenTask.NODES, nodes));
    InputException error = assertThrows(InputException.class,
        () -> PlanReports.write(request, directory.resolve("out-plan"), PipelineListener.SILENT));
    assertEquals(nodes, error.location(), error.describe());
    assertTrue(error.getMessage().startsWith("--nodes 100000 x 4"), error.getMessage());
  }

  /**
   * A workflow run's rejected setting is marked at its task parameter's line when the error names the option, else
   * at the task, else (no generation known) at the workflow file.
   */
  @Test
  void aRunsRejectedSettingIsLocatedAtItsParameter() {
    SourceLocation task = new SourceLocation("w.workflow", 5, 3);
    SourceLocation overrides = new SourceLocation("w.workflow", 9, 5);
    GenerationRequest request = new GenerationRequest(Path.of("p"), null, StrategyPreset.AUTO, 2, null, null,
        "zen4-vm", List.of("X.y=cow"), true, Path.of("p/out"), ActorCode.NONE,
        Map.of(CodegenSettings.TASK, task, CodegenTask.OVERRIDES, overrides));
    Generation generation = new Generation(Path.of("w.workflow"), Path.of("s.scenario"), "cacheflow", request, null);
    Path workflow = Path.of("w.workflow");
    assertEquals(overrides, WorkflowRunner.located(generation,
        new OptionException(OptionException.OVERRIDE, "no FIFO X.y"), workflow).location());
    // Cores is not written in the task: the task's line
    assertEquals(task, WorkflowRunner.located(generation,
        new OptionException(OptionException.CORES, "--cores must be at most 64, got 65"), workflow).location());
    assertEquals(task, WorkflowRunner.located(generation, new OptionException("no runtime"), workflow).location());
    InputException unknown = WorkflowRunner.located(null, new OptionException("no runtime"), workflow);
    assertEquals(SourceLocation.file(workflow), unknown.location());
    assertEquals("no runtime", unknown.getMessage());
  }
}
