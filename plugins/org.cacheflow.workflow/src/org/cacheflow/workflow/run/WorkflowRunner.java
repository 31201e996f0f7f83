package org.cacheflow.workflow.run;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.cacheflow.io.project.CiRun;
import org.cacheflow.io.project.PreesmProject;
import org.cacheflow.io.project.ProjectFiles;
import org.cacheflow.io.scenario.ScenarioFile;
import org.cacheflow.io.scenario.ScenarioReader;
import org.cacheflow.io.workflow.WorkflowReader;
import org.cacheflow.model.Workflow;
import org.cacheflow.model.WorkflowTask;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.pipeline.GenerateResult;
import org.cacheflow.pipeline.OptionException;
import org.cacheflow.pipeline.Pipeline;
import org.cacheflow.plan.strategy.TargetCache;
import org.cacheflow.workflow.CodegenTask;

/**
 * Runs PREESM workflows headless, as PREESM's command line does, doing only what cacheflow needs: every cacheflow
 * task ({@link CodegenTask}) becomes a generation; PREESM's code generation task stands in for one when the
 * workflow has none; every other task is reported once as not needed by cacheflow.
 *
 * <p>All workflows and task settings of a run are read and checked before anything is generated, so a mistake in
 * the last pair does not leave the first pairs' output half replaced.
 */
public final class WorkflowRunner {

  /** One workflow to run on one scenario. */
  public record Pair(Path workflow, Path scenario) {
  }

  private final CodeGenerator generator;
  private final SettingsChange change;
  private final RunListener listener;
  /** Tasks already reported as not needed: (workflow file, task id), so each is reported once. */
  private final Set<List<String>> reported = new HashSet<>();
  /** The generation that failed last, or null. */
  private Generation failed;

  /**
   * Each generation runs in the {@link Pipeline}.
   *
   * @param change what the command line or build says instead of the tasks' variables
   * @param listener told about skipped tasks, each generation's progress and diagnostics, and finished generations
   * @param runtime the runtime-c folder every generated project bundles
   */
  public WorkflowRunner(SettingsChange change, RunListener listener, Path runtime) {
    this((request, diagnostics) -> {
      GenerateResult result = new Pipeline(listener).generate(request.options(runtime));
      return new GeneratedCode(result.outputDirectory(), result.summary());
    }, change, listener);
  }

  /** With another generator (tests record the requests instead of generating). */
  WorkflowRunner(CodeGenerator generator, SettingsChange change, RunListener listener) {
    this.generator = generator;
    this.change = change;
    this.listener = listener;
  }

  /**
   * Runs the pairs {@link #select} chooses in {@code projectDirectory}.
   *
   * @return the generations, in order
   */
  public List<Generation> run(Path projectDirectory, String workflow, String scenario, Diagnostics diagnostics) {
    PreesmProject project = PreesmProject.open(projectDirectory, diagnostics);
    return run(project, select(project, workflow, scenario, diagnostics), diagnostics);
  }

  /** Plans every pair, then generates. */
  public List<Generation> run(PreesmProject project, List<Pair> pairs, Diagnostics diagnostics) {
    List<Generation> planned = plan(project, pairs, diagnostics);
    List<Generation> done = new ArrayList<>();
    for (Generation generation : planned) {
      GeneratedCode result;
      try {
        result = generator.generate(generation.request(), diagnostics);
      } catch (RuntimeException e) {
        failed = generation;
        listener.failed(generation, e);
        throw e;
      }
      Generation finished = generation.withResult(result);
      listener.generated(finished);
      done.add(finished);
    }
    return done;
  }

