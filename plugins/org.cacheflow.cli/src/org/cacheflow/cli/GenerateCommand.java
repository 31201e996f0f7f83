package org.cacheflow.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.cacheflow.codegen.PreesmLayoutWriter;
import org.cacheflow.pipeline.ActorCodeOptions;
import org.cacheflow.pipeline.GenerateOptions;
import org.cacheflow.pipeline.GenerateResult;
import org.cacheflow.pipeline.Input;
import org.cacheflow.pipeline.PathText;
import org.cacheflow.pipeline.Pipeline;
import org.cacheflow.plan.strategy.StrategyPreset;
import org.cacheflow.workflow.run.ProjectActorCode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code cacheflow generate}: the C project users build for their boards. */
@Command(name = "generate", header = "generate a C project (CMake) running the graph on N cores (or nodes x cores, "
    + "MPI) with the cacheflow runtime", synopsisHeading = "usage: ", abbreviateSynopsis = true, separator = " ",
    sortOptions = false, description = {"", "Analyses and expands the graph, maps its firings on N cores with a static "
        + "order per core, decides how every buffer moves (the strategy), and writes a CMake project into DIR: "
        + "graph.h, one core_N.c per core, main.c, CMakeLists.txt, toolchain files, and a copy of the C runtime "
        + "(cacheflow-runtime/). The program is named after the graph; it takes --iterations N, --validate (MD5 of "
        + "every sink FIFO and runtime statistics), --no-pin and --time, and stops early when an actor sets "
        + "preesmStopThreads or at SIGINT/SIGTERM (after an iteration, with its statistics); a crashing actor is "
        + "named with its firing, iteration and core. A program that cannot fit the memory it may use (the target's "
        + "'memory', or --max-memory) is refused and nothing is written; the program checks the machine's memory "
        + "again at start. DIR is replaced only once generation succeeded (two generations into it at once take "
        + "turns). See docs/generate.md and docs/reliability.md.", ""},
    optionListHeading = "%noptions (the actors' code: --sources, --include, --define, --link, each also a cache "
        + "variable of the generated CMake project):%n", parameterListHeading = "%n")
public final class GenerateCommand extends CliCommand {

  /** System property naming the runtime-c folder to bundle; else {@code $CACHEFLOW_HOME/runtime-c}. */
  public static final String RUNTIME_PROPERTY = "cacheflow.runtime";

  @Mixin
  InputOptions input = new InputOptions();

  @Mixin
  ProfileOption profile = new ProfileOption();

  @Mixin
  InputOptions.Platform platform = new InputOptions.Platform();

  @Mixin
  InputOptions.Mapping mapping = new InputOptions.Mapping();

  @Option(names = "--out", paramLabel = "DIR", description = "output folder (created or replaced)")
  Path outDir;

  @Option(names = "--strategy", paramLabel = "S", descriptionKey = "strategy")
  String strategy = StrategyPreset.DEFAULT.label;

  @Option(names = "--override", paramLabel = "X", descriptionKey = "override")
  List<String> overrides = new ArrayList<>();

  @Option(names = "--target", paramLabel = "F", descriptionKey = "target")
  String target = GenerateOptions.DEFAULT_TARGET;

  @Mixin
  ScheduleOptions schedule = new ScheduleOptions();

  @Option(names = "--synthetic-actors", description = "generate deterministic actor bodies instead of calling the "
      + "actors' code")
  boolean synthetic;

  @Mixin
  ActorOptions actors = new ActorOptions();

  @Override
  protected Map<String, String> texts() {
    return Map.of("strategy", strategies(), "override", overrideHelp(PER_FIFO_SEE_PLAN), "target",
        "cache profile for the memory plan: " + builtInTargets() + ", or a target file");
  }

  /** Every preset, then one line of help each (the first line lists the names, for a quick look). */
  static String strategies() {
    StringBuilder text = new StringBuilder(wrap(String.join(" | ", StrategyPreset.labels()) + " (default "
        + StrategyPreset.DEFAULT.label + "); baseline is PREESM's behaviour"));
    for (StrategyPreset preset : StrategyPreset.values()) {
      text.append("%n").append(wrap(preset.label + ": " + preset.help));
    }
    return text.toString();
  }

  @Override
  public Integer call() {
    Input what = profile.apply(input.input("graph, SDF3 file or project directory"));
    if (outDir == null) {
      throw new UsageException("missing --out DIR");
    }
    StrategyPreset preset;
    try {
      preset = StrategyPreset.named(strategy);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    ActorCodeOptions actorCode = actors.options();
    if (synthetic && actorCode.given()) {
      err.println("note: --sources, --include, --define and --link are not used with --synthetic-actors");
    }
    GenerateOptions options = GenerateOptions.of(what, outDir,
        runtimeFolder()).withStrategy(preset).withOverrideTexts(overrides).withTarget(target)
        .withPlatform(platform.options()).withPolicy(mapping.policy()).withSyntheticActors(synthetic)
        .withActorCode(actorCode, ProjectActorCode.defaults()).withSchedule(schedule.schedule());
    GenerateResult result = new Pipeline(progress()).generate(options);
    out.println(result.summary());
    if (PreesmLayoutWriter.appliesTo(outDir)) {
      Path code = outDir.toAbsolutePath().normalize().getParent();
      out.println("build: with the project's own build, " + Shell.quote(PathText.display(code.resolve(
          "CMakeLists.txt"))) + " (it compiles " + Shell.quote(PathText.display(outDir)) + " with the actors)");
    } else {
      out.println("build: " + buildHint(outDir, result.project().identifier(), result.asked().nodes()));
    }
    if (result.asked().nodes() > 1) {
      err.println("note: one process per node: run the program under mpirun -np " + result.asked().nodes()
          + " (with --oversubscribe where a machine has fewer cores than processes); see docs/multinode.md");
    }
    return Main.OK;
  }

  /**
   * The shell commands that configure, build and run the generated project, from the working directory; a program
   * for several nodes runs under {@code mpirun}, one process per node.
   */
  static String buildHint(Path outDir, String program, int nodes) {
    String out = PathText.display(outDir);
    out = out.isEmpty() ? "." : out;
    String build = PathText.display(outDir.resolve("build"));
    String executable = PathText.display(outDir.resolve("build").resolve(program));
    return "cmake -S " + Shell.quote(out) + " -B " + Shell.quote(build) + " && cmake --build " + Shell.quote(build)
        + " && " + (nodes > 1 ? "mpirun -np " + nodes + " " : "") + Shell.quote(executable)
        + " --iterations 10 --validate";
  }

  /** The runtime-c folder: the system property, else $CACHEFLOW_HOME/runtime-c (the launcher sets it). */
  static Path runtimeFolder() {
    String property = System.getProperty(RUNTIME_PROPERTY);
    if (property != null && !property.isBlank()) {
      return Path.of(property);
    }
    String home = System.getenv("CACHEFLOW_HOME");
    if (home != null && !home.isBlank()) {
      return Path.of(home, "runtime-c");
    }
    throw new UsageException("cannot find the C runtime to bundle: run through the ./cacheflow launcher (it sets "
        + "CACHEFLOW_HOME) or set -D" + RUNTIME_PROPERTY + "=<runtime-c folder>");
  }
}
