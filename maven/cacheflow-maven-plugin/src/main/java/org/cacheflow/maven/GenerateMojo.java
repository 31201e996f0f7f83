package org.cacheflow.maven;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.cacheflow.io.project.PreesmProject;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.pipeline.ActorCodeOptions;
import org.cacheflow.pipeline.Diagnostic;
import org.cacheflow.pipeline.GenerateOptions;
import org.cacheflow.pipeline.GenerateResult;
import org.cacheflow.pipeline.Input;
import org.cacheflow.pipeline.OptionException;
import org.cacheflow.pipeline.Pipeline;
import org.cacheflow.pipeline.PlatformOptions;
import org.cacheflow.plan.mapping.MappingPolicy;
import org.cacheflow.plan.schedule.RunSchedule;
import org.cacheflow.plan.strategy.StrategyPreset;
import org.cacheflow.workflow.CodegenTask;
import org.cacheflow.workflow.run.ActorCode;
import org.cacheflow.workflow.run.Generation;
import org.cacheflow.workflow.run.ProjectActorCode;
import org.cacheflow.workflow.run.RunListener;
import org.cacheflow.workflow.run.SettingsChange;
import org.cacheflow.workflow.run.WorkflowRunner;

/**
 * Generates the C project of a dataflow graph inside the build, through the typed pipeline API: the workflow runner
 * when a workflow is named (what {@code cacheflow run-workflow} does), else {@link Pipeline#generate} (what
 * {@code cacheflow generate} does), with the same checks; bad input fails the build with its file, line and column.
 * Skips the work when neither the input files nor the settings changed since the last generation into the same
 * directory.
 */
@Mojo(name = "generate", defaultPhase = LifecyclePhase.GENERATE_SOURCES, threadSafe = true)
public class GenerateMojo extends AbstractMojo {

  /** A PREESM project directory, a PiSDF {@code .pi} graph or an SDF3 {@code .xml} graph. */
  @Parameter(property = "cacheflow.input", defaultValue = "${project.basedir}", required = true)
  private File input;

  /**
   * A workflow to run (a file, or a name under the project's {@code Workflows/}); {@code input} must then be the
   * project directory. Without it, the graph is generated directly with the settings below.
   */
  @Parameter(property = "cacheflow.workflow")
  private String workflow;

  /**
   * The scenario (a file, or a name under the project's {@code Scenarios/}). With a workflow and no scenario,
   * the project's {@code .ci.yaml} pairs run; without a workflow, the project's first usable scenario is used.
   */
  @Parameter(property = "cacheflow.scenario")
  private String scenario;

  /** Memory strategy; with a workflow it replaces the tasks' {@code Memory strategy}. */
  @Parameter(property = "cacheflow.strategy")
  private String strategy;

  /** Core count (of each node, with {@code nodes}); default: the scenario's architecture. */
  @Parameter(property = "cacheflow.cores")
  private Integer cores;

  /**
   * Node count (machines, one MPI process each; {@code cores} cores each); with a workflow it replaces the tasks'
   * {@code Nodes}. Default: the scenario's architecture.
   */
  @Parameter(property = "cacheflow.nodes")
  private Integer nodes;

  /**
   * How the firings are mapped to the cores: {@code load} (each where it finishes first) or {@code locality}
   * (consumers of buffers of at least the L1 size stay with their producer when the load allows); with a workflow it
   * replaces the tasks' {@code Mapping policy}. Default: the task's, else {@code load}.
   */
  @Parameter(property = "cacheflow.policy")
  private String policy;

  /**
   * How the generated program places its firings: {@code static} (a static order per core), {@code dynamic} (every
   * firing at run time on the core free first) or {@code hybrid} (the variable actors at run time, the others in a
   * static order); with a workflow it replaces the tasks' {@code Schedule}. Default: the task's, else static.
   */
  @Parameter(property = "cacheflow.schedule")
  private String schedule;

