package org.cacheflow.pipeline;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.cacheflow.model.Architecture;
import org.cacheflow.model.Graph;
import org.cacheflow.model.Scenario;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.plan.memory.MemoryScripts;
import org.cacheflow.plan.memory.ScriptReport;
import org.cacheflow.analysis.srdag.Srdag;

/**
 * A loaded graph ready for analysis: token sizes resolved, parameter overrides collected (the scenario's, then the
 * caller's, which win).
 *
 * @param source the graph file read
 * @param graph the graph
 * @param scenario the scenario, or null
 * @param scenarioFile the scenario file, or null
 * @param architecture the scenario's architecture, or null
 * @param parameterOverrides parameter values by name
 * @param projectRoot the PREESM project the graph belongs to, or null
 * @param specialVertexOperators the operators the scenario lets run special vertices (empty: any, or no scenario)
 */
public record LoadedInput(Path source, Graph graph, Scenario scenario, Path scenarioFile, Architecture architecture,
    Map<String, String> parameterOverrides, Path projectRoot, List<String> specialVertexOperators) {

  public LoadedInput {
    specialVertexOperators = List.copyOf(specialVertexOperators);
  }

  /**
   * Evaluates the memory scripts of the expanded graph: actors' scripts found from the project (else the graph
   * file's folder), sizes in bits when the scenario says so.
   */
  public ScriptReport memoryScripts(Srdag srdag, Diagnostics diagnostics) {
    return MemoryScripts.evaluate(srdag, scriptRoot(), MemoryScripts.Options.defaults().withSizesInBits(sizesInBits()),
        diagnostics);
  }

  /** Where the actors' memory scripts are looked for: the project, else the graph file's folder. */
  public Path scriptRoot() {
    return projectRoot != null ? projectRoot : source.toAbsolutePath().getParent();
  }

  /** Whether the scenario gives data sizes in bits. */
  public boolean sizesInBits() {
    return scenario != null && scenario.isSizesAreInBit();
  }
}
