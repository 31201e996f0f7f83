package org.cacheflow.ui.run;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.cacheflow.io.pisdf.PiReader;
import org.cacheflow.io.project.PreesmProject;
import org.cacheflow.io.project.ScenarioRun;
import org.cacheflow.model.ParameterValue;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.plan.analysis.AnalysisResult;
import org.cacheflow.plan.analysis.GraphAnalysis;
import org.cacheflow.plan.analysis.ProgressListener;
import org.cacheflow.plan.srdag.SingleRateExpansion;
import org.cacheflow.plan.srdag.Srdag;
import org.cacheflow.workflow.run.GenerationRequest;

/**
 * The graph a generation request names, read with its scenario, analysed and expanded to a single-rate graph:
 * the steps {@code cacheflow generate} and {@code cacheflow plan} share.
 *
 * @param project the PREESM project
 * @param run the scenario with its graph and architecture
 * @param analysis the analysed graph
 * @param srdag its single-rate expansion
 */
public record LoadedGraph(PreesmProject project, ScenarioRun run, AnalysisResult analysis, Srdag srdag) {

  /**
   * Reads and expands what {@code request} names. Workflow runs always name a project and a scenario.
   *
   * @throws InputException for bad input, at its file and line
   */
  public static LoadedGraph load(GenerationRequest request, Diagnostics diagnostics, ProgressListener progress) {
    if (request.scenario() == null) {
      throw new InputException(SourceLocation.file(request.input()), "a workflow run needs a scenario");
    }
    PreesmProject project = PreesmProject.open(request.input(), diagnostics);
    ScenarioRun run = project.load(request.scenario(), PiReader::read, diagnostics);
    Map<String, String> parameters = new LinkedHashMap<>();
    for (ParameterValue value : run.scenario().scenario().getParameterValues()) {
      String parent = value.getParentPath();
      parameters.put(parent == null || parent.isEmpty() ? value.getParameterName()
          : parent + "/" + value.getParameterName(), value.getExpression());
    }
    AnalysisResult analysis = GraphAnalysis.analyse(run.graph(), parameters, diagnostics, progress);
    Srdag srdag = SingleRateExpansion.expand(analysis, progress);
    return new LoadedGraph(project, run, analysis, srdag);
  }

  /** The core count asked for, else the architecture's, else one. */
  public int cores(GenerationRequest request) {
    if (request.cores() != null) {
      return request.cores();
    }
    return run.architecture() != null && !run.architecture().getCores().isEmpty()
        ? run.architecture().getCores().size() : 1;
  }

  /** The project directory. */
  public Path root() {
    return project.root();
  }
}
