package org.cacheflow.io.scenario;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.cacheflow.model.ParameterValue;
import org.cacheflow.model.Scenario;
import org.cacheflow.model.diagnostics.InputException;

/**
 * A scenario as read, with what the model's {@link Scenario} does not hold: where each file reference
 * was written and the simulation settings code generation uses.
 *
 * @param file the {@code .scenario} file
 * @param scenario the model scenario (paths as written, e.g. {@code /project/Algo/top.pi})
 * @param algorithm {@code <files><algorithm url>}, if present and not empty
 * @param architecture {@code <files><architecture url>}, if present and not empty
 * @param codegenDirectory {@code <files><codegenDirectory url>}, if present and not empty
 * @param mainCore {@code <simuParams><mainCore>}: the core that runs the main thread, if set
 * @param specialVertexOperators {@code <simuParams><specialVertexOperators>}: cores allowed to run
 *     broadcasts, forks, joins and round buffers (empty means all cores, as in PREESM)
 * @param valueSets parameters given a set of several values ({@code value="[1, 2, 4]"}); a one-value set is
 *     a plain value of {@link Scenario#getParameterValues()} instead
 */
public record ScenarioFile(Path file, Scenario scenario, Optional<ScenarioSetting> algorithm,
    Optional<ScenarioSetting> architecture, Optional<ScenarioSetting> codegenDirectory,
    Optional<ScenarioSetting> mainCore, List<String> specialVertexOperators, List<ValueSet> valueSets) {

  public ScenarioFile {
    specialVertexOperators = List.copyOf(specialVertexOperators);
    valueSets = List.copyOf(valueSets);
  }

  /**
   * The parameter values to analyse the graph with: the scenario's, keyed {@code parent/name}, then
   * {@code chosen} (the command line's {@code --param NAME=VALUE}, keyed {@code name} or {@code graph/path/name}),
   * which win.
   *
   * @throws InputException at the scenario line of a parameter given several values that {@code chosen} does not
   *     settle, listing the values
   */
  public Map<String, String> parameterOverrides(Map<String, String> chosen) {
    Map<String, String> overrides = new LinkedHashMap<>();
    for (ParameterValue value : scenario.getParameterValues()) {
      String parent = value.getParentPath();
      overrides.put(parent == null || parent.isEmpty() ? value.getParameterName()
          : parent + "/" + value.getParameterName(), value.getExpression());
    }
    for (ValueSet set : valueSets) {
      if (!chosen.containsKey(set.key()) && !chosen.containsKey(set.name())) {
        throw new InputException(set.location(), "parameter '" + set.name() + "' of '" + set.parentPath()
            + "' is given several values " + set.values() + " (a PREESM dynamic parameter); code is generated for"
            + " one value: choose it with --param " + set.name() + "=VALUE (one of " + String.join(", ",
                set.values()) + ")");
      }
    }
    overrides.putAll(chosen);
    return overrides;
  }
}
