package org.cacheflow.codegen.model;

import java.util.List;

/**
 * Where the user's actor code is, as the generated CMake project finds it: paths relative to the output
 * directory (written with '/'), so the generated files name no path of the generating machine.
 *
 * @param sources the folder of actor C sources, or null (synthetic actors need none)
 * @param includes folders searched for the refinement headers
 */
public record ActorSources(String sources, List<String> includes) {

  public ActorSources {
    includes = List.copyOf(includes);
  }

  public static final ActorSources NONE = new ActorSources(null, List.of());
}
