package org.cacheflow.pipeline;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

import org.cacheflow.codegen.PreesmLayoutWriter;
import org.cacheflow.codegen.ProfileWriter;
import org.cacheflow.codegen.ProjectWriter;
import org.cacheflow.codegen.VariantWriter;
import org.cacheflow.codegen.build.CodeModelBuilder;
import org.cacheflow.codegen.build.PlannedExecution;
import org.cacheflow.codegen.build.ExecutionPlan;
import org.cacheflow.codegen.build.CodePreset;
import org.cacheflow.plan.memoryplan.ProgramMemory;
import org.cacheflow.report.MemoryText;
import org.cacheflow.codegen.model.ActorSources;
import org.cacheflow.codegen.model.CodeProject;
import org.cacheflow.codegen.model.SchedTable;
import org.cacheflow.codegen.model.StaticBuffer;
import org.cacheflow.codegen.model.VariantProgram;
import org.cacheflow.io.project.PreesmProject;
import org.cacheflow.io.project.ScenarioReferences;
import org.cacheflow.io.scenario.ScenarioReader;
import org.cacheflow.io.targetfile.TargetFileReader;
import org.cacheflow.model.Actor;
import org.cacheflow.model.Graph;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.analysis.AnalysisResult;
import org.cacheflow.analysis.FlatGraph;
import org.cacheflow.analysis.GraphAnalysis;
import org.cacheflow.plan.classify.ScriptMemoryFacts;
import org.cacheflow.plan.mapping.MappingInputs;
import org.cacheflow.plan.mapping.Platform;
import org.cacheflow.plan.memory.MemoryScripts;
import org.cacheflow.plan.memory.ScriptReport;
import org.cacheflow.plan.memoryplan.MemoryPlan;
import org.cacheflow.plan.memoryplan.MemoryPlanner;
import org.cacheflow.plan.memoryplan.PlanRequest;
import org.cacheflow.report.DecisionText;
import org.cacheflow.report.ReportWriter;
import org.cacheflow.report.VariantReport;
import org.cacheflow.analysis.srdag.SingleRateExpansion;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.plan.strategy.MeasuredRereads;
import org.cacheflow.plan.strategy.OverrideException;
import org.cacheflow.plan.strategy.TargetCache;
import org.cacheflow.scripts.CheckPolicy;
import org.cacheflow.plan.schedule.RunSchedule;

/** One call of the {@link Pipeline}: its diagnostics, in order, and the steps it goes through. */
final class Run {

  private final PipelineListener listener;
  private final Diagnostics warnings = new Diagnostics();
  private final List<Diagnostic> said = new ArrayList<>();

  /** Whether generate writes the program for profiling ({@link ProfileWriter}). */
  private boolean profiled;
  /** What the input's profile gave ({@code --profile}), or null. */
  private ProfileApplied applied;

  Run(PipelineListener listener) {
    this.listener = listener;
  }

  /** This run's generate writes the program for profiling: every firing instrumented ({@link Profiling}). */
  Run profiled() {
    profiled = true;
    return this;
  }

  private void say(Diagnostic diagnostic) {
    said.add(diagnostic);
    listener.diagnostic(diagnostic);
  }

  /** The warnings collected while reading and analysing, then {@code later}: the end of a call. */
  private List<Diagnostic> finish(List<Diagnostic> later) {
    for (Diagnostics.Warning warning : warnings.warnings()) {
      say(Diagnostic.warning(warning.location(), warning.message()));
    }
    later.forEach(this::say);
    return said;
  }

  LoadedInput load(Input input, PlatformOptions platform) {
    listener.step("reading " + input.path());
    LoadedInput loaded = InputLoader.load(input.path(), input.scenario(), input.params(), platform.given(), warnings);
    if (input.scenario() == null && loaded.scenarioFile() != null) {
      say(Diagnostic.note("using scenario " + PathText.display(loaded.scenarioFile())
          + " (choose another with --scenario)"));
    }
    if (input.profile() != null) {
      ProfileApplied.Result result = ProfileApplied.apply(loaded, input.profile(), this::say);
      applied = result.applied();
      return result.input();
    }
    return loaded;
  }

