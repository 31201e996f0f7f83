package org.cacheflow.codegen.model;

import java.util.ArrayList;
import java.util.List;

/**
 * A generated deterministic actor body: it digests every input it reads into a seed, repeats into its outputs
 * the input ranges its memory script matched with them, scribbles over inputs it is allowed to modify, and
 * fills the rest of its outputs from the seed.
 *
 * @param function the C function name
 * @param actor the actor path, for the comment
 * @param id a number that makes the actor's outputs differ from every other actor's
 * @param parameters in call order
 * @param copies output ranges that repeat input ranges (the actor's memory script), in order
 * @param fills output ranges filled from the seed: what the copies leave
 */
public record SyntheticActor(String function, String actor, long id, List<Parameter> parameters, List<Copy> copies,
    List<Fill> fills) {

  public SyntheticActor {
    parameters = List.copyOf(parameters);
    copies = List.copyOf(copies);
    fills = List.copyOf(fills);
  }

  /** A body without script copies: every output is filled whole. */
  public SyntheticActor(String function, String actor, long id, List<Parameter> parameters) {
    this(function, actor, id, parameters, List.of(), wholeFills(parameters));
  }

  private static List<Fill> wholeFills(List<Parameter> parameters) {
    List<Fill> fills = new ArrayList<>();
    for (int i = 0; i < parameters.size(); i++) {
      if (parameters.get(i).use() == Use.WRITE) {
        fills.add(new Fill(parameters.get(i).name(), 0, parameters.get(i).bytes(), i));
      }
    }
    return fills;
  }

  /** {@code output[outputOffset, +bytes)} = {@code input[inputOffset, +bytes)}, as memmove. */
  public record Copy(String output, long outputOffset, String input, long inputOffset, long bytes) {
  }

  /** {@code output[offset, +bytes)} filled from the seed; {@code index} keeps outputs apart. */
  public record Fill(String output, long offset, long bytes, int index) {
  }

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
