package org.cacheflow.cli;

import java.nio.file.Path;

import org.cacheflow.pipeline.ActorCodeOptions;
import org.cacheflow.pipeline.GenerateOptions;
import org.cacheflow.pipeline.Input;
import org.cacheflow.pipeline.Pipeline;
import org.cacheflow.pipeline.PlatformOptions;
import org.cacheflow.pipeline.ProfileException;
import org.cacheflow.pipeline.ProfileOptions;
import org.cacheflow.pipeline.ProfileResult;
import org.cacheflow.workflow.run.ProjectActorCode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code cacheflow profile}: what the real actors do with their ports, and how long they take, from a run. */
@Command(name = "profile", header = "run the real actors instrumented and write what they do: access modes, times, "
    + "re-read distances (profile.json, profile.md)", synopsisHeading = "usage: ", abbreviateSynopsis = true,
    separator = " ", sortOptions = false, description = {"", "Generates the program with the actors' own code and "
        + "plain copies between them, every firing between two calls of the runtime's profiler, builds it with CMake "
        + "and runs it: plain (the cost's baseline), timed (CLOCK_MONOTONIC per firing), with canaries in the outputs "
        + "and copies of the inputs (bytes written, inputs changed: byte-exact), and on one core with the ports' pages "
        + "protected (reads, reads before writes, stores: per page). Writes DIR/profile.json (plan and generate "
        + "--profile read it) and DIR/profile.md: per port the bytes read and written per firing, whether an input "
        + "was written (copy-on-write would fault), whether an output was read before written and its bytes never "
        + "written; per actor the time per firing (median, quartiles, coefficient of variation); per FIFO the bytes "
        + "touched between its write and its first re-read; the annotations suggested and every declaration "
        + "contradicted (also printed as warnings). No root and no hardware counters needed. See docs/profile.md.",
        ""},
    optionListHeading = "%noptions:%n", parameterListHeading = "%n")
public final class ProfileCommand extends CliCommand {

  @Mixin
  InputOptions input = new InputOptions();

  @Option(names = "--cores", paramLabel = "N", converter = PositiveInt.class, description = "cores to run on "
      + "(default 1: page protection needs a single thread; more cores measure times and byte facts only)")
  Integer cores = 1;

  @Option(names = "--iterations", paramLabel = "N", converter = PositiveInt.class, description = "graph iterations "
      + "per run (default " + ProfileOptions.DEFAULT_ITERATIONS + ")")
  Integer iterations = ProfileOptions.DEFAULT_ITERATIONS;

  @Option(names = "--out", paramLabel = "DIR", description = "folder for profile.json, profile.md, the program and "
      + "the runs' raw data (created; its profile files replaced)")
  Path outDir;

  @Mixin
  ActorOptions actors = new ActorOptions();

  @Override
  public Integer call() {
    Input what = input.input("graph, SDF3 file or project directory");
    if (outDir == null) {
      throw new UsageException("missing --out DIR");
    }
    ActorCodeOptions actorCode = actors.options();
    GenerateOptions generate = GenerateOptions.of(what, outDir.resolve("program"), GenerateCommand.runtimeFolder())
        .withPlatform(new PlatformOptions(null, cores, null))
        .withActorCode(actorCode, ProjectActorCode.defaults());
    try {
      ProfileResult result = new Pipeline(progress()).profile(new ProfileOptions(generate, iterations, outDir));
      out.println(result.summary());
      for (String finding : result.findings()) {
        out.println("  " + finding);
      }
      return Main.OK;
    } catch (ProfileException e) {
      err.println("error: " + e.getMessage());
      return CalibrateCommand.FAILED;
    }
  }
}