  /**
   * The pairs to run, as PREESM's command line chooses them. {@code workflow} and {@code scenario} are file paths
   * or names under the project's {@code Workflows/} and {@code Scenarios/} (the extension may be left out); null
   * when not given.
   * <ul>
   * <li>both given: that pair;</li>
   * <li>neither: the pairs of the project's {@code .ci.yaml}, else every workflow with every scenario;</li>
   * <li>one given: the {@code .ci.yaml} pairs that use it, else it with every scenario (or workflow).</li>
   * </ul>
   */
  public List<Pair> select(PreesmProject project, String workflow, String scenario, Diagnostics diagnostics) {
    Path workflowFile = workflow == null ? null : find(project, workflow, "Workflows", ".workflow");
    Path scenarioFile = scenario == null ? null : find(project, scenario, "Scenarios", ".scenario");
    if (workflowFile != null && scenarioFile != null) {
      return List.of(new Pair(workflowFile, scenarioFile));
    }
    List<Pair> listed = new ArrayList<>();
    for (CiRun run : project.ciRuns(diagnostics)) {
      if ((workflowFile == null || same(workflowFile, run.workflow()))
          && (scenarioFile == null || same(scenarioFile, run.scenario()))) {
        listed.add(new Pair(run.workflow(), run.scenario()));
      }
    }
    if (!listed.isEmpty()) {
      return listed;
    }
    List<Path> workflows = workflowFile != null ? List.of(workflowFile) : project.workflows();
    List<Path> scenarios = scenarioFile != null ? List.of(scenarioFile) : project.scenarios();
    if (workflows.isEmpty() || scenarios.isEmpty()) {
      throw new InputException(SourceLocation.file(project.root()), "nothing to run: the project has "
          + (workflows.isEmpty() ? "no workflow under Workflows/" : "no scenario under Scenarios/")
          + (project.ciFile().isPresent() ? " and its .ci.yaml lists no usable pair" : " and no .ci.yaml"));
    }
    List<Pair> all = new ArrayList<>();
    for (Path w : workflows) {
      for (Path s : scenarios) {
        all.add(new Pair(w, s));
      }
    }
    return all;
  }

  /**
   * Reads every workflow of {@code pairs}, checks its cacheflow tasks' settings and resolves each generation,
   * without generating. Notes about skipped tasks go to the listener.
   */
  public List<Generation> plan(PreesmProject project, List<Pair> pairs, Diagnostics diagnostics) {
    List<Generation> planned = new ArrayList<>();
    for (Pair pair : pairs) {
      Workflow workflow = WorkflowReader.read(pair.workflow(), diagnostics);
      List<WorkflowTask> ours = new ArrayList<>();
      List<WorkflowTask> preesmCodegen = new ArrayList<>();
      for (WorkflowTask task : workflow.getTasks()) {
        switch (TaskRole.of(task)) {
          case CACHEFLOW -> ours.add(task);
          case PREESM_CODE_GENERATION -> preesmCodegen.add(task);
          case NOT_NEEDED -> noteOnce(pair.workflow(), task, "task '" + task.getName() + "' (" + task.getPluginId()
              + ") is not needed by cacheflow; skipped");
        }
      }
      if (!ours.isEmpty()) {
        for (WorkflowTask task : preesmCodegen) {
          noteOnce(pair.workflow(), task, "task '" + task.getName() + "' (" + task.getPluginId()
              + ") is not needed by cacheflow; skipped (the workflow's cacheflow task generates the code)");
        }
        for (WorkflowTask task : ours) {
          planned.add(resolve(project, pair, task.getName(), CodegenSettings.read(task)));
        }
      } else if (!preesmCodegen.isEmpty()) {
        WorkflowTask task = preesmCodegen.get(0);
        noteOnce(pair.workflow(), task, "task '" + task.getName() + "' (" + task.getPluginId() + ") runs as "
            + "cacheflow code generation with default settings (add a task with pluginId '" + CodegenTask.PLUGIN_ID
            + "' to choose them)");
        for (WorkflowTask extra : preesmCodegen.subList(1, preesmCodegen.size())) {
          noteOnce(pair.workflow(), extra, "task '" + extra.getName() + "' (" + extra.getPluginId()
              + ") is not needed by cacheflow; skipped (code is generated once)");
        }
        planned.add(resolve(project, pair, task.getName(), CodegenSettings.defaults(location(task))));
      } else {
        noteOnce(pair.workflow(), null, "the workflow generates no code (no cacheflow task and no PREESM code "
            + "generation task): nothing to do for it");
      }
    }
    return withOutputDirectories(project, planned);
  }

