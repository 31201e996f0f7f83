package org.cacheflow.workflow.run;

import static org.cacheflow.workflow.Workflows.cacheflowTask;
import static org.cacheflow.workflow.Workflows.taskElement;
import static org.cacheflow.workflow.Workflows.variable;
import static org.cacheflow.workflow.Workflows.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.cacheflow.io.project.PreesmProject;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.pipeline.OptionException;
import org.cacheflow.plan.mapping.MappingPolicy;
import org.cacheflow.plan.strategy.StrategyPreset;
import org.cacheflow.workflow.CodegenTask;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which pairs run, what each cacheflow task asks for, and how other tasks are reported. */
class WorkflowRunnerTest {

  /** The bundled example, found from the bundle directory (tests run with it as working directory). */
  private static final Path EXAMPLE = Path.of("../../examples/filter-bank");

  private static final String PREESM_TASKS = """
          <dftools:task pluginId="pisdf-mapper.list" taskId="Scheduling">
              <dftools:data key="variables"><dftools:variable name="balanceLoads" value="true"/></dftools:data>
          </dftools:task>
          <dftools:task pluginId="org.ietr.preesm.memory.allocation.MemoryAllocatorTask" taskId="Memory Allocation">
              <dftools:data key="variables"/>
          </dftools:task>
      """;

  @TempDir
  Path temp;
  Path project;
  RecordingGenerator recorder;