  /** The target, in nanoseconds when the timings are a profile's. */
  private TargetCache timed(TargetCache target) {
    if (applied != null) {
      applied.timingContradictions(target.costs().timeUnitNanos()).forEach(this::say);
    }
    return applied != null && applied.timings() ? ProfileApplied.inNanoseconds(target) : target;
  }

  private AnalysisResult analyse(LoadedInput loaded) {
    listener.step("analysing " + loaded.graph().getName());
    return GraphAnalysis.analyse(loaded.graph(), loaded.parameterOverrides(), warnings, listener);
  }

  private Srdag expand(AnalysisResult analysis) {
    listener.step("expanding to a single-rate graph");
    return SingleRateExpansion.expand(analysis, listener);
  }

  Inspection inspect(Input input) {
    Expanded graph = expanded(oneVariant(load(input, PlatformOptions.ARCHITECTURE), "inspect"));
    listener.done();
    return new Inspection(graph.loaded(), graph.analysis(), graph.srdag(), finish(List.of()));
  }

  /** A loaded input, analysed and expanded to its single-rate graph. */
  private record Expanded(LoadedInput loaded, AnalysisResult analysis, Srdag srdag) {
  }

  private Expanded expanded(LoadedInput loaded) {
    AnalysisResult analysis = analyse(loaded);
    return new Expanded(loaded, analysis, expand(analysis));
  }

  /** A memory plan with the scripts' facts it was made from. */
  private record Planned(MemoryPlan plan, ScriptReport scripts) {
  }

  /** Runs the memory scripts and plans the expanded graph on a platform: what plan and generate share. */
  private Planned planned(Expanded graph, Platform platform, TargetCache target, PlanChoices choices) {
    return planned(graph, MappingInputs.fromScenario(graph.analysis().flatGraph(), platform,
        graph.loaded().scenario(), graph.loaded().specialVertexOperators(), warnings), target, choices);
  }

  /**
   * The one-core inputs of a dispatched schedule's plan: the scenario read for the platform asked (so that its
   * constraints are checked against the cores it was written for), then every actor allowed on the first core, since
   * the dispatcher places firings on any core; a note says so when the scenario restricts an actor.
   */
  private MappingInputs dispatchedInputs(Expanded graph, Platform platform, Dispatch dispatch) {
    FlatGraph flat = graph.analysis().flatGraph();
    MappingInputs asked = MappingInputs.fromScenario(flat, platform, graph.loaded().scenario(),
        graph.loaded().specialVertexOperators(), warnings);
    List<String> restricted = new ArrayList<>();
    for (int a = 0; a < flat.actors().size(); a++) {
      for (int c = 0; c < platform.size(); c++) {
        if (!asked.allowed(a, c)) {
          restricted.add(flat.actors().get(a).path());
          break;
        }
      }
    }
    if (!restricted.isEmpty()) {
      say(Diagnostic.note("schedule " + dispatch.schedule().kind().label() + " runs any firing on any core: the "
          + "scenario's mapping constraints, which restrict " + restricted.size() + " actor"
          + (restricted.size() == 1 ? " (" : "s (") + String.join(", ", restricted.subList(0,
          Math.min(3, restricted.size()))) + (restricted.size() > 3 ? ", ..." : "") + ") to some cores, are not "
          + "followed (--schedule static follows them)"));
    }
    return asked.unconstrained().firstCores(1);
  }

  /** Runs the memory scripts and plans the expanded graph with its mapping inputs. */
  private Planned planned(Expanded graph, MappingInputs inputs, TargetCache target, PlanChoices choices) {
    listener.step("running memory scripts");
    ScriptReport scripts = graph.loaded().memoryScripts(graph.srdag(), warnings);
    listener.step("planning");
    try {
      return new Planned(MemoryPlanner.plan(graph.srdag(), PlanRequest.of(inputs, target)
          .withPolicy(choices.policy()).withStrategy(choices.strategy().planner()).withOverrides(choices.overrides())
          .withPipelining(choices.pipelining()).withSlots(choices.slots().orElse(0))
          .withFacts(ScriptMemoryFacts.of(graph.srdag(), scripts)).withProgress(listener)
          .withRereads(applied == null ? MeasuredRereads.NONE : applied.rereads(graph.analysis().flatGraph()))),
          scripts);
    } catch (OverrideException e) {
      listener.done();
      throw new OptionException(OptionException.OVERRIDE, DecisionText.message(e));
    }
  }

