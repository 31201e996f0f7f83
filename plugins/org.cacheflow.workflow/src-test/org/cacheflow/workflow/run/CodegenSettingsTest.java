package org.cacheflow.workflow.run;

import static org.cacheflow.workflow.Workflows.cacheflowTask;
import static org.cacheflow.workflow.Workflows.firstTask;
import static org.cacheflow.workflow.Workflows.variable;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.cacheflow.model.WorkflowTask;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.plan.mapping.MappingPolicy;
import org.cacheflow.plan.schedule.RunSchedule;
import org.cacheflow.plan.strategy.StrategyPreset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading a cacheflow task's variables: values, defaults, and errors at the variable's line. */
class CodegenSettingsTest {

  @TempDir
  Path directory;

  private WorkflowTask task(String... variables) {
    return firstTask(directory.resolve("test.workflow"), cacheflowTask(variables));
  }

  @Test
  void everyVariableIsRead() {
    CodegenSettings settings = CodegenSettings.read(task(variable("Memory strategy", "HomeForward"),
        variable("Cores", "3"), variable("Target", "generic"), variable("Overrides", "Blur.in=cow;Edges.out=ntm"),
        variable("Synthetic actors", "True"), variable("Output directory", "out/gen")));
    assertEquals(StrategyPreset.HOMEFORWARD, settings.strategy());
    assertEquals(3, settings.cores());
    assertEquals("generic", settings.target());
    assertEquals(List.of("Blur.in=cow", "Edges.out=ntm"), settings.overrides());
    assertTrue(settings.syntheticActors());
    assertEquals("out/gen", settings.outputDirectory());
    // the task starts on line 4, its variables on lines 6 to 11
    assertEquals(7, settings.location("Cores").line());
    assertEquals(11, settings.location("Output directory").line());
  }

  @Test
  void missingAndBlankVariablesTakeTheDocumentedDefaults() {
    CodegenSettings settings = CodegenSettings.read(task(variable("Cores", ""), variable("Overrides", " ")));
    assertEquals(StrategyPreset.AUTO, settings.strategy());
    assertNull(settings.cores());
    assertEquals("zen4-vm", settings.target());
    assertEquals(List.of(), settings.overrides());
    assertFalse(settings.syntheticActors());
    assertNull(settings.outputDirectory());
    // defaulted settings point at the task
    assertEquals(4, settings.location("Memory strategy").line());
    assertEquals(4, settings.location("Cores").line());
  }

  @Test
  void unknownVariableIsReportedAtItsLineWithTheClosestName() {
    InputException error = assertThrows(InputException.class, () -> CodegenSettings.read(task(
        variable("Cores", "2"), variable("Memory Stratgy", "Auto"))));
    assertEquals(7, error.location().line());
    assertTrue(error.location().file().endsWith("test.workflow"), error.location().file());
    assertTrue(error.getMessage().startsWith("unknown variable 'Memory Stratgy' of cacheflow task 'gen'; did you "
        + "mean 'Memory strategy'?"), error.getMessage());
  }

  @Test
  void unacceptedValueIsReportedAtItsLine() {
    InputException error = assertThrows(InputException.class, () -> CodegenSettings.read(task(
        variable("Memory strategy", "Auto"), variable("Synthetic actors", "maybe"))));
    assertEquals(7, error.location().line());
    assertEquals("'maybe' is not a value of 'Synthetic actors'; expected true or false", error.getMessage());
  }

  @Test
  void everyProblemIsListedAndTheExceptionCountsTheOthers() {
    WorkflowTask task = task(variable("Cores", "0"), variable("Colours", "red"),
        variable("Memory strategy", "Fastest"));
    List<Problem> problems = CodegenSettings.problems(task);
    assertEquals(List.of(6, 7, 8), problems.stream().map(problem -> problem.location().line()).toList());
    InputException error = assertThrows(InputException.class, () -> CodegenSettings.read(task));
    assertEquals(6, error.location().line());
    assertTrue(error.getMessage().contains("(and 2 more problems in this task: "), error.getMessage());
    assertTrue(error.getMessage().contains(":7:"), error.getMessage());
  }