  /**
   * Actors whose cost varies: a hybrid schedule places their firings at run time; with a workflow they replace the
   * tasks' {@code Variable actors}.
   */
  @Parameter
  private List<String> variables;

  /**
   * Cost spreads, {@code ACTOR=CV} (the coefficient of variation of the actor's firing times); above 0.3 the actor
   * is variable for a hybrid schedule. With a workflow they replace the tasks' {@code Cost spread}.
   */
  @Parameter
  private List<String> costSpreads;

  /**
   * A profile written by {@code cacheflow profile} ({@code profile.json}): measured access modes where the graph
   * declares none, the safe choice where a declaration is contradicted, measured timings in place of the
   * scenario's, pre-stores only where the profile shows their pattern. With a workflow it replaces the tasks'
   * {@code Profile}. A relative path is taken from the Maven project's directory.
   */
  @Parameter(property = "cacheflow.profile")
  private File profile;

  /** Target cache description: a built-in profile or a file. */
  @Parameter(property = "cacheflow.target")
  private String target;

  /** Per-FIFO overrides, {@code actor.port=STRATEGY}. */
  @Parameter
  private List<String> overrides;

  /** Generate actor bodies instead of calling the actors' code. */
  @Parameter(property = "cacheflow.syntheticActors", defaultValue = "false")
  private boolean syntheticActors;

  /**
   * The folder of the actors' C sources (default: the project's {@code Code/src}); replaces a workflow task's
   * {@code Actor sources}. Becomes the generated project's cache variable {@code CACHEFLOW_ACTOR_SOURCES}.
   */
  @Parameter(property = "cacheflow.sources")
  private File sources;

  /**
   * Folders of headers the actors include, besides the project's {@code Code/include}; replace a workflow task's
   * {@code Include directories}. Cache variable {@code CACHEFLOW_ACTOR_INCLUDES}.
   */
  @Parameter
  private List<File> includes;

  /**
   * Compile definitions, {@code NAME=VALUE} or {@code NAME}; replace a workflow task's {@code Compile definitions}.
   * {@code PROJECT_ROOT_PATH} is the project's {@code Code/} folder unless one of them sets it. Cache variable
   * {@code CACHEFLOW_ACTOR_DEFINITIONS}.
   */
  @Parameter
  private List<String> definitions;

  /**
   * Libraries the actors link with, found by CMake when the generated project is configured: {@code Package::target}
   * (find_package), {@code pthread}, a pkg-config module or a library name. Replace a workflow task's
   * {@code Libraries}. Cache variable {@code CACHEFLOW_ACTOR_LIBRARIES}.
   */
  @Parameter
  private List<String> libraries;

  /** Where the C project is written (replaced); several workflow runs get one sub-folder each. */
  @Parameter(property = "cacheflow.outputDirectory",
      defaultValue = "${project.build.directory}/generated-sources/cacheflow",
      required = true)
  private File outputDirectory;

  /** Skip the goal. */
  @Parameter(property = "cacheflow.skip", defaultValue = "false")
  private boolean skip;

  /** Generate even when the inputs are unchanged. */
  @Parameter(property = "cacheflow.force", defaultValue = "false")
  private boolean force;

  @Parameter(defaultValue = "${project.basedir}", readonly = true, required = true)
  private File basedir;

  @Parameter(defaultValue = "${project.build.directory}", readonly = true, required = true)
  private File buildDirectory;

  @Parameter(defaultValue = "${plugin.version}", readonly = true, required = true)
  private String pluginVersion;