  private static List<Diagnostic> scriptWarnings(ScriptReport scripts) {
    return scripts.errors().stream().map(error -> Diagnostic.warning(null, "memory script: " + error
        + " (its merges and marks are left out)")).toList();
  }

  /**
   * The {@code --target} option: a built-in profile by name, else a target file, read by the readers' bundle and
   * given meaning by the planner.
   *
   * @throws InputException for neither, or a target file that cannot be read or has a bad key or value (with its
   *     location)
   */
  private static TargetCache target(String nameOrFile) {
    Optional<TargetCache> builtIn = TargetCache.builtIn(nameOrFile);
    if (builtIn.isPresent()) {
      return builtIn.get();
    }
    Path file = Path.of(nameOrFile);
    if (!Files.exists(file)) {
      throw new InputException(SourceLocation.file(file), "no such target file, and no built-in target of that "
          + "name (built-in: " + String.join(", ", TargetCache.BUILT_IN.keySet()) + ")");
    }
    return TargetCache.of(TargetFileReader.read(file));
  }

  PlanResult plan(PlanOptions options) {
    TargetCache target = target(options.target());
    LoadedInput given = load(options.input(), options.platform());
    target = timed(target);
    List<DynamicParameters.Variant> variants = DynamicParameters.variants(given.graph(), given.parameterOverrides());
    if (variants.size() > 1) {
      return planVariants(options, given, variants, target);
    }
    LoadedInput loaded = withOverrides(given, variants.get(0));
    Expanded graph = expanded(loaded);
    Platform platform = options.platform().forPlan(loaded.architecture(), target);
    Planned planned = planned(graph, platform, target, PlanChoices.of(options));
    MemoryPlan plan = planned.plan();
    ScriptReport scripts = planned.scripts();
    ProgramMemory memory = programMemory(plan, options);
    PlanResult.MemoryLimit limit = new PlanResult.MemoryLimit(options.platform().memoryLimit(target),
        options.platform().memoryLimitSource(target));
    List<Path> written = options.reportDirectory() == null ? List.of()
        : ReportWriter.write(plan, options.reportDirectory(), memory, limit.bytes(), limit.source(),
            applied == null ? List.of() : applied.facts());
    listener.done();
    List<Diagnostic> later = new ArrayList<>(scriptWarnings(scripts));
    DecisionText.of(plan).notes().forEach(note -> later.add(Diagnostic.note(note)));
    return new PlanResult(loaded, plan, scripts, written, finish(later), memory, limit);
  }

  /**
   * The input of a command that looks at one graph (inspect, scripts): one value per dynamic parameter; one without
   * any keeps its expression, with a warning.
   *
   * @throws OptionException for several values
   */
  private LoadedInput oneVariant(LoadedInput loaded, String command) {
    for (DynamicParameters.Dynamic unset : DynamicParameters.unset(loaded.graph(), loaded.parameterOverrides())) {
      warnings.warn(DynamicParameters.location(unset.parameter()),
          "dynamic parameter '" + unset.name() + "' (set at run time by " + unset.setter() + ") taken as its "
          + "expression '" + unset.parameter().getExpression() + "': give the value to look at with --param "
          + unset.name() + "=V");
    }
    List<DynamicParameters.Variant> variants = DynamicParameters.variants(loaded.graph(),
        loaded.parameterOverrides(), false);
    if (variants.size() > 1) {
      throw new OptionException("--param", command + " looks at one value of each dynamic parameter ("
          + DynamicParameters.given(variants) + "); 'cacheflow plan' plans them all");
    }
    return withOverrides(loaded, variants.get(0));
  }