  private Generation resolve(PreesmProject project, Pair pair, String taskId, CodegenSettings written) {
    CodegenSettings settings = written.with(change);
    String target = resolveTarget(project, settings);
    // the output directory is placed after all generations are known (an override may need sub-directories)
    Path output = settings.outputDirectory() != null ? projectPath(project, settings.outputDirectory())
        : scenarioCodegenDirectory(project, pair.scenario());
    GenerationRequest request = new GenerationRequest(project.root(), pair.scenario(), settings.strategy(),
        settings.cores(), settings.nodes(), settings.policy(), target, settings.overrides(), settings.syntheticActors(),
            output,
        resolveActorCode(project, settings), settings.locations(), settings.schedule(), resolveProfile(project,
            settings));
    return new Generation(pair.workflow(), pair.scenario(), taskId, request, null);
  }

  /** With an output directory from the command line or build: itself for one generation, sub-folders for more. */
  private List<Generation> withOutputDirectories(PreesmProject project, List<Generation> planned) {
    if (change.outputDirectory() == null) {
      return planned;
    }
    Path base = change.outputDirectory().toAbsolutePath().normalize();
    if (planned.size() == 1) {
      return List.of(withOutput(planned.get(0), base));
    }
    List<Generation> placed = new ArrayList<>();
    Set<String> used = new LinkedHashSet<>();
    for (Generation generation : planned) {
      String name = stem(generation.workflow()) + "-" + stem(generation.scenario());
      if (!used.add(name)) {
        name = name + "-" + generation.taskId().replaceAll("[^A-Za-z0-9._-]+", "_");
        used.add(name);
      }
      placed.add(withOutput(generation, base.resolve(name)));
    }
    return placed;
  }

  private static Generation withOutput(Generation generation, Path output) {
    return new Generation(generation.workflow(), generation.scenario(), generation.taskId(),
        generation.request().withOutputDirectory(output), null);
  }

  /**
   * The actors' folders from the project directory (a command line's or build's are absolute already), each
   * checked; definitions and libraries as written.
   */
  static ActorCode resolveActorCode(PreesmProject project, CodegenSettings settings) {
    ActorCode written = settings.actorCode();
    String sources = written.sources() == null ? null
        : existingDirectory(project, written.sources(), settings.location(CodegenTask.ACTOR_SOURCES),
            CodegenTask.ACTOR_SOURCES);
    List<String> includes = written.includes() == null ? null : written.includes().stream()
        .map(include -> existingDirectory(project, include, settings.location(CodegenTask.INCLUDE_DIRECTORIES),
            CodegenTask.INCLUDE_DIRECTORIES)).toList();
    return new ActorCode(sources, includes, written.definitions(), written.libraries());
  }

  /** The profile file from the project directory (a command line's or build's is absolute already), checked. */
  static Path resolveProfile(PreesmProject project, CodegenSettings settings) {
    if (settings.profile() == null) {
      return null;
    }
    Path file = projectPath(project, settings.profile());
    if (!Files.isRegularFile(file)) {
      throw new InputException(settings.location(CodegenTask.PROFILE), "'" + CodegenTask.PROFILE + "': no such "
          + "file: " + file);
    }
    return file;
  }

  private static String existingDirectory(PreesmProject project, String written, SourceLocation at,
      String parameter) {
    Path directory = projectPath(project, written);
    if (!Files.isDirectory(directory)) {
      throw new InputException(at, "'" + parameter + "': no such directory: " + directory);
    }
    return directory.toString();
  }

