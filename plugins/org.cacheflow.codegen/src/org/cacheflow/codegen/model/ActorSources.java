package org.cacheflow.codegen.model;

import java.util.List;

/**
 * Where the user's actor code is and what it needs to build, as the generated CMake project finds it: paths
 * relative to the output directory (written with '/'), so the generated files name no path of the generating
 * machine. Each becomes a cache variable of the generated project, so a user can change it at configure time.
 *
 * @param sources the folder of actor C sources, or null (synthetic actors need none)
 * @param includes folders searched for the refinement headers
 * @param definitions compile definitions, {@code NAME=VALUE} or {@code NAME}, as given (a string value keeps its
 *     quotes: {@code NAME="text"})
 * @param libraries libraries the actors link with: a CMake package target {@code Package::target}, a pkg-config
 *     module, or a library name (see the generated CMakeLists.txt)
 * @param projectRoot the PREESM project's {@code Code/} folder, which {@code PROJECT_ROOT_PATH} names as PREESM's
 *     CMakeLists does; null when there is none (or {@code definitions} sets it)
 */
public record ActorSources(String sources, List<String> includes, List<String> definitions, List<String> libraries,
    String projectRoot) {

  public ActorSources {
    includes = List.copyOf(includes);
    definitions = List.copyOf(definitions);
    libraries = List.copyOf(libraries);
  }

  /** Sources and headers only. */
  public ActorSources(String sources, List<String> includes) {
    this(sources, includes, List.of(), List.of(), null);
  }

  public static final ActorSources NONE = new ActorSources(null, List.of());
}