  /** The input with a variant's parameter values. */
  private static LoadedInput withOverrides(LoadedInput loaded, DynamicParameters.Variant variant) {
    return new LoadedInput(loaded.source(), loaded.graph(), loaded.scenario(), loaded.scenarioFile(),
        loaded.architecture(), variant.overrides(), loaded.projectRoot(), loaded.specialVertexOperators());
  }

  /** Plans every variant of a graph with dynamic parameters as a graph of its own; the report shows them all. */
  private PlanResult planVariants(PlanOptions options, LoadedInput given, List<DynamicParameters.Variant> variants,
      TargetCache target) {
    List<VariantReport.Row> rows = new ArrayList<>();
    List<Diagnostic> later = new ArrayList<>();
    ScriptReport firstScripts = null;
    for (DynamicParameters.Variant variant : variants) {
      listener.step("variant " + (rows.size() + 1) + " of " + variants.size() + ": " + variant.label());
      Expanded graph = expanded(withOverrides(given, variant));
      Planned planned = planned(graph, options.platform().forPlan(given.architecture(), target), target,
          PlanChoices.of(options));
      firstScripts = firstScripts == null ? planned.scripts() : firstScripts;
      scriptWarnings(planned.scripts()).forEach(w -> later.add(Diagnostic.warning(null, variant.label() + ": "
          + w.message())));
      CodeProject program = programModel(planned.plan(), options);
      rows.add(new VariantReport.Row(variant.values(), planned.plan(), program == null ? null : program.memory(),
          program == null ? List.of() : program.bufferBytesPerCore(),
          program == null ? List.of() : program.channelBytesPerCore()));
    }
    PlanResult.MemoryLimit limit = new PlanResult.MemoryLimit(options.platform().memoryLimit(target),
        options.platform().memoryLimitSource(target));
    List<Path> written = options.reportDirectory() == null ? List.of()
        : VariantReport.write(rows, options.reportDirectory(), limit.bytes(), limit.source());
    listener.done();
    return new PlanResult(given, rows.get(0).plan(), firstScripts, written, finish(later), rows.get(0).memory(), limit,
        rows);
  }

  GenerateResult generate(GenerateOptions options) {
    TargetCache target = target(options.target());
    for (Path folder : concat(options.actorCode().sources(), options.actorCode().includes())) {
      if (!Files.isDirectory(folder)) {
        throw new InputException(SourceLocation.file(folder), "no such directory");
      }
    }
    if (options.runtime() == null) {
      throw new OptionException("no C runtime folder to bundle");
    }
    LoadedInput given = load(options.input(), options.platform());
    target = timed(target);
    List<DynamicParameters.Variant> variants = DynamicParameters.variants(given.graph(), given.parameterOverrides());
    if (variants.size() > 1) {
      return generateVariants(options, given, variants, target);
    }
    LoadedInput loaded = withOverrides(given, variants.get(0));
    Platform platform = options.platform().forGenerate(loaded.architecture(), target);
    options.platform().checkGenerated(platform);
    GenerateOptions scheduled = applied == null ? options
        : options.withSchedule(applied.measuredSpread(options.schedule()));
    if (scheduled.schedule().spread().size() > options.schedule().spread().size()) {
      say(Diagnostic.note("hybrid: cost spreads measured by profile " + applied.source() + " (above "
          + RunSchedule.VARIABLE_ABOVE + " an actor's firings are pooled): " + scheduled.schedule().spread().entrySet()
          .stream().filter(e -> !options.schedule().spread().containsKey(e.getKey()))
          .map(e -> e.getKey() + " " + String.format(Locale.ROOT, "%.2f", e.getValue())).toList()));
    }
    Dispatch dispatch = Dispatch.of(scheduled, platform, loaded.architecture(), target);
    dispatch.droppedOverrides(options.overrides()).forEach(w -> warnings.warn(null, w));
    Expanded expanded = expanded(loaded);
    Planned planned = dispatch.schedule().dispatched()
        ? planned(expanded, dispatchedInputs(expanded, platform, dispatch), target, dispatch.choices())
        : planned(expanded, dispatch.platform(), target, dispatch.choices());
    MemoryPlan memoryPlan = planned.plan();
    ScriptReport scripts = planned.scripts();
    listener.step("building the code model");
    ExecutionPlan execution = dispatch.execution(PlannedExecution.of(memoryPlan, dispatch.preset()));
    CodeProject project = dispatch.program(CodeModelBuilder.build(execution, options.syntheticActors()));
    if (applied != null) {
      project = project.withSinks(applied.notedSinks(project.sinks()));
    }
    SchedTable sched = dispatch.table(project);
    checkMemory(loaded, project.memory(), options.platform(), target);
    Path outDir = options.outputDirectory();
    listener.step("writing " + outDir);
    ActorSources actors = options.syntheticActors() ? ActorSources.NONE : actorSources(options, loaded);
    write(project, sched, actors, options.runtime(), outDir);
    listener.done();
    List<Diagnostic> later = new ArrayList<>(scriptWarnings(scripts));
    dispatch.notes(execution, project).forEach(note -> later.add(Diagnostic.note(note)));
    // the planner may map the graph to fewer cores than asked when they cannot win (CoreCount), or run firings an
    // iteration behind (Pipelining): its notes say why (the balancing and pipelining come before the verdict)
    if (memoryPlan.schedule().coreCount() < platform.size() || memoryPlan.schedule().maxSkew() > 0) {
      DecisionText.of(memoryPlan).notes().forEach(note -> later.add(Diagnostic.note(note)));
    }
    return new GenerateResult(loaded, outDir, platform, memoryPlan, project, options.strategy(),
        options.syntheticActors(), finish(later), dispatch.schedule());
  }

