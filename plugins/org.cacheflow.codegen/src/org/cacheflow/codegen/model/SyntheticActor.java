package org.cacheflow.codegen.model;

import java.util.List;

/**
 * A generated deterministic actor body: it digests every input it reads into a seed, scribbles over inputs
 * it is allowed to modify, and fills its outputs from the seed.
 *
 * @param function the C function name
 * @param actor the actor path, for the comment
 * @param id a number that makes the actor's outputs differ from every other actor's
 * @param parameters in call order
 */
public record SyntheticActor(String function, String actor, long id, List<Parameter> parameters) {

  /** What a synthetic body does with a parameter. */
  public enum Use {
    /** a configuration value: passed, folded into the seed */
    CONFIG,
    /** an input it reads */
    READ,
    /** an input it reads, then overwrites (its port is not READ_ONLY) */
    READ_SCRIBBLE,
    /** an input it only overwrites (WRITE_ONLY) */
    SCRIBBLE,
    /** an input it neither reads nor writes (UNUSED), or an UNUSED output */
    IGNORE,
    /** an output it writes */
    WRITE
  }

  /**
   * @param name the C parameter name
   * @param use what the body does with it
   * @param bytes bytes per firing (0 for CONFIG)
   */
  public record Parameter(String name, Use use, long bytes) {
  }
}