  @Override
  public void execute() throws MojoExecutionException, MojoFailureException {
    if (skip) {
      getLog().info("cacheflow: skipped (skip = true)");
      return;
    }
    if (!input.exists()) {
      throw new MojoFailureException("error: " + input + ": no such file or directory (the cacheflow input)");
    }
    if (runsWorkflow() && !input.isDirectory()) {
      throw new MojoFailureException("error: " + input + ": a workflow runs on a PREESM project directory, not on "
          + "a single graph (set <input> to the project directory)");
    }
    checkActorCode();
    Path work = buildDirectory.toPath().resolve("cacheflow");
    Path stamp = work.resolve(Integer.toHexString(outputDirectory.getAbsolutePath().hashCode()) + ".inputs");
    List<String> settings = settings();
    String fingerprint = fingerprint(settings);
    if (!force && outputDirectory.isDirectory() && fingerprint.equals(read(stamp))) {
      getLog().info("cacheflow: inputs unchanged since the last generation into " + outputDirectory
          + "; nothing to do (-Dcacheflow.force=true regenerates)");
      return;
    }
    getLog().info("cacheflow " + (runsWorkflow() ? "run-workflow" : "generate") + ": " + String.join(", ", settings));
    Path runtime;
    try {
      runtime = BundledRuntime.unpack(work.resolve("runtime"));
    } catch (IOException e) {
      throw new MojoExecutionException("cannot unpack the cacheflow C runtime: " + e.getMessage(), e);
    }
    try {
      if (runsWorkflow()) {
        runWorkflow(runtime);
      } else {
        generate(runtime);
      }
    } catch (InputException e) {
      // bad input: where it is (file:line:col) and why, as the command line says it; no stack trace
      throw new MojoFailureException("error: " + e.describe());
    } catch (OptionException e) {
      throw new MojoFailureException("invalid cacheflow configuration: " + e.getMessage() + " (see the goal's "
          + "parameters)");
    }
    write(stamp, fingerprint);
  }

  /** The input files' and {@code settings}' fingerprint: a change to any of them generates again. */
  String fingerprint(List<String> settings) throws MojoExecutionException {
    try {
      return InputFingerprint.of(inputRoots(), List.of(outputDirectory.toPath(), buildDirectory.toPath()),
          pluginVersion + "\0" + String.join("\0", settings));
    } catch (UncheckedIOException e) {
      throw new MojoExecutionException(e.getMessage(), e);
    }
  }

  private boolean runsWorkflow() {
    return workflow != null && !workflow.isBlank();
  }

  /** {@code cacheflow generate}'s work: the graph or project generated with this goal's settings. */
  private void generate(Path runtime) throws MojoFailureException {
    GenerateOptions options = generateOptions(runtime);
    if (options.syntheticActors() && options.actorCode().given()) {
      getLog().info("note: sources, includes, definitions and libraries are not used with syntheticActors");
    }
    GenerateResult result = new Pipeline(new LogListener()).generate(options);
    getLog().info(result.summary());
    if (result.asked().nodes() > 1) {
      getLog().info("note: one process per node: run the program under mpirun -np " + result.asked().nodes()
          + " (with --oversubscribe where a machine has fewer cores than processes); see docs/multinode.md");
    }
  }

  /** {@code cacheflow run-workflow}'s work: the workflow's generations, each in the pipeline. */
  private void runWorkflow(Path runtime) throws MojoFailureException {
    LogListener listener = new LogListener();
    Diagnostics diagnostics = new Diagnostics();
    List<Generation> generations;
    Parameters given = parameters();
    WorkflowRunner runner = new WorkflowRunner(settingsChange(), listener, runtime);
    try {
      generations = runner.run(given.input(), given.workflow(), given.scenario(), diagnostics);
    } catch (InputException | OptionException e) {
      if (listener.failed != null) {
        getLog().error(listener.failed);
      }
      // a workflow's setting the pipeline rejects: bad input at its task parameter's line; this goal's own
      // parameter: an invalid configuration (below)
      throw e instanceof OptionException option ? runner.located(option).map(RuntimeException.class::cast).orElse(e)
          : e;
    } finally {
      diagnostics.warnings().forEach(warning -> getLog().warn(warning.toString()));
    }
    if (generations.isEmpty()) {
      getLog().info("note: no workflow of this run generates code");
    }
  }