  @Test
  void commandLineChangesWinOverTheTask() {
    CodegenSettings settings = CodegenSettings.read(task(variable("Memory strategy", "Baseline"),
        variable("Cores", "2")));
    CodegenSettings changed = settings.with(new SettingsChange(StrategyPreset.COW, null, null, null, "generic",
        null, true, null, null));
    assertEquals(StrategyPreset.COW, changed.strategy());
    assertEquals(2, changed.cores());
    assertNull(changed.nodes());
    assertEquals("generic", changed.target());
    assertTrue(changed.syntheticActors());
    assertEquals(settings, settings.with(SettingsChange.NONE));
    // a replaced setting is no longer located in the workflow (its errors are the change's); the others are
    assertFalse(changed.locations().containsKey("Memory strategy"));
    assertEquals(settings.location("Cores"), changed.location("Cores"));
    assertEquals(settings.location(CodegenSettings.TASK), changed.location("Memory strategy"), "the task's");
    assertTrue(new SettingsChange(null, 3, null, null, null, null, null, null, null).gives("Cores"));
    assertFalse(SettingsChange.NONE.gives("Cores"));
  }

  /**
   * The task's Overrides take what generate's --override takes: slots=K and pipelining=on|off set the whole program
   * and reach the generation; a bad one is an error at its line.
   */
  @Test
  void overridesTakeSlotsAndPipeliningAsGenerateDoes() {
    CodegenSettings settings = CodegenSettings.read(task(variable("Cores", "2"), variable("Overrides",
        "pipelining=off; slots=4; Blur.in=cow")));
    assertEquals(List.of("pipelining=off", "slots=4", "Blur.in=cow"), settings.overrides());
    GenerationRequest request = new GenerationRequest(directory, null, settings.strategy(), 2, null,
        settings.policy(), settings.target(), settings.overrides(), false, directory.resolve("out"), ActorCode.NONE,
        Map.of());
    org.cacheflow.pipeline.GenerateOptions options = request.options(Path.of("runtime-c"));
    assertFalse(options.pipelining());
    assertEquals(4, options.slots());
    assertEquals(List.of("Blur.in=cow"), options.overrides().stream().map(o -> o.text()).toList());
    for (String bad : new String[] {"slots=0", "pipelining=sometimes", "Blur.in=fastest"}) {
      InputException error = assertThrows(InputException.class, () -> CodegenSettings.read(task(
          variable("Cores", "2"), variable("Overrides", bad))), bad);
      assertEquals(7, error.location().line(), bad);
    }
  }

  /** The mapping policy is read, load when left out, checked at its line, replaced by a change. */
  @Test
  void mappingPolicyIsReadCheckedAndChanged() {
    CodegenSettings settings = CodegenSettings.read(task(variable("Cores", "2"), variable("Mapping policy",
        "Locality")));
    assertEquals(MappingPolicy.LOCALITY, settings.policy());
    assertEquals(7, settings.location("Mapping policy").line());
    assertEquals(MappingPolicy.LOAD_BALANCE, CodegenSettings.read(task(variable("Mapping policy", " "))).policy());
    assertEquals(MappingPolicy.LOAD_BALANCE, CodegenSettings.read(task()).policy());
    assertEquals(MappingPolicy.LOAD_BALANCE, settings.with(new SettingsChange(null, null, null,
        MappingPolicy.LOAD_BALANCE, null, null, null, null, null)).policy());
    assertEquals(MappingPolicy.LOCALITY, settings.with(SettingsChange.NONE).policy());
    InputException error = assertThrows(InputException.class, () -> CodegenSettings.read(task(
        variable("Cores", "2"), variable("Mapping policy", "nearest"))));
    assertTrue(error.location().file().endsWith("test.workflow"), error.location().file());
    assertEquals(7, error.location().line());
    assertEquals("'nearest' is not a value of 'Mapping policy'; expected load or locality", error.getMessage());
  }

