package org.cacheflow.io.scenario;

import java.util.LinkedHashSet;
import java.util.Set;

import org.cacheflow.model.Architecture;
import org.cacheflow.model.Core;
import org.cacheflow.model.Graph;
import org.cacheflow.model.Located;
import org.cacheflow.model.MappingConstraint;
import org.cacheflow.model.ParameterValue;
import org.cacheflow.model.Scenario;
import org.cacheflow.model.Timing;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * Cross-checks a scenario against the graph and architecture it names and warns about every setting that
 * refers to nothing (a delay's actor, {@code graph/delay_id}, is something: {@link ActorPaths#findDelay}):
 * constraints on cores the architecture lacks or on unknown actor paths, timings for unknown actors or core types,
 * overrides of unknown parameters, special-vertex operators that are not cores. PREESM drops such settings silently
 * or with a log line; scenarios drift when graphs are edited, so these are warnings, not errors.
 */
public final class ScenarioChecker {

  private ScenarioChecker() {
  }

  /** Checks {@code scenarioFile} against {@code graph} and {@code architecture} (null: core names go unchecked). */
  public static void check(ScenarioFile scenarioFile, Graph graph, Architecture architecture,
      Diagnostics diagnostics) {
    Scenario scenario = scenarioFile.scenario();
    Set<String> cores = new LinkedHashSet<>();
    Set<String> coreTypes = new LinkedHashSet<>();
    boolean hasArchitecture = architecture != null;
    if (hasArchitecture) {
      for (Core core : architecture.getCores()) {
        cores.add(core.getName());
        coreTypes.add(core.getType());
      }
    }
    String archName = hasArchitecture ? architecture.getName() : "";

    for (MappingConstraint constraint : scenario.getConstraints()) {
      if (hasArchitecture && !cores.contains(constraint.getCoreName())) {
        diagnostics.warn(location(constraint), "mapping constraint for core '" + constraint.getCoreName()
            + "', which architecture '" + archName + "' does not have");
      }
      for (String path : constraint.getActorPaths()) {
        if (!ActorPaths.namesGraph(graph, path) && ActorPaths.findActor(graph, path).isEmpty()
            && ActorPaths.findDelay(graph, path).isEmpty()) {
          diagnostics.warn(location(constraint), "mapping constraint for core '" + constraint.getCoreName()
              + "' names '" + path + "', which is not an actor of graph '" + graph.getName() + "'");
        }
      }
    }
    for (Timing timing : scenario.getTimings()) {
      if (ActorPaths.findActor(graph, timing.getActorPath()).isEmpty()
          && ActorPaths.findDelay(graph, timing.getActorPath()).isEmpty()) {
        diagnostics.warn(location(timing), "timing for '" + timing.getActorPath()
            + "', which is not an actor of graph '" + graph.getName() + "'");
      }
      if (hasArchitecture && !coreTypes.contains(timing.getCoreType())) {
        diagnostics.warn(location(timing), "timing for core type '" + timing.getCoreType()
            + "', which architecture '" + archName + "' does not have (it has " + coreTypes + ")");
      }
    }
    for (ParameterValue override : scenario.getParameterValues()) {
      if (ActorPaths.findParameter(graph, override.getParentPath(), override.getParameterName()).isEmpty()) {
        diagnostics.warn(location(override), "value for parameter '" + override.getParameterName() + "' of '"
            + override.getParentPath() + "', which graph '" + graph.getName() + "' does not have");
      }
    }
    for (String operator : scenarioFile.specialVertexOperators()) {
      if (hasArchitecture && !cores.contains(operator)) {
        diagnostics.warn(location(scenario), "special vertex operator '" + operator
            + "' is not a core of architecture '" + archName + "'");
      }
    }
  }

  private static SourceLocation location(Located element) {
    return new SourceLocation(element.getFile(), element.getLine(), element.getColumn());
  }
}