  /**
   * The goal's parameters as generate, a workflow run and the fingerprint read them, each resolved once: blank texts
   * and empty lists are null, texts and list entries trimmed, folders absolute (from the Maven project's directory),
   * named files resolved from it when they exist there.
   */
  record Parameters(Path input, String workflow, String scenario, String strategy, Integer cores, Integer nodes,
      String policy, String target, List<String> overrides, boolean syntheticActors, String sources,
      List<String> includes, List<String> definitions, List<String> libraries, Path outputDirectory,
      String schedule, List<String> variables, List<String> costSpreads, Path profile) {
  }

  Parameters parameters() {
    return new Parameters(input.getAbsoluteFile().toPath(), runsWorkflow() ? fileOrName(workflow) : null,
        given(scenario) ? fileOrName(scenario) : null, given(strategy) ? strategy.trim() : null, cores, nodes,
        given(policy) ? policy.trim() : null, given(target) ? fileOrName(target) : null, nonEmpty(trimmed(overrides)),
        syntheticActors, sources == null ? null : absolute(sources),
        nonEmpty(all(includes).stream().map(this::absolute).toList()), nonEmpty(trimmed(definitions)),
        nonEmpty(trimmed(libraries)), outputDirectory.getAbsoluteFile().toPath(),
        given(schedule) ? schedule.trim() : null, nonEmpty(trimmed(variables)), nonEmpty(trimmed(costSpreads)),
        profile == null ? null : Path.of(absolute(profile)).normalize());
  }

  /** The {@code <profile>} file, which must exist, or null when none is given. */
  private static Path profileFile(Parameters given) throws MojoFailureException {
    if (given.profile() != null && !Files.isRegularFile(given.profile())) {
      throw new MojoFailureException("invalid cacheflow configuration: <profile>: no such file: " + given.profile()
          + " (write it with cacheflow profile)");
    }
    return given.profile();
  }

  /** The pipeline's options for {@code generate}: every parameter, paths from the Maven project's directory. */
  GenerateOptions generateOptions(Path runtime) throws MojoFailureException {
    Parameters given = parameters();
    Input in = new Input(given.input(), given.scenario() == null ? null : Path.of(given.scenario()), Map.of())
        .withProfile(profileFile(given));
    ActorCodeOptions code = new ActorCodeOptions(given.sources() == null ? null : Path.of(given.sources()),
        all(given.includes()).stream().map(Path::of).toList(), all(given.definitions()), all(given.libraries()));
    return GenerateOptions.of(in, given.outputDirectory(), runtime)
        .withStrategy(given.strategy() == null ? null : preset(given.strategy()))
        .withOverrideTexts(all(given.overrides())).withTarget(given.target())
        .withPlatform(new PlatformOptions(given.nodes(), given.cores()))
        .withPolicy(given.policy() == null ? null : mappingPolicy(given.policy()))
        .withSyntheticActors(given.syntheticActors()).withActorCode(code, ProjectActorCode.defaults())
        .withSchedule(new RunSchedule(given.schedule() == null ? null : scheduleKind(given.schedule()),
            all(given.variables()), spreads(given.costSpreads())));
  }

  /** What the goal's parameters change in the workflow's tasks (null: the task's own setting). */
  SettingsChange settingsChange() throws MojoFailureException {
    Parameters given = parameters();
    return new SettingsChange(given.strategy() == null ? null : workflowStrategy(given.strategy()), given.cores(),
        given.nodes(), given.policy() == null ? null : mappingPolicy(given.policy()), given.target(),
        given.overrides(), given.syntheticActors() ? true : null, given.outputDirectory(),
        new ActorCode(given.sources(), given.includes(), given.definitions(), given.libraries()))
        .withSchedule(given.schedule() == null ? null : scheduleKind(given.schedule()), given.variables(),
            given.costSpreads() == null ? null : spreads(given.costSpreads())).withProfile(profileFile(given));
  }