  /** The actors' code the program builds: the options', completed by the project's own settings. */
  private ActorSources actorSources(GenerateOptions options, LoadedInput loaded) {
    ActorCodeOptions code = options.actorCode();
    if (options.projectDefaults() != null && loaded.projectRoot() != null) {
      code = options.projectDefaults().complete(loaded.projectRoot(), code, new PipelineListener() {
        @Override
        public void diagnostic(Diagnostic diagnostic) {
          say(diagnostic);
        }
      });
    }
    return actorSources(options.outputDirectory(), loaded.projectRoot(), code);
  }

  /**
   * Generates one program holding every variant of a graph with dynamic parameters ({@link VariantProgram}): each
   * variant planned as a graph of its own, without pipelining; the configuration actors choose the variant of every
   * iteration.
   *
   * @throws OptionException for what such a program does not support (a dispatched schedule, several nodes,
   *     synthetic actors, a PREESM project's own build)
   * @throws InputException at the graph for a persistent delay the variants cannot share ({@link VariantDelays})
   */
  private GenerateResult generateVariants(GenerateOptions options, LoadedInput given,
      List<DynamicParameters.Variant> variants, TargetCache target) {
    String why = options.schedule().dispatched() ? "--schedule" : options.syntheticActors() ? "--synthetic-actors"
        : profiled ? "profile" : PreesmLayoutWriter.appliesTo(options.outputDirectory()) ? "--out" : null;
    if (why != null) {
      throw new OptionException(why, "a program switching between the variants of dynamic parameters ("
          + DynamicParameters.given(variants) + ") is generated with a static schedule, real actors, into a folder "
          + "of its own; generate one program per value with --param NAME=V for this");
    }
    Platform platform = options.platform().forGenerate(given.architecture(), target);
    options.platform().checkGenerated(platform);
    if (platform.nodes() > 1) {
      throw new OptionException("--nodes", "a program switching between the variants of dynamic parameters runs on "
          + "one machine");
    }
    PlanChoices asked = PlanChoices.of(options);
    PlanChoices choices = new PlanChoices(asked.policy(), asked.strategy(), asked.overrides(), false, asked.slots());
    List<CodeProject> projects = new ArrayList<>();
    List<String> labels = new ArrayList<>();
    List<Diagnostic> later = new ArrayList<>();
    MemoryPlan firstPlan = null;
    VariantDelays delays = new VariantDelays(SourceLocation.file(given.source()));
    for (DynamicParameters.Variant variant : variants) {
      listener.step("variant " + (projects.size() + 1) + " of " + variants.size() + ": " + variant.label());
      Expanded graph = expanded(withOverrides(given, variant));
      try {
        delays.add(variant, graph.analysis().flatGraph(), graph.srdag());
      } catch (InputException e) {
        listener.done();
        throw e;
      }
      Planned planned = planned(graph, platform, target, choices);
      firstPlan = firstPlan == null ? planned.plan() : firstPlan;
      scriptWarnings(planned.scripts()).forEach(w -> later.add(Diagnostic.warning(null, variant.label() + ": "
          + w.message())));
      listener.step("building the code model");
      projects.add(CodeModelBuilder.build(PlannedExecution.of(planned.plan(), options.codePreset()), false));
      labels.add(variant.label());
    }
    VariantProgram program;
    try {
      program = VariantProgram.of(projects, labels);
    } catch (IllegalArgumentException e) {
      listener.done();
      throw new InputException(SourceLocation.file(given.source()), e.getMessage());
    }
    checkMemory(given, program.memory(), options.platform(), target);
    Path outDir = options.outputDirectory();
    listener.step("writing " + outDir);
    ActorSources actors = actorSources(options, given);
    try {
      VariantWriter.write(program, actors, options.runtime(), outDir, folder -> say(Diagnostic.note(
          "another generation is writing " + PathText.display(folder) + ": waiting for it, then replacing its "
          + "output")));
    } catch (UncheckedIOException e) {
      throw new InputException(SourceLocation.file(outDir), e.getMessage(), e);
    }
    listener.done();
    List<String> each = new ArrayList<>();
    for (int v = 0; v < projects.size(); v++) {
      each.add(labels.get(v) + " " + MemoryText.size(projects.get(v).memory().totalBytes()));
    }
    long total = program.memory().totalBytes();
    long regions = VariantProgram.regionBytes(program.variants()).stream().mapToLong(Long::longValue).sum();
    long slots = program.sharedChannelBytes();
    long cows = program.sharedCowBytes();
    List<String> setters = program.parameters().stream().map(p -> p.actor()).distinct().toList();
    later.add(Diagnostic.note("one program for " + variants.size() + " variants: every iteration, configuration "
        + "actor" + (setters.size() == 1 ? " " : "s ") + String.join(", ", setters) + " fire"
        + (setters.size() == 1 ? "s" : "")
        + " first on core " + program.configurationCore() + " and every core runs the variant the values select "
        + "(without pipelining; cores meet at a barrier only where the variant changes); the variants' buffers share "
        + "memory sized for the largest variant (" + MemoryText.size(regions) + ")" + (slots > 0 ? ", and so do "
        + "their channel slots (" + MemoryText.size(slots) + ")" : "") + (cows > 0 ? ", and their copy-on-write "
        + "buffers in one memory file (" + MemoryText.size(cows) + ")" : "") + ", allocated once before the first "
        + "iteration: " + MemoryText.size(total) + " in all (each variant alone: " + String.join("; ", each) + ")"));
    if (!program.sharedStates().isEmpty()) {
      later.add(Diagnostic.note(program.sharedStates().size() + " persistent delay" + (program.sharedStates().size()
          == 1 ? " keeps its state" : "s keep their states") + " from one iteration to the next whichever variant "
          + "runs it, one state every variant shares, outside the variants' shared memory ("
          + MemoryText.size(program.sharedStates().stream().mapToLong(CodeProject::alignedBytes).sum())
          + ", counted in the program's memory above): "
          + program.sharedStates().stream().map(StaticBuffer::description).toList()));
    }
    return new GenerateResult(given, outDir, platform, firstPlan, program.frame(), options.strategy(), false,
        finish(later), options.schedule());
  }

