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
import org.cacheflow.io.project.PreesmProject;
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
import org.cacheflow.plan.memoryplan.MemoryPlan;
import org.cacheflow.plan.memoryplan.MemoryPlanner;
import org.cacheflow.plan.memoryplan.PlanRequest;
import org.cacheflow.plan.strategy.Bytes;
import org.cacheflow.plan.strategy.OverrideException;
import org.cacheflow.plan.strategy.StrategyOverride;
import org.cacheflow.plan.strategy.TargetCache;
import org.cacheflow.plan.srdag.SingleRateExpansion;
import org.cacheflow.plan.srdag.Srdag;
import org.cacheflow.workflow.CodegenTask;
import org.cacheflow.workflow.run.ActorCode;
import org.cacheflow.workflow.run.ProjectActorCode;

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
    return "generate a C project (CMake) running the graph on N cores (or nodes x cores, MPI) with the cacheflow "
        + "runtime";
  }

  @Override
  public String help() {
    return """
        usage: cacheflow generate <graph.pi | sdf3.xml | project-dir> --out DIR [--scenario F] [--cores N]
                                  [--nodes N] [--strategy S] [--override ...]... [--target F] [--synthetic-actors]
                                  [--sources DIR] [--include DIR]... [--define NAME=VALUE]... [--link LIB]...
                                  [--param NAME=VALUE]...

        Analyses and expands the graph, maps its firings on N cores with a static order per core, decides how
        every buffer moves (the strategy), and writes a CMake project into DIR: graph.h, one core_N.c per core,
        main.c, CMakeLists.txt, toolchain files, and a copy of the C runtime (cacheflow-runtime/). The program
        is named after the graph; it takes --iterations N, --validate (MD5 of every sink FIFO and runtime
        statistics) and --no-pin, and stops early when an actor sets preesmStopThreads. DIR is replaced only once
        generation succeeded. See docs/generate.md.

        options:
          --out DIR             output folder (created or replaced)
          --scenario F          PREESM scenario (sizes, parameter values): a file, or a name or path in the
                                project (4core, Scenarios/4core.scenario)
          --cores N             cores to run on (default: the scenario's architecture, else 1); with --nodes,
                                the cores of each node
          --nodes N             nodes (machines, one MPI process each) to run on: the firings are partitioned
                                across the nodes, FIFOs between nodes become MPI transfers (default: the
                                scenario's architecture, else 1); at most 64 cores in all. See docs/multinode.md
          --strategy S          %s
                                (default auto); baseline is PREESM's behaviour
          --override X          slots=K: rdy-ack channel slots (default 2); else a per-FIFO override of the
                                memory plan (see cacheflow plan --help), e.g. 'Read.frame->Blur.in=ntm'
          --target F            cache profile for the memory plan: %s
                                (default zen4-vm), or a target file
          --synthetic-actors    generate deterministic actor bodies instead of calling the actors' code

        the actors' code (each also a cache variable of the generated CMake project):
          --sources DIR         folder of the actors' C sources (default: the project's Code/src)
          --include DIR         folder of headers the actors include, besides the project's Code/include;
                                repeatable
          --define NAME=VALUE   compile definition (NAME alone: defined as 1); repeatable. PROJECT_ROOT_PATH
                                is defined as the project's Code/ folder, as PREESM's CMakeLists does, unless
                                given here
          --link LIB            library the actors use, found by CMake when the project is configured:
                                Package::target (find_package), pthread, a pkg-config module (sdl2, zlib) or
                                a library name (m); repeatable
          --param NAME=VALUE    override a parameter; repeatable
        """.formatted(wrap(String.join(" | ", Strategy.NAMES)), String.join(", ", TargetCache.BUILT_IN.keySet()));
  }

  /** Strategy names on lines that fit the help's option column. */
  private static String wrap(String text) {
    StringBuilder wrapped = new StringBuilder();
    int column = 0;
    for (String word : text.split(" ")) {
      if (column > 0 && column + word.length() + 1 > 80) {
        wrapped.append("\n").append(" ".repeat(24));
        column = 0;
      } else if (column > 0) {
        wrapped.append(' ');
        column++;
      }
      wrapped.append(word);
      column += word.length();
    }
    return wrapped.toString();
  }

  @Override
  public int run(List<String> args, PrintStream out, PrintStream err) {
    Arguments arguments = Arguments.parse(args, Set.of("--synthetic-actors"), Set.of("--out", "--scenario",
        "--cores", "--nodes", "--strategy", "--override", "--target", "--sources", "--include", "--param",
        "--define", "--link"));
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
    List<String> definitions = arguments.all("--define").stream().map(String::trim).toList();
    List<String> libraries = arguments.all("--link").stream().map(String::trim).toList();
    for (String definition : definitions) {
      CodegenTask.definitionProblem(definition).ifPresent(problem -> {
        throw new UsageException("--define expects NAME=VALUE or NAME (no ';'), got '" + definition + "'");
      });
    }
    for (String library : libraries) {
      CodegenTask.libraryProblem(library).ifPresent(problem -> {
        throw new UsageException("--link expects a library name (Package::target, a pkg-config module or a "
            + "library such as m), got '" + library + "'");
      });
    }
    if (synthetic && (sources != null || !includes.isEmpty() || !definitions.isEmpty() || !libraries.isEmpty())) {
      err.println("note: --sources, --include, --define and --link are not used with --synthetic-actors");
    }
    for (Path folder : concat(sources, includes)) {
      if (!Files.isDirectory(folder)) {
        throw new InputException(SourceLocation.file(folder), "no such directory");
      }
    }
    Path runtime = runtimeFolder();
    PlatformOptions platformOptions = PlatformOptions.of(arguments);

    Diagnostics diagnostics = new Diagnostics();
    Progress progress = new Progress(err);
    progress.step("reading " + input);
    LoadedInput loaded = InputLoader.load(input, scenario, arguments.all("--param"), platformOptions.given(),
        diagnostics);
    if (scenario == null && loaded.scenarioFile() != null) {
      err.println("note: using scenario " + Paths.display(loaded.scenarioFile()) + " (choose another with --scenario)");
    }
    Platform platform = platformOptions.platform(loaded.architecture(), target, 1, true);
    platformOptions.checkGenerated(platform);
    progress.step("analysing " + loaded.graph().getName());
    AnalysisResult analysis = GraphAnalysis.analyse(loaded.graph(), loaded.parameterOverrides(), diagnostics,
        progress);
    progress.step("expanding to a single-rate graph");
    Srdag srdag = SingleRateExpansion.expand(analysis, progress);
    progress.step("planning and building the code model");
    ExecutionPlan plan;
    MemoryPlan memoryPlan;
    List<String> specialOperators = loaded.scenarioFile() == null ? List.of()
        : ScenarioReader.readFile(loaded.scenarioFile(), new Diagnostics()).specialVertexOperators();
    MappingInputs inputs = MappingInputs.fromScenario(analysis.flatGraph(), platform,
        loaded.scenario(), specialOperators, diagnostics);
    ScriptReport scripts = loaded.memoryScripts(srdag, diagnostics);
    try {
      memoryPlan = MemoryPlanner.plan(srdag, PlanRequest.of(inputs, target)
          .withPolicy(MappingPolicy.LOAD_BALANCE).withStrategy(PlannedExecution.globalStrategy(strategy.name()))
          .withOverrides(fifoOverrides).withFacts(ScriptMemoryFacts.of(srdag, scripts)).withProgress(progress));
      plan = PlannedExecution.of(memoryPlan, strategy);
    } catch (OverrideException e) {
      progress.done();
      throw new UsageException(e.getMessage());
    }
    CodeProject project = CodeModelBuilder.build(plan, synthetic);
    progress.step("writing " + outDir);
    ActorSources actors = ActorSources.NONE;
    if (!synthetic) {
      // what the command line leaves out, the project's workflow says (as run-workflow would build it)
      ActorCode given = new ActorCode(sources == null ? null : sources.toString(),
          includes.isEmpty() ? null : includes.stream().map(Path::toString).toList(),
          definitions.isEmpty() ? null : definitions, libraries.isEmpty() ? null : libraries);
      ActorCode code = workflowActorCode(loaded.projectRoot(), diagnostics, err).with(given);
      actors = actorSources(outDir, loaded.projectRoot(), code.sources() == null ? null : Path.of(code.sources()),
          orEmpty(code.includes()).stream().map(Path::of).toList(), orEmpty(code.definitions()),
          orEmpty(code.libraries()), err);
    }
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
    // the planner may map the graph to fewer cores than asked when they cannot win (CoreCount): its notes say why
    // (the balancing of the cores, when there was one, comes before the verdict)
    int planned = memoryPlan.schedule().coreCount();
    String asked = PlatformOptions.describe(platform);
    String cores = planned < platform.size()
        ? planned + (planned == 1 ? " core" : " cores") + " (the planner's choice, " + asked + " asked)" : asked;
    if (planned < platform.size()) {
      memoryPlan.notes().forEach(note -> err.println("note: " + note));
    }
    out.printf("generated %s: %s, strategy %s, %d buffers, %d channels, %d copy-on-write buffers%s%s%n",
        Paths.display(outDir), cores, strategy.name(), project.buffers().size(),
        project.channels().size(), project.cowBuffers().size(), platform.nodes() > 1 ? ", "
            + Bytes.human(memoryPlan.partition().cutBytes()) + " sent between nodes per iteration" : "",
        synthetic ? ", synthetic actors" : "");
    out.println("build: " + buildHint(outDir, project.identifier(), platform.nodes()));
    if (platform.nodes() > 1) {
      err.println("note: one process per node: run the program under mpirun -np " + platform.nodes()
          + " (with --oversubscribe where a machine has fewer cores than processes); see docs/multinode.md");
    }
    return Main.OK;
  }

  /**
   * The actors' code settings that the project's cacheflow workflow tasks give (their sources, header folders,
   * definitions and libraries), so that {@code generate} on a project builds what {@code run-workflow} builds;
   * nothing for a graph outside a project, or when workflows disagree (said on {@code err}).
   */
  private static ActorCode workflowActorCode(Path projectRoot, Diagnostics diagnostics, PrintStream err) {
    if (projectRoot == null || !Files.isDirectory(projectRoot.resolve("Workflows"))) {
      return ActorCode.NONE;
    }
    PreesmProject project = PreesmProject.open(projectRoot, diagnostics);
    return ProjectActorCode.of(project, diagnostics, ambiguous -> err.println("warning: the workflows "
        + ambiguous.workflows().stream().map(Paths::display).toList() + " give different actor-code settings "
        + "(Actor sources, Include directories, Compile definitions, Libraries); none is used: give --sources, "
        + "--include, --define and --link"))
        .map(found -> {
          err.println("note: the actors' code settings of " + Paths.display(found.workflow()) + ": "
              + String.join(" ", found.actorCode().generateOptions()) + " (options given here replace them)");
          return found.actorCode();
        }).orElse(ActorCode.NONE);
  }

  private static List<String> orEmpty(List<String> list) {
    return list == null ? List.of() : list;
  }

  /**
   * The shell commands that configure, build and run the generated project, from the working directory; a program
   * for several nodes runs under {@code mpirun}, one process per node.
   */
  static String buildHint(Path outDir, String program, int nodes) {
    String out = Paths.display(outDir);
    out = out.isEmpty() ? "." : out;
    String build = Paths.display(outDir.resolve("build"));
    String executable = Paths.display(outDir.resolve("build").resolve(program));
    return "cmake -S " + Shell.quote(out) + " -B " + Shell.quote(build) + " && cmake --build " + Shell.quote(build)
        + " && " + (nodes > 1 ? "mpirun -np " + nodes + " " : "") + Shell.quote(executable)
        + " --iterations 10 --validate";
  }

  /**
   * What the generated project needs to build the actors' code: the given folders, else the project's Code/src,
   * plus its Code/include; PROJECT_ROOT_PATH as its Code/ folder. Paths relative to the output.
   */
  static ActorSources actorSources(Path outDir, Path projectRoot, Path sources, List<Path> includes,
      List<String> definitions, List<String> libraries, PrintStream err) {
    Path code = projectRoot == null ? null : projectRoot.resolve("Code");
    Path sourceFolder = sources;
    if (sourceFolder == null && code != null && Files.isDirectory(code.resolve("src"))) {
      sourceFolder = code.resolve("src");
      err.println("note: actor sources from " + Paths.display(sourceFolder) + " (choose others with --sources)");
    } else if (sourceFolder == null) {
      err.println("warning: no actor sources (no --sources, and no Code/src in a project): configuring the generated "
          + "project stops until CACHEFLOW_ACTOR_SOURCES names them; --synthetic-actors builds without them");
    }
    List<String> includeFolders = new ArrayList<>();
    if (code != null && Files.isDirectory(code.resolve("include"))) {
      includeFolders.add(relative(outDir, code.resolve("include")));
    }
    for (Path include : includes) {
      String folder = relative(outDir, include);
      if (!includeFolders.contains(folder)) {
        includeFolders.add(folder);
      }
    }
    boolean rootGiven = definitions.stream().anyMatch(d -> d.equals("PROJECT_ROOT_PATH")
        || d.startsWith("PROJECT_ROOT_PATH="));
    String root = code != null && Files.isDirectory(code) && !rootGiven ? relative(outDir, code) : null;
    return new ActorSources(relative(outDir, sourceFolder), includeFolders, definitions, libraries, root);
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
