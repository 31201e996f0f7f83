package org.cacheflow.codegen;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.cacheflow.codegen.build.CodeModelBuilder;
import org.cacheflow.codegen.build.CodePreset;
import org.cacheflow.codegen.model.CodeProject;
import org.cacheflow.io.pisdf.PiReader;
import org.cacheflow.io.project.PreesmProject;
import org.cacheflow.io.project.ScenarioRun;
import org.cacheflow.io.scenario.TokenSizeResolver;
import org.cacheflow.io.sdf3.Sdf3Reader;
import org.cacheflow.model.Graph;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.analysis.GraphAnalysis;
import org.cacheflow.analysis.srdag.SingleRateExpansion;
import org.cacheflow.analysis.srdag.Srdag;
import org.junit.jupiter.api.Assumptions;

/** Graphs for tests: the bundle's own test graph, and corpus graphs (skipped when the corpus is absent). */
final class TestInputs {

  /** The test graph with real actor code in src-test/resources/tiny. */
  static final Path TINY = Path.of("src-test/resources/tiny").toAbsolutePath();

  private TestInputs() {
  }

  /** A graph file (.pi or SDF3 .xml), or a PREESM project directory with the scenario named (may be null). */
  static Srdag srdag(Path input, String scenario) {
    return srdag(input, scenario, Map.of());
  }

  /** As {@link #srdag(Path, String)} with parameter values that override the graph's and scenario's. */
  static Srdag srdag(Path input, String scenario, Map<String, String> parameters) {
    Diagnostics diagnostics = new Diagnostics();
    Map<String, String> overrides = new LinkedHashMap<>();
    Graph graph;
    if (Files.isDirectory(input)) {
      PreesmProject project = PreesmProject.open(input, diagnostics);
      ScenarioRun run = scenario != null
          ? project.load(input.resolve("Scenarios").resolve(scenario), PiReader::read, diagnostics)
          : firstUsableScenario(project, diagnostics);
      overrides.putAll(run.scenario().parameterOverrides(parameters));
      graph = run.graph();
    } else if (input.toString().endsWith(".xml")) {
      graph = Sdf3Reader.read(input, diagnostics);
    } else {
      graph = PiReader.read(input, diagnostics);
      TokenSizeResolver.resolve(graph, null, diagnostics);
    }
    overrides.putAll(parameters);
    return SingleRateExpansion.expand(GraphAnalysis.analyse(graph, overrides, diagnostics).flatGraph());
  }

  /** As the command line does without --scenario: the first scenario whose graph and architecture load. */
  private static ScenarioRun firstUsableScenario(PreesmProject project, Diagnostics diagnostics) {
    org.cacheflow.model.diagnostics.InputException last = null;
    for (Path candidate : project.scenarios()) {
      try {
        return project.load(candidate, PiReader::read, new Diagnostics());
      } catch (org.cacheflow.model.diagnostics.InputException e) {
        last = e;
      }
    }
    throw last != null ? last : new IllegalArgumentException("no scenario in " + project.root());
  }

  /**
   * As {@link #model(Srdag, int, String, boolean)}, with the memory scripts of the project when the input is a
   * PREESM project directory (actors' own scripts included, as {@code cacheflow generate} runs them).
   */
  static CodeProject model(Path input, Srdag srdag, int cores, String strategy, boolean synthetic) {
    org.cacheflow.plan.classify.MemoryFacts facts = Files.isDirectory(input)
        ? org.cacheflow.plan.memoryplan.MemoryPlanner.scriptFacts(srdag, input) : null;
    return CodeModelBuilder.build(org.cacheflow.codegen.build.PlannedExecution.plan(srdag, cores,
        CodePreset.named(strategy), org.cacheflow.plan.strategy.TargetCache.ZEN4_VM, facts), synthetic);
  }

  /**
   * As generate builds a dynamic or hybrid schedule's program: planned on one core with the strategy, restricted to
   * what holds wherever a firing runs ({@link org.cacheflow.codegen.build.DispatchedExecution}), every buffer in
   * memory of its own and a copy per slot of what an iteration uses on its own.
   */
  static CodeProject dispatchedModel(Path input, Srdag srdag, String strategy, boolean synthetic, int slots) {
    org.cacheflow.plan.classify.MemoryFacts facts = Files.isDirectory(input)
        ? org.cacheflow.plan.memoryplan.MemoryPlanner.scriptFacts(srdag, input) : null;
    CodeProject built = CodeModelBuilder.build(org.cacheflow.codegen.build.DispatchedExecution.of(
        org.cacheflow.codegen.build.PlannedExecution.plan(srdag, 1, CodePreset.named(strategy),
            org.cacheflow.plan.strategy.TargetCache.ZEN4_VM, facts)), synthetic);
    return org.cacheflow.codegen.build.SchedFirings.slotted(org.cacheflow.codegen.build.SchedFirings.unpooled(built),
        slots);
  }

  /** The code model with the memory plan's mapping, order and per-buffer choices (zen4-vm target). */
  static CodeProject model(Srdag srdag, int cores, String strategy, boolean synthetic) {
    return CodeModelBuilder.build(org.cacheflow.codegen.build.PlannedExecution.plan(srdag, cores,
        CodePreset.named(strategy), org.cacheflow.plan.strategy.TargetCache.ZEN4_VM), synthetic);
  }

  static Path corpus() {
    String property = System.getProperty("cacheflow.corpus");
    Path corpus = property == null ? null : Path.of(property);
    Assumptions.assumeTrue(corpus != null && Files.isDirectory(corpus),
        "corpus not found (system property cacheflow.corpus = " + property + "): corpus tests skipped");
    return corpus;
  }

  /** runtime-c, from the pom's system property or relative to this bundle. */
  static Path runtime() {
    String property = System.getProperty("cacheflow.runtime");
    Path runtime = property != null ? Path.of(property) : Path.of("../../runtime-c");
    if (!Files.isRegularFile(runtime.resolve("CMakeLists.txt"))) {
      runtime = Path.of("../../runtime-c");
    }
    return runtime.toAbsolutePath().normalize();
  }
}