  /**
   * Writes the program: into a PREESM project's {@code Code/generated} as its own build compiles it, else as a CMake
   * project of its own (taking turns with another generation into the same folder).
   */
  private void write(CodeProject project, SchedTable sched, ActorSources actors, Path runtime, Path outDir) {
    try {
      if (PreesmLayoutWriter.appliesTo(outDir)) {
        // a PREESM project's Code/generated, which its own CMakeLists compiles with the actors
        if (project.multiNode() || sched != null) {
          throw new OptionException(project.multiNode() ? "--out" : "--schedule", PathText.display(outDir)
              + " is compiled by the project's own build, which takes " + (project.multiNode() ? "no MPI: generate a "
              + "program over several nodes" : "static schedules only: generate a dynamic or hybrid program")
              + " into a folder of its own");
        }
        PreesmLayoutWriter.write(project, runtime, outDir);
      } else if (profiled) {
        ProfileWriter.write(project, actors, runtime, outDir, folder -> {
        });
      } else {
        ProjectWriter.write(project, sched, actors, runtime, outDir, folder -> say(Diagnostic.note(
            "another generation is writing " + PathText.display(folder) + ": waiting for it, then replacing its "
            + "output")));
      }
    } catch (UncheckedIOException e) {
      throw new InputException(SourceLocation.file(outDir), e.getMessage(), e);
    }
  }