  @BeforeEach
  void copyExample() throws IOException {
    project = temp.resolve("filter-bank");
    try (Stream<Path> files = Files.walk(EXAMPLE)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        Path copy = project.resolve(EXAMPLE.relativize(file).toString());
        Files.createDirectories(copy.getParent());
        Files.copy(file, copy);
      }
    }
    recorder = new RecordingGenerator();
  }

  private List<Generation> run(String workflow, String scenario, SettingsChange change) {
    return new WorkflowRunner(recorder, change, recorder).run(project, workflow, scenario, new Diagnostics());
  }

  private static String workflow(String tasks) {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<dftools:workflow xmlns:dftools=\"http://net.sf.dftools\">\n"
        + "    <dftools:scenario pluginId=\"org.ietr.preesm.scenario.task\"/>\n" + tasks + "</dftools:workflow>\n";
  }

  @Test
  void theExampleRunsItsCiPairWithTheWorkflowsSettings() {
    List<Generation> generations = run(null, null, SettingsChange.NONE);
    assertEquals(1, generations.size());
    GenerationRequest request = recorder.requests.get(0);
    assertEquals(project.toAbsolutePath().normalize(), request.input());
    assertEquals("2core.scenario", request.scenario().getFileName().toString());
    assertEquals(StrategyPreset.AUTO, request.strategy());
    assertNull(request.cores());
    assertNull(request.nodes());
    assertEquals("zen4-vm", request.target());
    assertTrue(request.syntheticActors());
    // the scenario's <codegenDirectory url="/filter-bank/Code/generated"/>
    assertEquals(project.resolve("Code/generated").toAbsolutePath().normalize(), request.outputDirectory());
    assertEquals("cacheflow", generations.get(0).taskId());
    assertEquals(recorder.generations, generations);
    assertEquals(List.of(), recorder.notes);
  }

  @Test
  void otherTasksAreReportedOnceAcrossScenarios() throws IOException {
    Files.copy(project.resolve("Scenarios/2core.scenario"), project.resolve("Scenarios/2core-copy.scenario"));
    write(project.resolve("Workflows/mixed.workflow"), workflow(PREESM_TASKS + taskElement(
        variable("Memory strategy", "PreStore"))));
    Files.delete(project.resolve(".ci.yaml"));
    List<Generation> generations = run("mixed", null, SettingsChange.NONE);
    assertEquals(2, generations.size(), "one workflow, every scenario of the project");
    assertEquals(StrategyPreset.PRESTORE, generations.get(1).request().strategy());
    assertEquals(List.of("task 'Scheduling' (pisdf-mapper.list) is not needed by cacheflow; skipped",
        "task 'Memory Allocation' (org.ietr.preesm.memory.allocation.MemoryAllocatorTask) is not needed by cacheflow; "
            + "skipped"), recorder.noteMessages());
    assertEquals(4, recorder.notes.get(0).location().line());
  }

  @Test
  void preesmCodeGenerationRunsAsCacheflowWithDefaults() {
    write(project.resolve("Workflows/preesm.workflow"), workflow(PREESM_TASKS + """
            <dftools:task pluginId="org.ietr.preesm.codegen.xtend.task.CodegenTask" taskId="Code Generation">
                <dftools:data key="variables"><dftools:variable name="Printer" value="C"/></dftools:data>
            </dftools:task>
        """));
    List<Generation> generations = run("preesm.workflow", "2core", SettingsChange.NONE);
    assertEquals(1, generations.size());
    assertEquals("Code Generation", generations.get(0).taskId());
    assertEquals(StrategyPreset.AUTO, generations.get(0).request().strategy());
    assertEquals(false, generations.get(0).request().syntheticActors());
    String standIn = recorder.noteMessages().get(2);
    assertTrue(standIn.startsWith("task 'Code Generation' (org.ietr.preesm.codegen.xtend.task.CodegenTask) runs as "
        + "cacheflow code generation with default settings"), standIn);
    assertEquals(10, recorder.notes.get(2).location().line());
  }

  @Test
  void aWorkflowWithoutCodeGenerationGeneratesNothingAndSaysSo() {
    write(project.resolve("Workflows/schedule-only.workflow"), workflow(PREESM_TASKS));
    assertEquals(List.of(), run("schedule-only", "2core", SettingsChange.NONE));
    assertTrue(recorder.noteMessages().get(2).startsWith("the workflow generates no code"), recorder.noteMessages()
        .toString());
  }

  @Test
  void badSettingsInAnyPairStopTheRunBeforeAnythingIsGenerated() {
    write(project.resolve("Workflows/zz-bad.workflow"), cacheflowTask(variable("Cores", "many")));
    Path ci = project.resolve(".ci.yaml");
    write(ci, "config:\n- {scenario: 2core.scenario, workflow: cacheflow.workflow}\n"
        + "- {scenario: 2core.scenario, workflow: zz-bad.workflow}\n");
    InputException error = assertThrows(InputException.class, () -> run(null, null, SettingsChange.NONE));
    assertEquals(6, error.location().line());
    assertTrue(error.location().file().endsWith("zz-bad.workflow"));
    assertEquals(List.of(), recorder.requests);
  }

  @Test
  void anOutputDirectoryGivenForSeveralGenerationsIsSplitPerPair() throws IOException {
    Files.copy(project.resolve("Scenarios/2core.scenario"), project.resolve("Scenarios/other.scenario"));
    Files.delete(project.resolve(".ci.yaml"));
    Path out = temp.resolve("out");
    run("cacheflow", null, SettingsChange.NONE.withOutputDirectory(out));
    assertEquals(List.of(out.resolve("cacheflow-2core"), out.resolve("cacheflow-other")),
        recorder.requests.stream().map(GenerationRequest::outputDirectory).toList());

    recorder.requests.clear();
    run("cacheflow", "other", SettingsChange.NONE.withOutputDirectory(out));
    assertEquals(List.of(out.toAbsolutePath().normalize()),
        recorder.requests.stream().map(GenerationRequest::outputDirectory).toList());
  }

  @Test
  void outputDirectoriesAreWorkspaceProjectOrAbsolutePaths() {
    PreesmProject opened = PreesmProject.open(project, new Diagnostics());
    assertEquals(project.resolve("gen").toAbsolutePath().normalize(), WorkflowRunner.projectPath(opened,
        "/filter-bank/gen"));
    assertEquals(project.resolve("a/b").toAbsolutePath().normalize(), WorkflowRunner.projectPath(opened, "a/b"));
    Path elsewhere = temp.resolve("elsewhere").toAbsolutePath();
    assertEquals(elsewhere, WorkflowRunner.projectPath(opened, elsewhere.toString()));
  }

  @Test
  void aTargetFileIsFoundFromTheProjectAndAMissingOneReportedAtItsVariable() {
    write(project.resolve("board.target"), "base = generic\nl2 = 512K\n");
    write(project.resolve("Workflows/cacheflow.workflow"), cacheflowTask(variable("Target", "board.target")));
    run(null, null, SettingsChange.NONE);
    assertEquals(project.resolve("board.target").toAbsolutePath().normalize().toString(),
        recorder.requests.get(0).target());

    write(project.resolve("Workflows/cacheflow.workflow"), cacheflowTask(variable("Cores", "2"),
        variable("Target", "missing.target")));
    InputException error = assertThrows(InputException.class, () -> run(null, null, SettingsChange.NONE));
    assertEquals(7, error.location().line());
    assertTrue(error.getMessage().contains("no such target file, and no built-in target of that name"),
        error.getMessage());
  }

  @Test
  void pairSelectionFollowsPreesmsCommandLine() {
    PreesmProject opened = PreesmProject.open(project, new Diagnostics());
    WorkflowRunner runner = new WorkflowRunner(recorder, SettingsChange.NONE, recorder);
    Path workflowFile = project.resolve("Workflows/cacheflow.workflow").toAbsolutePath().normalize();
    Path scenarioFile = project.resolve("Scenarios/2core.scenario").toAbsolutePath().normalize();
    List<WorkflowRunner.Pair> expected = List.of(new WorkflowRunner.Pair(workflowFile, scenarioFile));
    assertEquals(expected, normalized(runner.select(opened, null, null, new Diagnostics())));
    assertEquals(expected, normalized(runner.select(opened, "cacheflow", null, new Diagnostics())));
    assertEquals(expected, normalized(runner.select(opened, null, "2core.scenario", new Diagnostics())));
    assertEquals(expected, normalized(runner.select(opened, workflowFile.toString(), "2core", new Diagnostics())));
    // a path in the project, as PREESM users write it
    assertEquals(expected, normalized(runner.select(opened, "Workflows/cacheflow.workflow",
        "Scenarios/2core.scenario", new Diagnostics())));
    InputException missing = assertThrows(InputException.class, () -> runner.select(opened, "absent", null,
        new Diagnostics()));
    assertTrue(missing.getMessage().startsWith("no such workflow"), missing.getMessage());
  }

  private static List<WorkflowRunner.Pair> normalized(List<WorkflowRunner.Pair> pairs) {
    return pairs.stream().map(pair -> new WorkflowRunner.Pair(pair.workflow().toAbsolutePath().normalize(),
        pair.scenario().toAbsolutePath().normalize())).toList();
  }

  @Test
  void commandLineSettingsReplaceTheTasks() {
    run(null, null, new SettingsChange(StrategyPreset.BASELINE, 1, 2, null, null, List.of("Blur.in=memcpy"),
        false, null, null));
    GenerationRequest request = recorder.requests.get(0);
    assertEquals(StrategyPreset.BASELINE, request.strategy());
    assertEquals(1, request.cores());
    assertEquals(2, request.nodes());
    org.cacheflow.pipeline.GenerateOptions options = request.options(Path.of("runtime-c"));
    assertEquals(1, options.platform().cores());
    assertEquals(2, options.platform().nodes());
    assertEquals(StrategyPreset.BASELINE, options.strategy());
    assertEquals(List.of("Blur.in=memcpy"), request.overrides());
    assertEquals(false, request.syntheticActors());
    assertEquals(CodegenTask.DESCRIPTOR.parameter(CodegenTask.TARGET).orElseThrow().defaultValue(), request.target());
  }

  /** The actors' folders are found from the project, checked, and a command line's replace the task's. */
  @Test
  void actorCodeSettingsAreResolvedInTheProject() throws IOException {
    Files.createDirectories(project.resolve("Code/src"));
    Files.createDirectories(project.resolve("extra/include"));
    write(project.resolve("Workflows/cacheflow.workflow"), cacheflowTask(variable("Actor sources", "Code/src"),
        variable("Include directories", "extra/include; /" + project.getFileName() + "/Code/include"),
        variable("Compile definitions", "FRAMES=4; VERBOSE"), variable("Libraries", "ZLIB::ZLIB;m")));
    run(null, null, SettingsChange.NONE);
    ActorCode code = recorder.requests.get(0).actorCode();
    assertEquals(project.resolve("Code/src").toAbsolutePath().normalize().toString(), code.sources());
    assertEquals(List.of(project.resolve("extra/include").toAbsolutePath().normalize().toString(),
        project.resolve("Code/include").toAbsolutePath().normalize().toString()), code.includes());
    assertEquals(List.of("FRAMES=4", "VERBOSE"), code.definitions());
    assertEquals(List.of("ZLIB::ZLIB", "m"), code.libraries());
    org.cacheflow.pipeline.ActorCodeOptions given = recorder.requests.get(0).options(Path.of("runtime-c")).actorCode();
    assertTrue(given.definitions().contains("VERBOSE") && given.libraries().contains("ZLIB::ZLIB"), given.toString());

    recorder.requests.clear();
    run(null, null, new SettingsChange(null, null, null, null, null, null, null, null,
        new ActorCode(null, null, null, List.of("sdl2"))));
    assertEquals(List.of("sdl2"), recorder.requests.get(0).actorCode().libraries(), "the command line's replace");
    assertEquals(List.of("FRAMES=4", "VERBOSE"), recorder.requests.get(0).actorCode().definitions());

    write(project.resolve("Workflows/cacheflow.workflow"), cacheflowTask(variable("Cores", "2"),
        variable("Actor sources", "Code/missing")));
    InputException error = assertThrows(InputException.class, () -> run(null, null, SettingsChange.NONE));
    assertEquals(7, error.location().line());
    assertTrue(error.getMessage().startsWith("'Actor sources': no such directory: "), error.getMessage());
  }

  /**
   * The task's profile is found from the project and reaches the pipeline's input; a command line's replaces it; a
   * missing one is reported at its variable, naming the file.
   */
  @Test
  void theProfileIsFoundFromTheProjectAndReachesThePipeline() {
    write(project.resolve("prof/profile.json"), "{}");
    write(project.resolve("Workflows/cacheflow.workflow"), cacheflowTask(variable("Profile", "prof/profile.json")));
    run(null, null, SettingsChange.NONE);
    Path expected = project.resolve("prof/profile.json").toAbsolutePath().normalize();
    assertEquals(expected, recorder.requests.get(0).profile());
    assertEquals(expected, recorder.requests.get(0).options(Path.of("runtime-c")).input().profile());
    assertEquals(expected, recorder.requests.get(0).withOutputDirectory(temp).profile());

    Path other = temp.resolve("other.json").toAbsolutePath();
    write(other, "{}");
    recorder.requests.clear();
    run(null, null, SettingsChange.NONE.withProfile(other));
    assertEquals(other, recorder.requests.get(0).profile());

    write(project.resolve("Workflows/cacheflow.workflow"), cacheflowTask(variable("Cores", "2"),
        variable("Profile", "prof/missing.json")));
    InputException error = assertThrows(InputException.class, () -> run(null, null, SettingsChange.NONE));
    assertEquals(7, error.location().line());
    assertTrue(error.getMessage().contains("'Profile': no such file: ") && error.getMessage().contains(
        "missing.json"), error.getMessage());
    write(project.resolve("Workflows/cacheflow.workflow"), cacheflowTask(variable("Cores", "2")));
    recorder.requests.clear();
    run(null, null, SettingsChange.NONE);
    assertNull(recorder.requests.get(0).profile(), "no profile when the task names none");
  }

  /** The task's mapping policy reaches generate; a command line's replaces it. */
  @Test
  void theMappingPolicyReachesThePipeline() {
    run(null, null, SettingsChange.NONE);
    assertEquals(MappingPolicy.LOAD_BALANCE, recorder.requests.get(0).options(Path.of("runtime-c")).policy());
    write(project.resolve("Workflows/cacheflow.workflow"), cacheflowTask(variable("Mapping policy", "locality")));
    recorder.requests.clear();
    run(null, null, SettingsChange.NONE);
    assertEquals(MappingPolicy.LOCALITY, recorder.requests.get(0).policy());
    assertEquals(MappingPolicy.LOCALITY, recorder.requests.get(0).options(Path.of("runtime-c")).policy());
    assertEquals(MappingPolicy.LOCALITY, recorder.requests.get(0).withOutputDirectory(temp).policy());
    recorder.requests.clear();
    run(null, null, new SettingsChange(null, null, null, MappingPolicy.LOAD_BALANCE, null, null, null, null, null));
    assertEquals(MappingPolicy.LOAD_BALANCE, recorder.requests.get(0).options(Path.of("runtime-c")).policy());
  }

  /** The runner keeps the generation that failed, so that a front end can point at its task's settings. */
  @Test
  void theFailedGenerationIsKept() {
    write(project.resolve("Workflows/cacheflow.workflow"), cacheflowTask(variable("Cores", "2"),
        variable("Overrides", "Blur.in=cow")));
    OptionException rejected = new OptionException(OptionException.OVERRIDE, "no FIFO Blur.in");
    WorkflowRunner runner = new WorkflowRunner((request, diagnostics) -> {
      throw rejected;
    }, SettingsChange.NONE, recorder);
    assertNull(runner.failed());
    assertSame(rejected, assertThrows(OptionException.class, () -> runner.run(project, null, null,
        new Diagnostics())));
    GenerationRequest failed = runner.failed().request();
    assertEquals(List.of("Blur.in=cow"), failed.overrides());
    assertEquals(7, failed.origin(rejected).line(), "the Overrides variable's line");
    assertEquals(failed.origin(""), failed.origin(new OptionException("no runtime")), "the task's line");
    InputException located = runner.located(rejected).orElseThrow();
    assertEquals(failed.origin(rejected), located.location());
    assertEquals("no FIFO Blur.in", located.getMessage());
    // an error phrased with the command-line option is named by the task parameter (Cores, line 6)
    InputException cores = runner.located(new OptionException(OptionException.CORES,
        "--cores must be at most 64, got 99")).orElseThrow();
    assertEquals(6, cores.location().line(), cores.describe());
    assertEquals("'Cores' must be at most 64, got 99", cores.getMessage());
    assertTrue(runner.located(new OptionException("no runtime")).isEmpty(), "names no task parameter");
    // the same settings given by the front end: its own usage error, not the workflow's
    SettingsChange given = new SettingsChange(null, 99, null, null, null, List.of("Blur.in=cow"), null, null, null);
    WorkflowRunner changed = new WorkflowRunner((request, diagnostics) -> {
      throw rejected;
    }, given, recorder);
    assertThrows(OptionException.class, () -> changed.run(project, null, null, new Diagnostics()));
    assertTrue(changed.located(rejected).isEmpty(), "--override was given");
    assertTrue(changed.located(new OptionException(OptionException.CORES, "--cores ...")).isEmpty());
    assertTrue(changed.located(new OptionException(OptionException.NODES, "--nodes ...")).isPresent(),
        "Nodes came from the workflow");
  }

  /** A built-in target other than the default reaches generate. */
  @Test
  void theTargetAlwaysReachesThePipeline() {
    write(project.resolve("Workflows/cacheflow.workflow"), cacheflowTask(variable("Target", "sapphire-rapids-vm")));
    run(null, null, SettingsChange.NONE);
    assertEquals("sapphire-rapids-vm", recorder.requests.get(0).options(Path.of("runtime-c")).target());
  }
}
