package org.cacheflow.io.scenario;

import java.util.List;

import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * A scenario parameter given a set of several values, such as {@code value="[1, 2, 4]"} (PREESM's dynamic
 * parameters, whose value is chosen at run time). cacheflow generates code for one value, so the user chooses
 * it with {@code --param} ({@link ScenarioFile#parameterOverrides}).
 *
 * @param parentPath the graph path the parameter belongs to, as written
 * @param name the parameter's name
 * @param values the values of the set, in order
 * @param location where the set was written
 */
public record ValueSet(String parentPath, String name, List<String> values, SourceLocation location) {

  public ValueSet {
    values = List.copyOf(values);
  }

  /** The override key, as the scenario's single values use: {@code parent/name}, or {@code name}. */
  public String key() {
    return parentPath == null || parentPath.isEmpty() ? name : parentPath + "/" + name;
  }
}
