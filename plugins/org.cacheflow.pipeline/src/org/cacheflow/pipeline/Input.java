package org.cacheflow.pipeline;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What to load: a PREESM project directory, a PiSDF {@code .pi} graph or an SDF3 {@code .xml} graph, an optional
 * scenario, and parameter values that win over the scenario's.
 *
 * @param path the project directory or graph file
 * @param scenario a scenario file, or a scenario's name or path in the project ({@code 4core},
 *     {@code Scenarios/4core.scenario}); null: the project's first usable scenario, or none
 * @param params parameter overrides by name (a name may be a path {@code graph/sub/NAME}), in order
 * @param profile a profile written by {@code cacheflow profile} ({@code profile.json}) whose measured access modes
 *     and timings the graph takes ({@link ProfileApplied}); null for none
 */
public record Input(Path path, Path scenario, Map<String, String> params, Path profile) {

  public Input {
    Objects.requireNonNull(path);
    params = Collections.unmodifiableMap(new LinkedHashMap<>(params));
  }

  /** Without a profile. */
  public Input(Path path, Path scenario, Map<String, String> params) {
    this(path, scenario, params, null);
  }

  /** The graph or project alone. */
  public static Input of(Path path) {
    return new Input(path, null, Map.of());
  }

  public Input withScenario(Path value) {
    return new Input(path, value, params, profile);
  }

  public Input withParams(Map<String, String> value) {
    return new Input(path, scenario, value, profile);
  }

  /** With a profile ({@code --profile}), or none (null). */
  public Input withProfile(Path value) {
    return new Input(path, scenario, params, value);
  }

  /**
   * {@code NAME=VALUE} texts ({@code --param}) into an ordered map; {@link OptionException} for one without a name
   * or value.
   */
  public static Map<String, String> parseParams(List<String> params) {
    Map<String, String> parsed = new LinkedHashMap<>();
    for (String param : params) {
      int equals = param.indexOf('=');
      if (equals <= 0 || equals == param.length() - 1) {
        throw new OptionException("--param expects NAME=VALUE, got '" + param + "'");
      }
      parsed.put(param.substring(0, equals).trim(), param.substring(equals + 1).trim());
    }
    return parsed;
  }
}