  /**
   * The schedule, variable actors and cost spreads are read (static without them), checked at their lines, each
   * replaced by a change on its own, and given to the pipeline.
   */
  @Test
  void theScheduleIsReadCheckedAndChanged() {
    CodegenSettings settings = CodegenSettings.read(task(variable("Schedule", "Hybrid"), variable("Variable actors",
        "Tile; Filter"), variable("Cost spread", "Sink=0.9; Src=0.1")));
    assertEquals(new RunSchedule(RunSchedule.Kind.HYBRID, List.of("Tile", "Filter"), Map.of("Sink", 0.9, "Src", 0.1)),
        settings.schedule());
    assertEquals(List.of("Tile", "Filter", "Sink"), settings.schedule().pooled());
    assertEquals(RunSchedule.STATIC, CodegenSettings.read(task()).schedule());
    RunSchedule dynamic = settings.with(SettingsChange.NONE.withSchedule(RunSchedule.Kind.DYNAMIC, null, null))
        .schedule();
    assertEquals(new RunSchedule(RunSchedule.Kind.DYNAMIC, List.of("Tile", "Filter"), settings.schedule().spread()),
        dynamic);
    RunSchedule changed = settings.with(SettingsChange.NONE.withSchedule(null, List.of("Map"), Map.of())).schedule();
    assertEquals(new RunSchedule(RunSchedule.Kind.HYBRID, List.of("Map"), Map.of()), changed);
    assertTrue(SettingsChange.NONE.withSchedule(null, null, Map.of()).gives("Cost spread"));
    assertFalse(SettingsChange.NONE.withSchedule(null, null, Map.of()).gives("Schedule"));
    InputException error = assertThrows(InputException.class, () -> CodegenSettings.read(task(
        variable("Cores", "2"), variable("Cost spread", "Sink=-1"))));
    assertEquals(7, error.location().line());
    assertTrue(error.getMessage().startsWith("'Cost spread': cost spread 'Sink=-1' is not ACTOR=CV"),
        error.getMessage());
    InputException kind = assertThrows(InputException.class, () -> CodegenSettings.read(task(
        variable("Cores", "2"), variable("Schedule", "random"))));
    assertEquals("'random' is not a value of 'Schedule'; expected static, dynamic or hybrid", kind.getMessage());
    GenerationRequest request = new GenerationRequest(Path.of("p"), null, StrategyPreset.AUTO, 2, null, null,
        "generic", List.of(), false, Path.of("out"), null, Map.of(), settings.schedule());
    assertEquals(settings.schedule(), request.options(Path.of("runtime")).schedule());
    assertEquals(settings.schedule(), request.withOutputDirectory(Path.of("elsewhere")).schedule());
  }

  /** Nodes beside Cores, checked the same way, replaced by a command line's --nodes. */
  @Test
  void nodesIsReadCheckedAndChanged() {
    CodegenSettings settings = CodegenSettings.read(task(variable("Cores", "2"), variable("Nodes", " 3 ")));
    assertEquals(2, settings.cores());
    assertEquals(3, settings.nodes());
    assertEquals(7, settings.location("Nodes").line());
    assertNull(CodegenSettings.read(task(variable("Nodes", ""))).nodes());
    assertEquals(4, settings.with(new SettingsChange(null, null, 4, null, null, null, null, null, null)).nodes());
    assertEquals(2, settings.with(new SettingsChange(null, null, 4, null, null, null, null, null, null)).cores());
    InputException error = assertThrows(InputException.class, () -> CodegenSettings.read(task(
        variable("Cores", "2"), variable("Nodes", "0"))));
    assertEquals(7, error.location().line());
    assertEquals("'Nodes' must be a positive integer, got '0'", error.getMessage());
  }

  @Test
  void actorCodeVariablesAreReadAndChecked() {
    CodegenSettings settings = CodegenSettings.read(task(variable("Actor sources", "Code/actors"),
        variable("Include directories", "a; b"), variable("Compile definitions", "N=3;X=&quot;s&quot;"),
        variable("Libraries", "sdl2; SDL2_ttf")));
    assertEquals(new ActorCode("Code/actors", List.of("a", "b"), List.of("N=3", "X=\"s\""),
        List.of("sdl2", "SDL2_ttf")), settings.actorCode());
    assertEquals(ActorCode.NONE, CodegenSettings.read(task()).actorCode());
    InputException definition = assertThrows(InputException.class, () -> CodegenSettings.read(task(
        variable("Compile definitions", "N=3; 2N"))));
    assertTrue(definition.getMessage().contains("'Compile definitions': '2N' is not NAME=VALUE or NAME"),
        definition.getMessage());
    InputException library = assertThrows(InputException.class, () -> CodegenSettings.read(task(
        variable("Libraries", "/usr/lib/libz.so"))));
    assertTrue(library.getMessage().contains("'Libraries': '/usr/lib/libz.so' is not a library name"),
        library.getMessage());
  }
}
