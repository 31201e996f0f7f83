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

  /** Whether {@code entry} is a compile definition the generated CMake project takes: {@code NAME=VALUE} or {@code
   * NAME}. */
  public static boolean isDefinition(String entry) {
    return entry.matches("[A-Za-z_][A-Za-z0-9_]*(=[^;]*)?");
  }

  /** Whether {@code entry} names a library: {@code Package::target}, a pkg-config module or a library such as m. */
  public static boolean isLibrary(String entry) {
    return entry.matches("[A-Za-z0-9_.+-]+(::[A-Za-z0-9_.+-]+)?");
  }

  /**
   * These options, or an {@link OptionException} naming the first definition or library the generated project could
   * not take, as the caller's options are called ({@code --define}, {@code <definitions>}).
   */
  public ActorCodeOptions checked(String definitionsOption, String librariesOption) {
    for (String definition : definitions) {
      if (!isDefinition(definition)) {
        throw new OptionException(definitionsOption + " expects NAME=VALUE or NAME (no ';'), got '" + definition + "'");
      }
    }
    for (String library : libraries) {
      if (!isLibrary(library)) {
        throw new OptionException(librariesOption + " expects a library name (Package::target, a pkg-config module or "
            + "a library such as m), got '" + library + "'");
      }
    }
    return this;
  }

  /** Whether anything is given. */
  public boolean given() {
    return sources != null || !includes.isEmpty() || !definitions.isEmpty() || !libraries.isEmpty();
  }
}