  /** A built-in target stays a name; a file is looked up from the project directory and must exist. */
  private static String resolveTarget(PreesmProject project, CodegenSettings settings) {
    String target = settings.target();
    if (TargetCache.BUILT_IN.containsKey(target)) {
      return target;
    }
    Path file = project.root().resolve(target).normalize();
    if (!Files.isRegularFile(file)) {
      throw new InputException(settings.location(CodegenTask.TARGET), "'" + CodegenTask.TARGET + "': no such "
          + "target file, and no built-in target of that name (built-in: " + String.join(", ",
              TargetCache.BUILT_IN.keySet()) + "; looked for " + file + ")");
    }
    return file.toString();
  }

  /**
   * A directory written in a task: a workspace path {@code /<project>/...} (as scenarios write them) is taken in
   * the project, another absolute path as it is, a relative one from the project directory.
   */
  static Path projectPath(PreesmProject project, String written) {
    String path = written.trim().replace('\\', '/');
    if (path.startsWith("/")) {
      String first = path.substring(1).split("/", 2)[0];
      Path directory = project.root().getFileName();
      if (first.equals(project.name()) || (directory != null && first.equals(directory.toString()))) {
        return project.locate(path);
      }
      return Path.of(written.trim()).normalize();
    }
    return project.root().resolve(path).normalize();
  }

  private static Path scenarioCodegenDirectory(PreesmProject project, Path scenario) {
    // the scenario is read again by the generator, which reports its warnings: keep these quiet
    ScenarioFile file = ScenarioReader.readFile(scenario, new Diagnostics());
    return file.codegenDirectory().map(setting -> project.locate(setting.value()))
        .orElse(project.root().resolve("Code").resolve("generated"));
  }

  private void noteOnce(Path workflow, WorkflowTask task, String message) {
    String taskKey = task == null ? "" : task.getName();
    if (reported.add(List.of(workflow.toAbsolutePath().normalize().toString(), taskKey))) {
      listener.note(task == null ? SourceLocation.file(workflow) : location(task), message);
    }
  }

  private static SourceLocation location(WorkflowTask task) {
    return new SourceLocation(task.getFile(), task.getLine(), task.getColumn());
  }

  private static Path find(PreesmProject project, String name, String folder, String extension) {
    return ProjectFiles.find(project.root(), name, folder, extension);
  }

  private static boolean same(Path a, Path b) {
    return a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize());
  }

  private static String stem(Path file) {
    String name = file.getFileName().toString();
    int dot = name.lastIndexOf('.');
    return dot > 0 ? name.substring(0, dot) : name;
  }

  /** The generation whose failure {@link #run} last threw (as {@link RunListener#failed} heard), or null. */
  public Generation failed() {
    return failed;
  }

  /**
   * A setting the pipeline rejected during the last {@link #run}, where the workflow wrote it: see
   * {@link #located(Generation, OptionException, Path)} for the generation that failed. Empty when the error names
   * no task parameter's option ({@code --override}, {@code --cores}, {@code --nodes}), when this runner's
   * {@link SettingsChange} gave that setting (a front end's own option: it reports the error as its usage error),
   * or when no generation had failed (the error came before any).
   */
  public Optional<InputException> located(OptionException error) {
    String parameter = GenerationRequest.parameterOf(error);
    boolean fromTask = !parameter.equals(CodegenSettings.TASK) && !change.gives(parameter);
    return fromTask && failed != null ? Optional.of(located(failed, error, failed.workflow())) : Optional.empty();
  }

  /**
   * {@code error} (a setting the pipeline rejected) as bad input of a workflow: at the line of the task parameter of
   * {@code failed} that gave the setting, else at its task, else (no generation known) at {@code workflow}; the
   * message names the task parameter where it began with the command-line option ({@code 'Cores' must be at most
   * 64, got 99}).
   */
  public static InputException located(Generation failed, OptionException error, Path workflow) {
    SourceLocation at = failed == null ? null : failed.request().origin(error);
    return new InputException(at != null ? at : SourceLocation.file(workflow),
        failed == null ? error.getMessage() : GenerationRequest.describedForTask(error));
  }

  /** For tests and front ends: the settings change in force. */
  public SettingsChange change() {
    return change;
  }
}