  /**
   * Every setting of this goal, {@code name=value}, for the fingerprint and the log: a changed setting generates
   * again.
   */
  List<String> settings() {
    Parameters given = parameters();
    List<String> settings = new ArrayList<>();
    settings.add("input=" + given.input());
    add(settings, "workflow", given.workflow());
    add(settings, "scenario", given.scenario());
    add(settings, "strategy", given.strategy());
    add(settings, "cores", given.cores());
    add(settings, "nodes", given.nodes());
    add(settings, "policy", given.policy());
    add(settings, "target", given.target());
    all(given.overrides()).forEach(override -> settings.add("override=" + override));
    if (given.syntheticActors()) {
      settings.add("syntheticActors=true");
    }
    add(settings, "sources", given.sources());
    all(given.includes()).forEach(include -> settings.add("include=" + include));
    all(given.definitions()).forEach(definition -> settings.add("definition=" + definition));
    all(given.libraries()).forEach(library -> settings.add("library=" + library));
    add(settings, "schedule", given.schedule());
    all(given.variables()).forEach(actor -> settings.add("variable=" + actor));
    all(given.costSpreads()).forEach(spread -> settings.add("costSpread=" + spread));
    add(settings, "profile", given.profile());
    settings.add("outputDirectory=" + given.outputDirectory());
    return settings;
  }

  private static void add(List<String> settings, String name, Object value) {
    if (value != null) {
      settings.add(name + "=" + value);
    }
  }

  /** A definition or library the generated CMake project could not take fails here, naming the parameter. */
  private void checkActorCode() throws MojoFailureException {
    try {
      new ActorCodeOptions(null, List.of(), trimmed(definitions), trimmed(libraries))
          .checked("<definitions>", "<libraries>");
    } catch (OptionException e) {
      throw new MojoFailureException("invalid cacheflow configuration: " + e.getMessage());
    }
  }

  /** A {@code generate} strategy: any name of the vocabulary ({@code cacheflow generate --strategy}). */
  private static StrategyPreset preset(String text) throws MojoFailureException {
    try {
      return StrategyPreset.named(text.trim());
    } catch (IllegalArgumentException e) {
      throw new MojoFailureException("invalid cacheflow configuration: <strategy>: " + e.getMessage());
    }
  }

  /** A workflow strategy name (CopyOnWrite) or the label of a planner mode (cow), as run-workflow takes. */
  private static StrategyPreset workflowStrategy(String text) throws MojoFailureException {
    return CodegenTask.strategyOrLabel(text).orElseThrow(() -> new MojoFailureException("invalid cacheflow "
        + "configuration: unknown <strategy> '" + text.trim() + "' for a workflow (known: "
        + CodegenTask.strategyChoices() + ")"));
  }

  /** A mapping policy by its label ({@code load}, {@code locality}), as the command line's {@code --policy}. */
  private static MappingPolicy mappingPolicy(String text) throws MojoFailureException {
    return MappingPolicy.parse(text).orElseThrow(() -> new MojoFailureException("invalid cacheflow configuration: "
        + "unknown <policy> '" + text.trim() + "' (known: " + MappingPolicy.labels() + ")"));
  }

  /** A schedule by its label ({@code static}, {@code dynamic}, {@code hybrid}), as the command line's. */
  private static RunSchedule.Kind scheduleKind(String text) throws MojoFailureException {
    return RunSchedule.Kind.parse(text).orElseThrow(() -> new MojoFailureException("invalid cacheflow "
        + "configuration: unknown <schedule> '" + text.trim() + "' (known: " + RunSchedule.Kind.labels() + ")"));
  }

  /** The {@code <costSpreads>} entries by actor. */
  private static Map<String, Double> spreads(List<String> entries) throws MojoFailureException {
    try {
      return RunSchedule.parseSpreads(all(entries));
    } catch (IllegalArgumentException e) {
      throw new MojoFailureException("invalid cacheflow configuration: <costSpreads>: " + e.getMessage());
    }
  }