  /**
   * Refuses a program that cannot fit the memory it may use ({@code --max-memory}, else the target's), before
   * anything is written.
   *
   * @throws InputException at the graph, with the figures and the largest buffers
   */
  private void checkMemory(LoadedInput loaded, ProgramMemory memory, PlatformOptions platform, TargetCache target) {
    long limit = platform.memoryLimit(target);
    if (limit > 0 && memory.totalBytes() > limit) {
      listener.done();
      throw new InputException(SourceLocation.file(loaded.source()), MemoryText.refusal(memory, limit,
          platform.memoryLimitSource(target)));
    }
  }

  /**
   * The memory of the program {@code generate} would write for a plan, when it could write one (at most
   * {@link PlatformOptions#MAX_CORES} cores): {@code plan} reports it.
   */
  private ProgramMemory programMemory(MemoryPlan plan, PlanOptions options) {
    CodeProject program = programModel(plan, options);
    return program == null ? null : program.memory();
  }

  /** The code model of the program generate would write for a plan, or null when it could not write one. */
  private CodeProject programModel(MemoryPlan plan, PlanOptions options) {
    if (plan.platform().size() > PlatformOptions.MAX_CORES) {
      return null;
    }
    CodePreset preset = CodePreset.of(options.strategy());
    listener.step("laying out the program's memory");
    return CodeModelBuilder.build(PlannedExecution.of(plan, options.slots() == null ? preset
        : preset.withSlots(options.slots())), false);
  }

  /**
   * What the generated project needs to build the actors' code: the given folders, else the project's Code/src,
   * plus its Code/include; PROJECT_ROOT_PATH as its Code/ folder. Paths relative to the output.
   */
  private ActorSources actorSources(Path outDir, Path projectRoot, ActorCodeOptions given) {
    Path code = projectRoot == null ? null : projectRoot.resolve("Code");
    Path sourceFolder = given.sources();
    if (sourceFolder == null && code != null && Files.isDirectory(code.resolve("src"))) {
      sourceFolder = code.resolve("src");
      say(Diagnostic.note("actor sources from " + PathText.display(sourceFolder) + " (choose others with --sources)"));
    } else if (sourceFolder == null) {
      say(Diagnostic.warning(null, "no actor sources (no --sources, and no Code/src in a project): configuring the "
          + "generated project stops until CACHEFLOW_ACTOR_SOURCES names them; --synthetic-actors builds without "
          + "them"));
    }
    List<String> includeFolders = new ArrayList<>();
    if (code != null && Files.isDirectory(code.resolve("include"))) {
      includeFolders.add(PathText.relative(outDir, code.resolve("include")));
    }
    for (Path include : given.includes()) {
      String folder = PathText.relative(outDir, include);
      if (!includeFolders.contains(folder)) {
        includeFolders.add(folder);
      }
    }
    List<String> definitions = given.definitions();
    boolean rootGiven = definitions.stream().anyMatch(d -> d.equals("PROJECT_ROOT_PATH")
        || d.startsWith("PROJECT_ROOT_PATH="));
    String root = code != null && Files.isDirectory(code) && !rootGiven ? PathText.relative(outDir, code) : null;
    return new ActorSources(PathText.relative(outDir, sourceFolder), includeFolders, definitions, given.libraries(),
        root);
  }

