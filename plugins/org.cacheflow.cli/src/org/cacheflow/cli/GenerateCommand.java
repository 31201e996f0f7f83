package org.cacheflow.cli;

import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.cacheflow.cli.InputLoader.LoadedInput;
import org.cacheflow.codegen.ProjectWriter;
import org.cacheflow.codegen.build.CodeModelBuilder;
import org.cacheflow.codegen.build.ExecutionPlan;
import org.cacheflow.codegen.build.PlannedExecution;
import org.cacheflow.codegen.build.Strategy;
import org.cacheflow.codegen.model.ActorSources;
import org.cacheflow.codegen.model.CodeProject;
import org.cacheflow.io.scenario.ScenarioReader;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.plan.analysis.AnalysisResult;
import org.cacheflow.plan.analysis.GraphAnalysis;
import org.cacheflow.plan.classify.ScriptMemoryFacts;
import org.cacheflow.plan.mapping.MappingInputs;
import org.cacheflow.plan.mapping.MappingPolicy;
import org.cacheflow.plan.mapping.Platform;
import org.cacheflow.plan.memory.ScriptReport;
import org.cacheflow.plan.memoryplan.MemoryPlanner;
import org.cacheflow.plan.memoryplan.PlanRequest;
import org.cacheflow.plan.strategy.OverrideException;
import org.cacheflow.plan.strategy.StrategyOverride;
import org.cacheflow.plan.strategy.TargetCache;
import org.cacheflow.plan.srdag.SingleRateExpansion;
import org.cacheflow.plan.srdag.Srdag;

/** {@code cacheflow generate}: the C project users build for their boards. */
public final class GenerateCommand implements Command {

  /** System property naming the runtime-c folder to bundle; else {@code $CACHEFLOW_HOME/runtime-c}. */
  public static final String RUNTIME_PROPERTY = "cacheflow.runtime";

  @Override
  public String name() {
    return "generate";
  }

  @Override
  public String summary() {
    return "generate a C project (CMake) running the graph on N cores with the cacheflow runtime";
  }

  @Override
  public String help() {
    return """
        usage: cacheflow generate <graph.pi | sdf3.xml | project-dir> --out DIR [--scenario F] [--cores N]
                                  [--strategy S] [--override ...]... [--target F]
                                  [--synthetic-actors] [--sources DIR] [--include DIR]... [--param NAME=VALUE]...

        Analyses and expands the graph, maps its firings on N cores with a static order per core, decides how
        every buffer moves (the strategy), and writes a CMake project into DIR: graph.h, one core_N.c per core,
        main.c, CMakeLists.txt, toolchain files, and a copy of the C runtime (cacheflow-runtime/). The program
        is named after the graph; it takes --iterations N, --validate (MD5 of every sink FIFO and runtime
        statistics) and --no-pin. DIR is replaced only once generation succeeded. See docs/generate.md.

        options:
          --out DIR             output folder (created or replaced)
          --scenario F          PREESM scenario (sizes, parameter values)
          --cores N             cores to run on (default: the scenario's architecture, else 1)
          --strategy S          baseline | channels | alias | ntm | cow | prestore-demote | prestore-clean |
                                prestore-skip | auto (default auto); baseline is PREESM's behaviour
          --override X          slots=K: rdy-ack channel slots (default 2); else a per-FIFO override of the
                                memory plan (see cacheflow plan --help), e.g. 'Read.frame->Blur.in=ntm'
          --target F            cache profile for the memory plan: zen4-vm (default), sapphire-rapids-vm,
                                generic, or a target file
          --synthetic-actors    generate deterministic actor bodies instead of calling the actors' code
          --sources DIR         folder of the actors' C sources (real actors)
          --include DIR         folder holding the refinement headers; repeatable
          --param NAME=VALUE    override a parameter; repeatable
        """;
  }

