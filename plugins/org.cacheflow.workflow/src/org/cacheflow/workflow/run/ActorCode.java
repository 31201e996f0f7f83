package org.cacheflow.workflow.run;

import java.util.ArrayList;
import java.util.List;

/**
 * What the actors' own C code needs to build, as a task, a command line or a build configuration gives it. A null
 * field is not given: a task then takes the default, a {@link SettingsChange} keeps the task's value.
 *
 * @param sources the folder of the actors' C sources (default: the project's {@code Code/src})
 * @param includes header folders besides the project's {@code Code/include}
 * @param definitions compile definitions, {@code NAME=VALUE} or {@code NAME}
 * @param libraries libraries the actors link with ({@code cacheflow generate --link})
 */
public record ActorCode(String sources, List<String> includes, List<String> definitions, List<String> libraries) {

  /** Nothing given. */
  public static final ActorCode NONE = new ActorCode(null, null, null, null);

  public ActorCode {
    includes = includes == null ? null : List.copyOf(includes);
    definitions = definitions == null ? null : List.copyOf(definitions);
    libraries = libraries == null ? null : List.copyOf(libraries);
  }

  /** These, with what {@code change} gives instead. */
  public ActorCode with(ActorCode change) {
    return new ActorCode(change.sources != null ? change.sources : sources,
        change.includes != null ? change.includes : includes,
        change.definitions != null ? change.definitions : definitions,
        change.libraries != null ? change.libraries : libraries);
  }

  /** The {@code cacheflow generate} options that give these: {@code --sources}, {@code --include}... */
  public List<String> generateOptions() {
    List<String> options = new ArrayList<>();
    if (sources != null) {
      options.addAll(List.of("--sources", sources));
    }
    for (String include : includes == null ? List.<String>of() : includes) {
      options.addAll(List.of("--include", include));
    }
    for (String definition : definitions == null ? List.<String>of() : definitions) {
      options.addAll(List.of("--define", definition));
    }
    for (String library : libraries == null ? List.<String>of() : libraries) {
      options.addAll(List.of("--link", library));
    }
    return options;
  }
}
