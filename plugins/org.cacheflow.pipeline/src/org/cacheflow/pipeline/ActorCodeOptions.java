package org.cacheflow.pipeline;

import java.nio.file.Path;
import java.util.List;

/**
 * What the generated project needs to build the actors' own code.
 *
 * @param sources the folder of the actors' C sources; null: the project's {@code Code/src}
 * @param includes header folders besides the project's {@code Code/include}
 * @param definitions compile definitions {@code NAME=VALUE} or {@code NAME}
 * @param libraries libraries the actors use ({@code Package::target}, a pkg-config module, a library name)
 */
public record ActorCodeOptions(Path sources, List<Path> includes, List<String> definitions, List<String> libraries) {

  /** Nothing given: the project's defaults. */
  public static final ActorCodeOptions DEFAULTS = new ActorCodeOptions(null, List.of(), List.of(), List.of());

  public ActorCodeOptions {
    includes = List.copyOf(includes);
    definitions = List.copyOf(definitions);
    libraries = List.copyOf(libraries);
  }

  /** Whether anything is given. */
  public boolean given() {
    return sources != null || !includes.isEmpty() || !definitions.isEmpty() || !libraries.isEmpty();
  }
}