  @Override
  public int run(List<String> args, PrintStream out, PrintStream err) {
    Arguments arguments = Arguments.parse(args, Set.of("--synthetic-actors"), Set.of("--out", "--scenario",
        "--cores", "--strategy", "--override", "--target", "--sources", "--include", "--param"));
    Path input = Path.of(arguments.single("graph, SDF3 file or project directory"));
    Path outDir = Path.of(arguments.option("--out").orElseThrow(() -> new UsageException("missing --out DIR")));
    Path scenario = arguments.option("--scenario").map(Path::of).orElse(null);
    boolean synthetic = arguments.flag("--synthetic-actors");
    Strategy strategy;
    try {
      strategy = Strategy.named(arguments.option("--strategy").orElse("auto"));
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    List<StrategyOverride> fifoOverrides = new ArrayList<>();
    for (String override : arguments.all("--override")) {
      if (override.trim().startsWith("slots=")) {
        strategy = applyOverride(strategy, override);
        continue;
      }
      try {
        fifoOverrides.add(StrategyOverride.parse(override));
      } catch (OverrideException e) {
        throw new UsageException(e.getMessage());
      }
    }
    TargetCache target = TargetCache.resolve(arguments.option("--target").orElse("zen4-vm"));
    Path sources = arguments.option("--sources").map(Path::of).orElse(null);
    List<Path> includes = arguments.all("--include").stream().map(Path::of).toList();
    if (synthetic && (sources != null || !includes.isEmpty())) {
      err.println("note: --sources and --include are not used with --synthetic-actors");
    }
    for (Path folder : concat(sources, includes)) {
      if (!Files.isDirectory(folder)) {
        throw new InputException(SourceLocation.file(folder), "no such directory");
      }
    }
    Path runtime = runtimeFolder();

    Diagnostics diagnostics = new Diagnostics();
    Progress progress = new Progress(err);
    progress.step("reading " + input);
    LoadedInput loaded = InputLoader.load(input, scenario, arguments.all("--param"),
        arguments.positiveInt("--cores").isPresent(), diagnostics);
    if (scenario == null && loaded.scenarioFile() != null) {
      err.println("note: using scenario " + Paths.display(loaded.scenarioFile()) + " (choose another with --scenario)");
    }
    int cores = arguments.positiveInt("--cores").orElse(loaded.architecture() != null
        && !loaded.architecture().getCores().isEmpty() ? loaded.architecture().getCores().size() : 1);
    if (cores > 64) {
      throw new UsageException("--cores must be at most 64, got " + cores);
    }
    progress.step("analysing " + loaded.graph().getName());
    AnalysisResult analysis = GraphAnalysis.analyse(loaded.graph(), loaded.parameterOverrides(), diagnostics,
        progress);
    progress.step("expanding to a single-rate graph");
    Srdag srdag = SingleRateExpansion.expand(analysis, progress);
    progress.step("planning and building the code model");
    ExecutionPlan plan;
    List<String> specialOperators = loaded.scenarioFile() == null ? List.of()
        : ScenarioReader.readFile(loaded.scenarioFile(), new Diagnostics()).specialVertexOperators();
    MappingInputs inputs = MappingInputs.fromScenario(analysis.flatGraph(), Platform.generic(cores),
        loaded.scenario(), specialOperators, diagnostics);
    ScriptReport scripts = loaded.memoryScripts(srdag, diagnostics);
    try {
      plan = PlannedExecution.of(MemoryPlanner.plan(srdag, PlanRequest.of(inputs, target)
          .withPolicy(MappingPolicy.LOAD_BALANCE).withStrategy(PlannedExecution.globalStrategy(strategy.name()))
          .withOverrides(fifoOverrides).withFacts(ScriptMemoryFacts.of(srdag, scripts)).withProgress(progress)),
          strategy);
    } catch (OverrideException e) {
      progress.done();
      throw new UsageException(e.getMessage());
    }
    CodeProject project = CodeModelBuilder.build(plan, synthetic);
    progress.step("writing " + outDir);
    ActorSources actors = synthetic ? ActorSources.NONE : new ActorSources(relative(outDir, sources),
        includes.stream().map(i -> relative(outDir, i)).toList());
    try {
      ProjectWriter.write(project, actors, runtime, outDir);
    } catch (UncheckedIOException e) {
      throw new InputException(SourceLocation.file(outDir), e.getMessage(), e);
    }
    progress.done();
    for (Diagnostics.Warning warning : diagnostics.warnings()) {
      err.println("warning: " + warning);
    }
    for (String error : scripts.errors()) {
      err.println("warning: memory script: " + error + " (its merges and marks are left out)");
    }
    out.printf("generated %s: %d cores, strategy %s, %d buffers, %d channels, %d copy-on-write buffers%s%n",
        Paths.display(outDir), cores, strategy.name(), project.buffers().size(), project.channels().size(),
        project.cowBuffers().size(), synthetic ? ", synthetic actors" : "");
    out.printf("build: cmake -S %s -B %s/build && cmake --build %s/build && %s/build/%s --iterations 10 --validate%n",
        Paths.display(outDir), Paths.display(outDir), Paths.display(outDir), Paths.display(outDir),
        project.identifier());
    return Main.OK;
  }

  static Strategy applyOverride(Strategy strategy, String override) {
    int equals = override.indexOf('=');
    if (equals <= 0) {
      throw new UsageException("--override expects KEY=VALUE, got '" + override + "'");
    }
    String key = override.substring(0, equals).trim();
    String value = override.substring(equals + 1).trim();
    if (key.equals("slots")) {
      try {
        int slots = Integer.parseInt(value);
        if (slots >= 1) {
          return strategy.withSlots(slots);
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new UsageException("--override slots=K needs a positive integer, got '" + value + "'");
    }
    throw new UsageException("unknown --override key '" + key + "'");
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

  /** {@code folder} relative to the output folder, with '/': generated files name no absolute path. */
  static String relative(Path outDir, Path folder) {
    if (folder == null) {
      return null;
    }
    Path base = outDir.toAbsolutePath().normalize();
    return base.relativize(folder.toAbsolutePath().normalize()).toString().replace('\\', '/');
  }

  private static List<Path> concat(Path first, List<Path> rest) {
    List<Path> all = new ArrayList<>();
    if (first != null) {
      all.add(first);
    }
    all.addAll(rest);
    return all;
  }
}