  private static List<Path> concat(Path first, List<Path> rest) {
    List<Path> all = new ArrayList<>();
    if (first != null) {
      all.add(first);
    }
    all.addAll(rest);
    return all;
  }

  ScriptsResult scripts(Input input, CheckPolicy checkPolicy) {
    List<LoadedInput> inputs = new ArrayList<>();
    listener.step("reading " + input.path());
    if (Files.isDirectory(input.path()) && input.scenario() == null) {
      PreesmProject project = PreesmProject.open(input.path(), warnings);
      Set<Path> covered = new LinkedHashSet<>();
      for (Path candidate : project.scenarios()) {
        Diagnostics quiet = new Diagnostics();
        ScenarioReferences references = project.references(ScenarioReader.readFile(candidate, quiet), quiet);
        if (references.algorithm().isPresent() && references.architecture().isPresent()) {
          LoadedInput loaded = InputLoader.load(input.path(), candidate, input.params(), warnings);
          covered.add(loaded.source().toAbsolutePath().normalize());
          if (referencesScript(loaded.graph())) {
            inputs.add(loaded);
          }
        }
      }
      for (Path graph : project.algorithms()) {
        if (!covered.contains(graph.toAbsolutePath().normalize())) {
          LoadedInput loaded = InputLoader.load(graph, null, input.params(), warnings);
          if (referencesScript(loaded.graph())) {
            inputs.add(loaded);
          }
        }
      }
      // graphs that refine an actor of another graph are evaluated as part of that graph
      Set<Path> subgraphs = new LinkedHashSet<>();
      for (LoadedInput loaded : inputs) {
        collectSubgraphs(loaded.graph(), subgraphs);
      }
      inputs.removeIf(loaded -> subgraphs.contains(loaded.source().toAbsolutePath().normalize()));
    } else {
      inputs.add(InputLoader.load(input.path(), input.scenario(), input.params(), warnings));
    }
    inputs.replaceAll(loaded -> oneVariant(loaded, "scripts"));
    List<ScriptEvaluation> evaluations = new ArrayList<>();
    for (LoadedInput loaded : inputs) {
      listener.step("evaluating the memory scripts of " + loaded.graph().getName());
      AnalysisResult analysis = GraphAnalysis.analyse(loaded.graph(), loaded.parameterOverrides(), warnings);
      Srdag srdag = SingleRateExpansion.expand(analysis.flatGraph());
      ScriptReport report = MemoryScripts.evaluate(srdag, loaded.scriptRoot(), MemoryScripts.Options.defaults()
          .withSizesInBits(loaded.sizesInBits()).withCheckPolicy(checkPolicy), warnings);
      evaluations.add(new ScriptEvaluation(loaded, report));
    }
    listener.done();
    return new ScriptsResult(evaluations, finish(List.of()));
  }

  private static void collectSubgraphs(Graph graph, Set<Path> files) {
    for (Actor actor : graph.getActors()) {
      if (actor.getRefinement() != null && actor.getRefinement().getSubgraph() != null) {
        Graph subgraph = actor.getRefinement().getSubgraph();
        if (subgraph.getFile() != null) {
          files.add(Path.of(subgraph.getFile()).toAbsolutePath().normalize());
        }
        collectSubgraphs(subgraph, files);
      }
    }
  }

  private static boolean referencesScript(Graph graph) {
    for (Actor actor : graph.getActors()) {
      if (actor.getMemoryScript() != null && !actor.getMemoryScript().isBlank()) {
        return true;
      }
      if (actor.getRefinement() != null && actor.getRefinement().getSubgraph() != null
          && referencesScript(actor.getRefinement().getSubgraph())) {
        return true;
      }
    }
    return false;
  }
}
