package org.cacheflow.workflow.descriptor;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything a workflow task declares about itself, in one place: the plug-in id a {@code .workflow} names it
 * by, what it does, its ports, its parameters with their values, effects and defaults, and the errors it
 * reports. The reference documentation ({@link ReferenceDoc}) and the workflow editor are generated from it;
 * the task's settings reader validates against it.
 *
 * @param pluginId the {@code pluginId} of {@code <dftools:task>}
 * @param name a short human name
 * @param summary one sentence
 * @param description a paragraph or more (Markdown)
 * @param inputs what the task takes from the workflow graph
 * @param outputs what it gives to later tasks
 * @param parameters its variables, in the order an editor shows them
 * @param errors the errors it reports about its settings and inputs
 */
public record TaskDescriptor(String pluginId, String name, String summary, String description, List<TaskPort> inputs,
    List<TaskPort> outputs, List<TaskParameter> parameters, List<DocumentedError> errors) {

  public TaskDescriptor {
    Objects.requireNonNull(pluginId);
    Objects.requireNonNull(name);
    Objects.requireNonNull(summary);
    Objects.requireNonNull(description);
    inputs = List.copyOf(inputs);
    outputs = List.copyOf(outputs);
    parameters = List.copyOf(parameters);
    errors = List.copyOf(errors);
    Map<String, TaskParameter> seen = new LinkedHashMap<>();
    for (TaskParameter parameter : parameters) {
      if (seen.put(parameter.name(), parameter) != null) {
        throw new IllegalArgumentException("parameter '" + parameter.name() + "' declared twice");
      }
    }
  }

  /** The parameter named {@code name} (exactly), if declared. */
  public Optional<TaskParameter> parameter(String name) {
    return parameters.stream().filter(parameter -> parameter.name().equals(name)).findFirst();
  }

  /** The variables of a new task: every parameter with its default value, in declaration order. */
  public Map<String, String> defaults() {
    Map<String, String> defaults = new LinkedHashMap<>();
    for (TaskParameter parameter : parameters) {
      defaults.put(parameter.name(), parameter.defaultValue());
    }
    return defaults;
  }
}
