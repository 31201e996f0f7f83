package org.cacheflow.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.plan.strategy.StrategyPreset;
import org.cacheflow.plan.strategy.TargetCache;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pipeline as a front end uses it: typed results, diagnostics as objects, errors thrown. */
class PipelineTest {

  private static final Path EXAMPLE = Path.of("../../examples/filter-bank");
  private static final Path RUNTIME = Path.of("../../runtime-c");

  @TempDir
  Path dir;

  /** Records what the pipeline says while it runs. */
  private static final class Recorder implements PipelineListener {
    final List<String> steps = new ArrayList<>();
    final List<Diagnostic> diagnostics = new ArrayList<>();

    @Override
    public void step(String description) {
      steps.add(description);
    }

    @Override
    public void diagnostic(Diagnostic diagnostic) {
      diagnostics.add(diagnostic);
    }
  }

  @Test
  void generatesAProjectAndReportsWhatItChoseAsObjects() throws IOException {
    Recorder recorder = new Recorder();
    Path out = dir.resolve("out");
    GenerateResult result = new Pipeline(recorder).generate(GenerateOptions.of(Input.of(EXAMPLE), out, RUNTIME)
        .withStrategy(StrategyPreset.named("cow")).withPlatform(new PlatformOptions(null, 2))
        .withSyntheticActors(true).withOverrideTexts(List.of("slots=3")));
    assertTrue(Files.isRegularFile(out.resolve("CMakeLists.txt")));
    assertEquals(StrategyPreset.COW, result.strategy());
    assertEquals(2, result.asked().size());
    assertTrue(result.summary().startsWith("generated "), result.summary());
    assertTrue(result.summary().contains("strategy cow"), result.summary());
    // the project's first usable scenario was taken: a note says which, to the listener and in the result
    assertTrue(result.diagnostics().stream().anyMatch(d -> d.severity() == Diagnostic.Severity.NOTE
        && d.message().startsWith("using scenario ")), result.diagnostics().toString());
    assertEquals(recorder.diagnostics, result.diagnostics());
    assertTrue(recorder.steps.get(0).startsWith("reading "), recorder.steps.toString());
    assertTrue(recorder.steps.stream().anyMatch(step -> step.startsWith("writing ")), recorder.steps.toString());
  }

  /**
   * Plan and generate apply one rule to the overrides: pipelining only when it is on and channels have two slots or
   * more (slots=1 leaves no copy for an iteration behind, whatever the order of the overrides).
   */
  @Test
  void planAndGeneratePipelineByOneRule() {
    PlanOptions plan = PlanOptions.of(Input.of(EXAMPLE));
    GenerateOptions generate = GenerateOptions.of(Input.of(EXAMPLE), dir, RUNTIME);
    for (List<String> texts : List.<List<String>>of(List.of(), List.of("pipelining=on"), List.of("slots=2"),
        List.of("slots=3",
        "pipelining=on"), List.of("pipelining=off"), List.of("slots=1"), List.of("pipelining=on", "slots=1"),
        List.of("slots=1", "pipelining=on"), List.of("slots=2", "pipelining=off"))) {
      boolean expected = !texts.contains("pipelining=off") && !texts.contains("slots=1");
      assertEquals(expected, plan.withOverrideTexts(texts).pipelining(), "plan " + texts);
      assertEquals(expected, generate.withOverrideTexts(texts).plannerPipelining(), "generate " + texts);
    }
    // a barrier preset has one slot unless told otherwise
    assertFalse(generate.withStrategy(StrategyPreset.BASELINE).plannerPipelining());
    assertTrue(generate.withStrategy(StrategyPreset.BASELINE).withOverrideTexts(List.of("slots=2"))
        .plannerPipelining());
    // slots=K reaches the plan as generate gives them: the plan's memory counts them (CoreCountTest)
    assertEquals(null, plan.slots());
    assertEquals(Integer.valueOf(3), plan.withOverrideTexts(List.of("slots=3", "pipelining=on")).slots());
    assertEquals(Integer.valueOf(3), generate.withOverrideTexts(List.of("slots=3")).slots());
    assertFalse(OverrideTexts.pipelines(true, 1));
    assertFalse(OverrideTexts.pipelines(false, 2));
    assertTrue(OverrideTexts.pipelines(true, 2));
  }

