package org.cacheflow.workflow.descriptor;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One variable of a workflow task ({@code <dftools:variable name="..." value="..."/>}): its meaning, the values
 * it accepts with their effects, and its default. A missing variable, or one whose value is blank, takes the
 * default.
 *
 * @param name the variable name, exactly as written in the workflow
 * @param description what the parameter controls
 * @param kind the kind of value, for editors
 * @param values the values accepted (for {@link ValueKind#CHOICE} and {@link ValueKind#BOOLEAN} the only ones;
 *     for {@link ValueKind#NAME_OR_FILE} the names besides files); empty for other kinds
 * @param syntax how a value is written, for kinds without a fixed list (empty otherwise)
 * @param defaultValue the value written into a new task; blank when the default is computed
 * @param defaultMeaning what the default does, in words (e.g. "the number of cores of the architecture")
 * @param check validates a non-blank value
 */
public record TaskParameter(String name, String description, ValueKind kind, List<AllowedValue> values,
    String syntax, String defaultValue, String defaultMeaning, ValueCheck check) {

  public TaskParameter {
    Objects.requireNonNull(name);
    Objects.requireNonNull(description);
    Objects.requireNonNull(kind);
    values = List.copyOf(values);
    Objects.requireNonNull(syntax);
    Objects.requireNonNull(defaultValue);
    Objects.requireNonNull(defaultMeaning);
    Objects.requireNonNull(check);
  }

  /** Why {@code value} is not acceptable, or empty when it is; null or blank is the default, always fine. */
  public Optional<String> problem(String value) {
    if (value == null || value.isBlank()) {
      return Optional.empty();
    }
    return check.problem(value.trim());
  }

  /** The allowed value written {@code value} (case-insensitively), if there is one. */
  public Optional<AllowedValue> value(String value) {
    if (value == null) {
      return Optional.empty();
    }
    return values.stream().filter(allowed -> allowed.name().equalsIgnoreCase(value.trim())).findFirst();
  }

  /** The allowed values joined for a message: {@code A, B or C}. */
  public String valueList() {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < values.size(); i++) {
      text.append(i == 0 ? "" : i == values.size() - 1 ? " or " : ", ").append(values.get(i).name());
    }
    return text.toString();
  }
}