  private static boolean given(String text) {
    return text != null && !text.isBlank();
  }

  private static <T> List<T> all(List<T> list) {
    return list == null ? List.of() : list;
  }

  private static List<String> trimmed(List<String> list) {
    return all(list).stream().map(String::trim).toList();
  }

  private static <T> List<T> nonEmpty(List<T> list) {
    return list.isEmpty() ? null : list;
  }

  /** Tells the Maven log what the pipeline and the workflow runner report. */
  private final class LogListener implements RunListener {

    /** Which generation failed, once one did. */
    private String failed;
    /** The same warning comes back for every scenario of a graph: each is logged once. */
    private final Set<String> said = new HashSet<>();

    @Override
    public void diagnostic(Diagnostic diagnostic) {
      if (!said.add(diagnostic.severity() + diagnostic.toString())) {
        return;
      }
      if (diagnostic.severity() == Diagnostic.Severity.WARNING) {
        getLog().warn(diagnostic.toString());
      } else {
        getLog().info("note: " + diagnostic);
      }
    }

    @Override
    public void step(String description) {
      getLog().debug("cacheflow: " + description);
    }

    @Override
    public void note(SourceLocation location, String message) {
      getLog().info("note: " + location + ": " + message);
    }

    @Override
    public void generated(Generation generation) {
      getLog().info(generation.result().summary() + "  [" + generation.workflow().getFileName() + " on "
          + generation.scenario().getFileName() + ", task '" + generation.taskId() + "']");
    }

    @Override
    public void failed(Generation generation, RuntimeException cause) {
      failed = "the generation that failed was asked for at " + generation.request().origin("") + " ("
          + generation.workflow().getFileName() + " on " + generation.scenario().getFileName() + ")";
    }
  }

  /** A folder given in the POM, from the Maven project's directory. */
  private String absolute(File folder) {
    return (folder.isAbsolute() ? folder : new File(basedir, folder.getPath())).getAbsolutePath();
  }

  /** A path relative to the Maven project when such a file exists, else the text (a name cacheflow looks up). */
  private String fileOrName(String text) {
    File file = new File(text.trim());
    File relative = file.isAbsolute() ? file : new File(basedir, text.trim());
    return relative.exists() ? relative.getAbsolutePath() : text.trim();
  }

  /** What the generation reads: the project around the input, plus named files outside it. */
  private List<Path> inputRoots() {
    List<Path> roots = new ArrayList<>();
    Path in = input.toPath().toAbsolutePath().normalize();
    if (Files.isDirectory(in)) {
      roots.add(in);
    } else {
      try {
        roots.add(PreesmProject.containing(in, new Diagnostics()).root());
      } catch (InputException e) {
        roots.add(in.getParent());
      }
    }
    List<String> named = new ArrayList<>(Arrays.asList(workflow, scenario, target));
    if (profile != null) {
      named.add(absolute(profile));
    }
    if (sources != null) {
      named.add(absolute(sources));
    }
    for (File include : includes == null ? List.<File>of() : includes) {
      named.add(absolute(include));
    }
    for (String file : named) {
      if (file != null && !file.isBlank()) {
        Path path = Path.of(fileOrName(file)).toAbsolutePath().normalize();
        if (Files.exists(path) && roots.stream().noneMatch(path::startsWith)) {
          roots.add(path);
        }
      }
    }
    return roots;
  }

  private static String read(Path file) {
    try {
      return Files.isRegularFile(file) ? Files.readString(file, StandardCharsets.UTF_8).trim() : null;
    } catch (IOException e) {
      return null;
    }
  }

  private void write(Path file, String text) throws MojoExecutionException {
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, text + "\n", StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new MojoExecutionException("cannot record the generation in " + file + ": " + e.getMessage(), e);
    }
  }
}