  /** The memory scripts' evaluation says what it is doing, per graph, as plan and generate do. */
  @Test
  void scriptsReportTheirSteps() {
    Recorder recorder = new Recorder();
    ScriptsResult result = new Pipeline(recorder).scripts(Input.of(Path.of("../../examples/stereo")),
        org.cacheflow.scripts.CheckPolicy.THOROUGH);
    assertFalse(result.graphs().isEmpty());
    assertTrue(recorder.steps.get(0).startsWith("reading "), recorder.steps.toString());
    assertTrue(recorder.steps.contains("evaluating the memory scripts of stereo"), recorder.steps.toString());
    assertEquals(result.graphs().size(), recorder.steps.stream().filter(step -> step.startsWith("evaluating the "
        + "memory scripts of ")).count(), recorder.steps.toString());
  }

  @Test
  void plansWithoutWritingAndWritesTheReportWhenAsked() {
    Path report = dir.resolve("report");
    PlanResult result = new Pipeline().plan(new PlanOptions(Input.of(EXAMPLE), new PlatformOptions(null, 2),
        StrategyPreset.HOMEFORWARD, null, List.of(), "generic", report));
    assertEquals(StrategyPreset.HOMEFORWARD.planner(), result.plan().strategy());
    assertFalse(result.plan().fifos().isEmpty());
    assertTrue(result.reportFiles().contains(report.resolve("plan.json")), result.reportFiles().toString());
  }

  /** --target: a built-in profile by name, else a target file (read by the readers, given meaning by the plan). */
  @Test
  void aTargetIsABuiltInProfileOrAnExistingTargetFile() throws IOException {
    InputException missing = assertThrows(InputException.class, () -> planFor("no-such-profile"));
    assertEquals("no such target file, and no built-in target of that name (built-in: zen4-vm, generic, "
        + "sapphire-rapids-vm)", missing.getMessage());
    assertEquals(SourceLocation.file(Path.of("no-such-profile")), missing.location());
    Path board = dir.resolve("board.target");
    Files.writeString(board, "base = sapphire-rapids-vm\nl2 = 512K\n");
    TargetCache target = planFor(board.toString()).plan().target();
    assertEquals("board", target.name());
    assertEquals(512 << 10, target.l2Bytes());
    assertEquals(TargetCache.SAPPHIRE_RAPIDS_VM.llcBytes(), target.llcBytes());
    assertSame(TargetCache.GENERIC, planFor("generic").plan().target());
    Path bad = dir.resolve("bad.target");
    Files.writeString(bad, "l2 = 1M\nl3 = 1M\n");
    InputException key = assertThrows(InputException.class, () -> planFor(bad.toString()));
    assertEquals(SourceLocation.of(bad, 2, 6), key.location());
    assertTrue(key.getMessage().startsWith("unknown key 'l3' (known: base, "), key.getMessage());
  }

  private static PlanResult planFor(String target) {
    return new Pipeline().plan(new PlanOptions(Input.of(EXAMPLE), new PlatformOptions(null, 2), null, null,
        List.of(), target, null));
  }

  @Test
  void badInputNamesTheFileAndABadSettingTheOption() throws IOException {
    Path graph = dir.resolve("broken.pi");
    Files.writeString(graph, "<graphml>\n<graph>\n</grap>\n");
    InputException error = assertThrows(InputException.class, () -> new Pipeline().inspect(Input.of(graph)));
    assertTrue(error.describe().startsWith(graph + ":"), error.describe());
    OptionException cores = assertThrows(OptionException.class, () -> new Pipeline().generate(GenerateOptions
        .of(Input.of(EXAMPLE), dir.resolve("never"), RUNTIME).withPlatform(new PlatformOptions(null, 65))));
    assertEquals("--cores must be at most 64, got 65", cores.getMessage());
    assertFalse(Files.exists(dir.resolve("never")), "nothing written on error");
    assertThrows(OptionException.class, () -> Input.parseParams(List.of("width")));
  }
}
