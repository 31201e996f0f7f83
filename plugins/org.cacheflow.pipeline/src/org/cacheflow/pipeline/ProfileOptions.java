package org.cacheflow.pipeline;

import java.nio.file.Path;
import java.util.Objects;

/**
 * What {@link Pipeline#profile} runs and where it writes.
 *
 * @param generate the program to profile: input, cores ({@code --cores}, default one: page protection needs one
 *     thread), the actors' code and the runtime; its strategy and output folder are the profile's own (plain copies,
 *     so that every port has memory of its own, into {@code out/program})
 * @param iterations graph iterations per run
 * @param out the folder written: {@code profile.json}, {@code profile.md}, the program and the runs' raw data
 */
public record ProfileOptions(GenerateOptions generate, int iterations, Path out) {

  /** Iterations without {@code --iterations}. */
  public static final int DEFAULT_ITERATIONS = 20;

  public ProfileOptions {
    Objects.requireNonNull(generate);
    Objects.requireNonNull(out);
    if (iterations < 1) {
      throw new OptionException("--iterations", "--iterations needs a positive number, got " + iterations);
    }
  }
}
