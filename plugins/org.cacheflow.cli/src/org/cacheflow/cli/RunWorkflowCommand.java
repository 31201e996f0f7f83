package org.cacheflow.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.pipeline.Diagnostic;
import org.cacheflow.pipeline.OptionException;
import org.cacheflow.pipeline.PathText;
import org.cacheflow.pipeline.Pipeline;
import org.cacheflow.plan.mapping.MappingPolicy;
import org.cacheflow.plan.strategy.StrategyPreset;
import org.cacheflow.workflow.CodegenTask;
import org.cacheflow.workflow.run.Generation;
import org.cacheflow.workflow.run.RunListener;
import org.cacheflow.workflow.run.SettingsChange;
import org.cacheflow.workflow.run.WorkflowRunner;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cacheflow run-workflow}: runs a PREESM project's workflows headless, as PREESM's command line does; each
 * generation runs in the pipeline, as {@code cacheflow generate} does.
 */
@Command(name = "run-workflow", header = "run a PREESM project's workflows (cacheflow tasks; other tasks are skipped) "
    + "like PREESM's command line", synopsisHeading = "usage: ", abbreviateSynopsis = true, separator = " ",
    sortOptions = false, description = {"",
        "Runs workflows of a PREESM project on scenarios, headless. A cacheflow task "
        + "(pluginId org.cacheflow.workflow.codegen) generates a C project with its settings; in a workflow without "
        + "one, PREESM's code generation task runs as a cacheflow task with default settings; every other task is not "
        + "needed by cacheflow and is reported once. Every workflow and task setting is checked before anything is "
        + "generated. See docs/workflow.md.", "",
        "Without -w and -s: every pair of the project's .ci.yaml (without one, every workflow with every scenario); "
        + "with one of them: the .ci.yaml pairs using it, else it with every scenario (or workflow).", ""},
    optionListHeading = "%noptions (each one given replaces the setting of every task; --include, --define and --link "
        + "replace the whole list of Include directories, Compile definitions or Libraries, --variable and "
        + "--cost-spread those of Variable actors and Cost spread):%n",
    parameterListHeading = "%n")
public final class RunWorkflowCommand extends CliCommand {

  @Parameters(paramLabel = "<project-dir>", arity = "0..*", description = "the PREESM project")
  List<String> inputs;

  @Option(names = {"-w", "--workflow"}, paramLabel = "W", description = "a workflow file, or its name under "
      + "Workflows/ (.workflow may be left out)")
  String workflow;

  @Option(names = {"-s", "--scenario"}, paramLabel = "S", description = "a scenario file, or its name or path in the "
      + "project (4core, Scenarios/4core.scenario; .scenario may be left out)")
  String scenario;

  @Option(names = "--out", paramLabel = "DIR", description = "write here instead of the task's output directory (one "
      + "sub-folder per generation, DIR/<workflow>-<scenario>, when there are several)")
  Path outDir;

  @Option(names = "--strategy", paramLabel = "S", descriptionKey = "strategy")
  String strategy;

  @Option(names = "--cores", paramLabel = "N", converter = PositiveInt.class, description = "core count for every "
      + "task (of each node, with Nodes or --nodes)")
  Integer cores;

  @Option(names = "--nodes", paramLabel = "N", converter = PositiveInt.class, description = "node count (machines, MPI "
      + "processes) for every task; see docs/multinode.md")
  Integer nodes;

  @Mixin
  InputOptions.Mapping mapping = new InputOptions.Mapping();

  @Option(names = "--target", paramLabel = "T", descriptionKey = "target")
  String target;

  @Option(names = "--override", paramLabel = "X", descriptionKey = "override")
  List<String> overrides = new ArrayList<>();

  @Option(names = "--synthetic-actors", description = "generated actor bodies for every task")
  boolean synthetic;

  @Mixin
  ActorOptions actors = new ActorOptions();

  @Option(names = "--check", description = "after each generation, build the program (CMake, Release), run it with "
      + "--validate=preesm and compare its output with the project's .validation.hash as cacheflow check does; exit "
      + "status 1 when it differs")
  boolean check;

