package org.cacheflow.ui.run;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.cacheflow.io.scenario.ScenarioReader;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.plan.analysis.ProgressListener;
import org.cacheflow.plan.classify.ScriptMemoryFacts;
import org.cacheflow.plan.mapping.MappingInputs;
import org.cacheflow.plan.mapping.Platform;
import org.cacheflow.plan.memory.MemoryScripts;
import org.cacheflow.plan.memory.ScriptReport;
import org.cacheflow.plan.memoryplan.MemoryPlan;
import org.cacheflow.plan.memoryplan.MemoryPlanner;
import org.cacheflow.plan.memoryplan.PlanRequest;
import org.cacheflow.plan.report.ReportWriter;
import org.cacheflow.plan.strategy.OverrideException;
import org.cacheflow.plan.strategy.StrategyOverride;
import org.cacheflow.plan.strategy.TargetCache;
import org.cacheflow.workflow.CodegenTask;
import org.cacheflow.workflow.run.GenerationRequest;

/**
 * The memory plan of a generation request and its report ({@code plan.json}, {@code plan.md}, {@code graph.svg},
 * {@code gantt.svg}), made as {@code cacheflow plan --report} makes them.
 */
public final class PlanReports {

  /** The report folder of a generation: beside the generated project, so regenerating does not remove it. */
  public static Path reportDirectory(Path outputDirectory) {
    Path output = outputDirectory.toAbsolutePath().normalize();
    return output.resolveSibling(output.getFileName() + "-plan");
  }

  private PlanReports() {
  }

  /**
   * Plans {@code request} and writes the report into {@code directory}.
   *
   * @return the files written
   * @throws InputException for bad input, at its file and line
   */
  public static List<Path> write(GenerationRequest request, Path directory, Diagnostics diagnostics,
      ProgressListener progress) {
    LoadedGraph graph = LoadedGraph.load(request, diagnostics, progress);
    return ReportWriter.write(plan(graph, request, diagnostics, progress), directory);
  }

  /** The memory plan of an already loaded graph. */
  public static MemoryPlan plan(LoadedGraph graph, GenerationRequest request, Diagnostics diagnostics,
      ProgressListener progress) {
    TargetCache target = TargetCache.resolve(request.target());
    Platform platform = request.cores() != null ? Platform.generic(request.cores())
        : graph.run().architecture() != null && !graph.run().architecture().getCores().isEmpty()
            ? Platform.of(graph.run().architecture()) : Platform.generic(target.cores());
    List<String> specialOperators = ScenarioReader.readFile(request.scenario(), new Diagnostics())
        .specialVertexOperators();
    MappingInputs inputs = MappingInputs.fromScenario(graph.analysis().flatGraph(), platform,
        graph.run().scenario().scenario(), specialOperators, diagnostics);
    progress.begin("running memory scripts", 0);
    boolean sizesInBits = graph.run().scenario().scenario().isSizesAreInBit();
    ScriptReport scripts = MemoryScripts.evaluate(graph.srdag(), graph.root(),
        MemoryScripts.Options.defaults().withSizesInBits(sizesInBits), diagnostics);
    progress.done();
    List<StrategyOverride> overrides = new ArrayList<>();
    try {
      for (String text : request.overrides()) {
        overrides.add(StrategyOverride.parse(text));
      }
      return MemoryPlanner.plan(graph.srdag(), PlanRequest.of(inputs, target).withStrategy(request.strategy())
          .withOverrides(overrides).withFacts(ScriptMemoryFacts.of(graph.srdag(), scripts)).withProgress(progress));
    } catch (OverrideException e) {
      throw new InputException(origin(request, CodegenTask.OVERRIDES), e.getMessage(), e);
    }
  }

  private static SourceLocation origin(GenerationRequest request, String parameter) {
    SourceLocation at = request.origin(parameter);
    return at != null ? at : SourceLocation.file(request.input());
  }
}
