package org.cacheflow.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.plan.strategy.GlobalStrategy;
import org.cacheflow.workflow.CodegenTask;
import org.cacheflow.workflow.run.ActorCode;
import org.cacheflow.workflow.run.CodeGenerator;
import org.cacheflow.workflow.run.GeneratedCode;
import org.cacheflow.workflow.run.Generation;
import org.cacheflow.workflow.run.GenerationRequest;
import org.cacheflow.workflow.run.RunListener;
import org.cacheflow.workflow.run.SettingsChange;
import org.cacheflow.workflow.run.WorkflowRunner;

/**
 * {@code cacheflow run-workflow}: runs a PREESM project's workflows headless, as PREESM's command line does; each
 * generation is a {@code cacheflow generate} run.
 */
public final class RunWorkflowCommand implements Command {

  @Override
  public String name() {
    return "run-workflow";
  }

  @Override
  public String summary() {
    return "run a PREESM project's workflows (cacheflow tasks; other tasks are skipped) like PREESM's command line";
  }

  @Override
  public String help() {
    return """
        usage: cacheflow run-workflow <project-dir> [-w WORKFLOW] [-s SCENARIO] [--out DIR] [--strategy S]
                                      [--cores N] [--nodes N] [--target T] [--override 'actor.port=S']...
                                      [--synthetic-actors] [--sources DIR] [--include DIR]...
                                      [--define NAME=VALUE]... [--link LIB]...

        Runs workflows of a PREESM project on scenarios, headless. A cacheflow task (pluginId
        org.cacheflow.workflow.codegen) generates a C project with its settings; in a workflow without one,
        PREESM's code generation task runs as a cacheflow task with default settings; every other task is not
        needed by cacheflow and is reported once. Every workflow and task setting is checked before anything is
        generated. See docs/workflow.md.

        options:
          -w, --workflow W    a workflow file, or its name under Workflows/ (.workflow may be left out)
          -s, --scenario S    a scenario file, or its name or path in the project (4core,
                              Scenarios/4core.scenario; .scenario may be left out)
                              Without -w and -s: every pair of the project's .ci.yaml (without one, every
                              workflow with every scenario); with one of them: the .ci.yaml pairs using it,
                              else it with every scenario (or workflow).
          --out DIR           write here instead of the task's output directory (one sub-folder per
                              generation, DIR/<workflow>-<scenario>, when there are several)
          --strategy S        memory strategy for every task: Baseline, CopyOnWrite, NonTemporal, PreStore,
                              HomeForward, Auto (or baseline, cow, ntm, prestore, homeforward, auto)
          --cores N           core count for every task (of each node, with Nodes or --nodes)
          --nodes N           node count (machines, MPI processes) for every task; see docs/multinode.md
          --target T          built-in target (zen4-vm, generic, sapphire-rapids-vm) or target file
          --override 'P=S'    per-FIFO strategy for every task (replaces the tasks' Overrides); repeatable
          --synthetic-actors  generated actor bodies for every task
          --sources DIR       the actors' C sources for every task (default: the task's Actor sources,
                              else the project's Code/src)
          --include DIR       a header folder besides Code/include (replaces the tasks' Include
                              directories); repeatable
          --define NAME=VAL   a compile definition (replaces the tasks' Compile definitions); repeatable
          --link LIB          a library of the actors (replaces the tasks' Libraries); repeatable; see
                              cacheflow generate --help
          --help              this text
        """;
  }