  @Option(names = "--iterations", paramLabel = "N", converter = PositiveInt.class, description = "the iterations "
      + "the program runs for --check: those the .validation.hash was made with (default: the program's, "
      + "PREESM_LOOP_SIZE or 1)")
  Integer iterations;

  @Mixin
  ScheduleOptions schedule = new ScheduleOptions();

  @Mixin
  ProfileOption profile = new ProfileOption();

  @Override
  protected Map<String, String> texts() {
    return Map.of("strategy", "memory strategy for every task: " + CodegenTask.strategyChoices(),
        "policy", "mapping policy for every task (the tasks' Mapping policy): " + MappingPolicy.labels()
            + " (see cacheflow generate --help)",
        "target", "built-in target (" + builtInTargets() + ") or target file", "override",
        "for every task, replacing the tasks' Overrides: " + overrideHelp(PER_FIFO_SEE_PLAN));
  }

  @Override
  public Integer call() {
    Path project = single(inputs, "project directory");
    CheckCommand.beforeWorkflows(project, check, err);
    StrategyPreset preset = strategy == null ? null : strategy(strategy);
    SettingsChange change = new SettingsChange(preset, cores, nodes, mapping.given(), target,
        given(overrides).orElse(null), synthetic ? true : null, outDir, actors.change()).withSchedule(schedule.kind(),
        given(schedule.variable).orElse(null), schedule.spread.isEmpty() ? null : schedule.spread())
        .withProfile(profile.profile == null ? null : profile.profile.toAbsolutePath().normalize());

    Diagnostics diagnostics = new Diagnostics();
    Progress progress = progress();
    // the same warnings come back for every scenario of a graph: each is printed once
    Set<String> said = new HashSet<>();
    RunListener listener = new RunListener() {
      @Override
      public void note(SourceLocation location, String message) {
        err.println("note: " + location + ": " + message);
      }

      @Override
      public void generated(Generation generation) {
        out.println(generation.result().summary() + "  [" + PathText.display(generation.workflow()) + " on "
            + PathText.display(generation.scenario()) + ", task '" + generation.taskId() + "']");
      }

      @Override
      public void failed(Generation generation, RuntimeException cause) {
        progress.done();
        err.println("note: the generation that failed was asked for at " + generation.request().origin("") + " ("
            + PathText.display(generation.workflow()) + " on " + PathText.display(generation.scenario()) + ")");
      }

      @Override
      public void diagnostic(Diagnostic diagnostic) {
        if (said.add(diagnostic.severity() + diagnostic.toString())) {
          progress.diagnostic(diagnostic);
        }
      }

      @Override
      public void step(String description) {
        progress.step(description);
      }

      @Override
      public void begin(String task, long total) {
        progress.begin(task, total);
      }

      @Override
      public void worked(long units) {
        progress.worked(units);
      }

      @Override
      public void done() {
        progress.done();
      }
    };
    List<Generation> generations;
    WorkflowRunner runner = new WorkflowRunner(change, listener, GenerateCommand.runtimeFolder());
    try {
      generations = runner.run(project, workflow, scenario, diagnostics);
    } catch (OptionException e) {
      // a workflow's setting the pipeline rejects: bad input at its task parameter's line; an option of this
      // command line: a usage error
      throw runner.located(e).map(RuntimeException.class::cast).orElse(e);
    } finally {
      for (Diagnostics.Warning warning : diagnostics.warnings()) {
        err.println("warning: " + warning);
      }
    }
    if (generations.isEmpty()) {
      err.println("note: no workflow of this run generates code");
    }
    return check ? CheckCommand.checkGenerations(new Pipeline(progress), project, generations, iterations, out)
        : Main.OK;
  }

  private static Optional<List<String>> given(List<String> all) {
    return all.isEmpty() ? Optional.empty() : Optional.of(all);
  }

  /** A workflow strategy name (CopyOnWrite) or a command-line label (cow) of a planner mode. */
  static StrategyPreset strategy(String text) {
    return CodegenTask.strategyOrLabel(text).orElseThrow(() -> new UsageException("unknown strategy '" + text
        + "' (known: " + CodegenTask.strategyChoices() + ")"));
  }
}
