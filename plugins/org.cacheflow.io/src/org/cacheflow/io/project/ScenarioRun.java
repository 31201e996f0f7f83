package org.cacheflow.io.project;

import java.nio.file.Path;

import org.cacheflow.io.scenario.ScenarioFile;
import org.cacheflow.model.Architecture;
import org.cacheflow.model.Graph;

/**
 * Everything a scenario names, read and cross-checked: the graph with its FIFOs' token sizes resolved,
 * the architecture with the scenario's main core applied.
 *
 * @param scenario the scenario as read
 * @param graph the algorithm
 * @param architecture the architecture; null only when it was optional and absent
 *     ({@link PreesmProject#load(Path, GraphLoader, boolean, org.cacheflow.model.diagnostics.Diagnostics)})
 * @param algorithmFile where the algorithm was read from
 * @param architectureFile where the architecture was read from, or null with no architecture
 * @param codegenDirectory where the scenario puts generated code (it need not exist yet), or null when
 *     the scenario does not say
 */
public record ScenarioRun(ScenarioFile scenario, Graph graph, Architecture architecture, Path algorithmFile,
    Path architectureFile, Path codegenDirectory) {
}