  @Override
  public int run(List<String> args, PrintStream out, PrintStream err) {
    Arguments arguments = Arguments.parse(args, Set.of("--synthetic-actors"), Set.of("-w", "--workflow", "-s",
        "--scenario", "--out", "--strategy", "--cores", "--nodes", "--target", "--override", "--sources",
        "--include", "--define", "--link"));
    Path project = Path.of(arguments.single("project directory"));
    String workflow = either(arguments, "-w", "--workflow");
    String scenario = either(arguments, "-s", "--scenario");
    GlobalStrategy strategy = arguments.option("--strategy").map(RunWorkflowCommand::strategy).orElse(null);
    List<String> overrides = arguments.all("--override").isEmpty() ? null : arguments.all("--override");
    // folders from the working directory, as the user typed them; the tasks' are taken from the project
    ActorCode actorCode = new ActorCode(arguments.option("--sources").map(RunWorkflowCommand::absolute).orElse(null),
        given(arguments, "--include").map(all -> all.stream().map(RunWorkflowCommand::absolute).toList())
            .orElse(null), given(arguments, "--define").orElse(null), given(arguments, "--link").orElse(null));
    SettingsChange change = new SettingsChange(strategy, arguments.positiveInt("--cores").orElse(null),
        arguments.positiveInt("--nodes").orElse(null), arguments.option("--target").orElse(null), overrides,
        arguments.flag("--synthetic-actors") ? true : null, arguments.option("--out").map(Path::of).orElse(null),
        actorCode);

    Diagnostics diagnostics = new Diagnostics();
    RunListener listener = new RunListener() {
      @Override
      public void note(SourceLocation location, String message) {
        err.println("note: " + location + ": " + message);
      }

      @Override
      public void generated(Generation generation) {
        out.println(generation.result().summary() + "  [" + Paths.display(generation.workflow()) + " on "
            + Paths.display(generation.scenario()) + ", task '" + generation.taskId() + "']");
      }
    };
    List<Generation> generations;
    try {
      generations = new WorkflowRunner(new GenerateCommandGenerator(err), change, listener).run(project, workflow,
          scenario, diagnostics);
    } catch (GenerationFailed failed) {
      // generate printed its own error: FILE:LINE:COL: message
      return failed.status;
    } finally {
      for (Diagnostics.Warning warning : diagnostics.warnings()) {
        err.println("warning: " + warning);
      }
    }
    if (generations.isEmpty()) {
      err.println("note: no workflow of this run generates code");
    }
    return Main.OK;
  }

  private static Optional<List<String>> given(Arguments arguments, String option) {
    List<String> all = arguments.all(option);
    return all.isEmpty() ? Optional.empty() : Optional.of(all);
  }

  private static String absolute(String folder) {
    return Path.of(folder).toAbsolutePath().normalize().toString();
  }

  private static String either(Arguments arguments, String shortName, String longName) {
    String value = arguments.option(shortName).orElse(null);
    String other = arguments.option(longName).orElse(null);
    if (value != null && other != null) {
      throw new UsageException(shortName + " and " + longName + " are the same option; give it once");
    }
    return value != null ? value : other;
  }

  /** A workflow strategy name (CopyOnWrite) or a command-line label (cow). */
  static GlobalStrategy strategy(String text) {
    return CodegenTask.strategy(text).or(() -> Optional.ofNullable(GlobalStrategy.byLabel(
        text.trim().toLowerCase(Locale.ROOT)))).orElseThrow(() -> new UsageException("unknown strategy '" + text
            + "' (known: " + String.join(", ", CodegenTask.STRATEGIES.keySet()) + ", or " + GlobalStrategy.labels()
            + ")"));
  }

  /** {@code generate} failed and printed why; run-workflow exits with its status. */
  static final class GenerationFailed extends RuntimeException {

    private static final long serialVersionUID = 1L;
    final int status;

    GenerationFailed(int status) {
      super("cacheflow generate failed with status " + status, null, false, false);
      this.status = status;
    }
  }

  /**
   * Each generation is the {@code generate} command, run in this process: the same loading, checks, messages and
   * output as when users run it themselves.
   */
  static final class GenerateCommandGenerator implements CodeGenerator {

    private final PrintStream err;
    /** Lines generate printed on stderr so far: the same warnings come back for every scenario of a graph. */
    private final Set<String> reported = new HashSet<>();

    GenerateCommandGenerator(PrintStream err) {
      this.err = err;
    }

    @Override
    public GeneratedCode generate(GenerationRequest request, Diagnostics diagnostics) {
      List<String> args = arguments(request);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream messages = new ByteArrayOutputStream();
      int status = new Main().run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
          new PrintStream(messages, true, StandardCharsets.UTF_8));
      messages.toString(StandardCharsets.UTF_8).lines().filter(reported::add).forEach(err::println);
      String printed = out.toString(StandardCharsets.UTF_8);
      if (status != Main.OK) {
        err.println("note: the generation that failed was asked for at " + request.origin("") + ": cacheflow "
            + String.join(" ", args));
        throw new GenerationFailed(status);
      }
      String summary = printed.lines().findFirst().orElse("generated " + request.outputDirectory());
      return new GeneratedCode(request.outputDirectory(), summary);
    }

    static List<String> arguments(GenerationRequest request) {
      return request.arguments("generate");
    }
  }
}
