package org.cacheflow.workflow;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.cacheflow.pipeline.GenerateOptions;
import org.cacheflow.pipeline.OptionException;
import org.cacheflow.plan.mapping.MappingPolicy;
import org.cacheflow.plan.schedule.RunSchedule;
import org.cacheflow.plan.strategy.Bytes;
import org.cacheflow.plan.strategy.StrategyOverride;
import org.cacheflow.plan.strategy.StrategyPreset;
import org.cacheflow.plan.strategy.TargetCache;
import org.cacheflow.workflow.descriptor.AllowedValue;
import org.cacheflow.workflow.descriptor.DocumentedError;
import org.cacheflow.workflow.descriptor.TaskDescriptor;
import org.cacheflow.workflow.descriptor.TaskParameter;
import org.cacheflow.workflow.descriptor.TaskPort;
import org.cacheflow.workflow.descriptor.ValueKind;

/**
 * The cacheflow code-generation task of PREESM workflows: {@code <dftools:task
 * pluginId="org.cacheflow.workflow.codegen"
 * taskId="...">}. {@link #DESCRIPTOR} is the single declaration of its parameters, values, effects, defaults and
 * errors; the settings reader, the reference documentation and the editor all read it.
 */
public final class CodegenTask {

  /** The {@code pluginId} that names the task in a {@code .workflow} file. */
  public static final String PLUGIN_ID = "org.cacheflow.workflow.codegen";

  public static final String MEMORY_STRATEGY = "Memory strategy";
  public static final String CORES = "Cores";
  public static final String NODES = "Nodes";
  public static final String MAPPING_POLICY = "Mapping policy";
  public static final String TARGET = "Target";
  public static final String OVERRIDES = "Overrides";
  public static final String SYNTHETIC_ACTORS = "Synthetic actors";
  public static final String OUTPUT_DIRECTORY = "Output directory";
  public static final String ACTOR_SOURCES = "Actor sources";
  public static final String INCLUDE_DIRECTORIES = "Include directories";
  public static final String COMPILE_DEFINITIONS = "Compile definitions";
  public static final String LIBRARIES = "Libraries";
  public static final String SCHEDULE = "Schedule";
  public static final String VARIABLE_ACTORS = "Variable actors";
  public static final String COST_SPREAD = "Cost spread";
  public static final String PROFILE = "Profile";

  /** The workflow names of the memory strategies and the preset each selects (from the strategy vocabulary). */
  public static final Map<String, StrategyPreset> STRATEGIES = strategies();

  /** What each strategy of the task does, in the words of the task reference (docs/workflow.md). */
  private static final Map<StrategyPreset, String> STRATEGY_DOCS = Map.of(
      StrategyPreset.BASELINE, "Plain copies everywhere, like PREESM's generated code: no buffer merging, "
          + "every fork, join, broadcast and round buffer copies its data with memcpy. The second reference, "
          + "after `Preesm`.",
      StrategyPreset.PREESM, "PREESM's generated code with its memory scripts: the buffers they merge share "
          + "memory (PREESM's rules only), every other fork, join, broadcast and round buffer copies with memcpy. "
          + "The reference the benchmarks and reports compare the other strategies with.",
      StrategyPreset.COW, "Memory-script merges are kept; every copy that can be a copy-on-write "
          + "view is one, so pages are copied only when a consumer writes them.",
      StrategyPreset.NTM, "Memory-script merges are kept; every copy uses non-temporal (streaming) "
          + "stores, which do not evict the data the cores are working on.",
      StrategyPreset.PRESTORE, "Memory-script merges are kept; every written buffer is pre-stored after its "
          + "last write (demote, clean or skip, chosen from the distance to its next use).",
      StrategyPreset.HOMEFORWARD, "Memory-script merges are kept; every cross-core buffer with memory of its "
          + "own becomes a home-forwarded rdy-ack channel, homed at the consumer's core.",
      StrategyPreset.AUTO, "Each buffer gets the strategy that the measured costs of the target and the "
          + "buffer's reuse distance favour.");

  private static final TaskParameter MEMORY_STRATEGY_PARAMETER = new TaskParameter(MEMORY_STRATEGY,
      "How the data of every FIFO moves through the cache hierarchy. One strategy for the whole graph; "
          + "`" + OVERRIDES + "` changes it for chosen FIFOs.",
      ValueKind.CHOICE,
      strategyValues(),
      "", StrategyPreset.DEFAULT.taskName, StrategyPreset.DEFAULT.taskName,
      value -> choiceProblem(MEMORY_STRATEGY, STRATEGIES.keySet(), value).map(problem -> problem
          + strategyHint(value)));

  private static final TaskParameter CORES_PARAMETER = new TaskParameter(CORES,
      "How many cores the generated program runs on; firings are mapped and ordered for that many cores. With `"
          + "Nodes`, the cores of each node.",
      ValueKind.POSITIVE_INTEGER, List.of(), "a positive integer, e.g. `4`", "",
      "the number of cores of the scenario's architecture (S-LAM)", value -> positiveIntegerProblem(CORES, value));

  private static final TaskParameter NODES_PARAMETER = new TaskParameter(NODES,
      "How many nodes (machines, one MPI process each) the generated program runs on, each with `" + CORES
          + "` cores: the firings are partitioned across the nodes, then mapped and ordered on each node's cores; "
          + "FIFOs between nodes become MPI transfers. See docs/multinode.md.",
      ValueKind.POSITIVE_INTEGER, List.of(), "a positive integer, e.g. `2`", "",
      "the nodes of the scenario's architecture (S-LAM); one node when it has none",
      value -> positiveIntegerProblem(NODES, value));

  /** What each mapping policy does, in the words of the task reference (docs/workflow.md). */
  private static final Map<MappingPolicy, String> POLICY_DOCS = Map.of(
      MappingPolicy.LOAD_BALANCE, "Each firing goes to the core where it finishes first, balancing the scenario's "
          + "execution times (as `cacheflow generate --policy load`).",
      MappingPolicy.LOCALITY, "As `load`, but a firing that receives buffers of at least the target's L1 data cache "
          + "stays on the core that produced most of those bytes when the load allows it (it finishes at most 10% "
          + "of the ideal per-core load later there, or fills idle time); as `cacheflow generate --policy "
          + "locality`.");

  private static final TaskParameter MAPPING_POLICY_PARAMETER = new TaskParameter(MAPPING_POLICY,
      "How the firings are mapped to the cores: balancing the load alone, or also keeping large buffers on the "
          + "core that produced them. `cacheflow plan --policy` shows the mapping either gives.",
      ValueKind.CHOICE, policyValues(), "", MappingPolicy.LOAD_BALANCE.label, MappingPolicy.LOAD_BALANCE.label,
      value -> choiceProblem(MAPPING_POLICY, MappingPolicy.labelList(), value));

  private static final TaskParameter TARGET_PARAMETER = new TaskParameter(TARGET,
      "The cache hierarchy the memory plan is made for: cache sizes, line and page size, and the break-even sizes "
          + "measured on it, which decide what `Auto` chooses.",
      ValueKind.NAME_OR_FILE,
      targetValues(),
      "a target file (`key = value` lines, see `cacheflow plan --help`; a relative path is taken from the project "
          + "directory)",
      "zen4-vm", "zen4-vm", value -> Optional.empty());

  private static final TaskParameter OVERRIDES_PARAMETER = new TaskParameter(OVERRIDES,
      "Per-FIFO exceptions to the memory strategy. Each entry is `actor.port=STRATEGY`, naming a FIFO by one of its "
          + "ends as `cacheflow inspect` prints it (hierarchy joined with `/`, `*` and `?` as wildcards); entries "
          + "are separated by `;` and later ones win. Two more entries set the whole program, as `cacheflow generate "
          + "--override` takes them: `slots=K` (K rdy-ack channel slots instead of 2, and K slots for merge groups "
          + "several cores use instead of as many as span the target's L2) and `pipelining=off` (no firing runs an "
          + "iteration behind the rest of its core's loop).",
      ValueKind.LIST, List.of(),
      "`actor.port=STRATEGY; ...` where STRATEGY is one of " + StrategyOverride.NAMES + "; `slots=K`; "
          + "`pipelining=on|off`",
      "", "no overrides", CodegenTask::overridesProblem);

  private static final TaskParameter SYNTHETIC_ACTORS_PARAMETER = new TaskParameter(SYNTHETIC_ACTORS,
      "Whether the generated program calls the actors' own C functions or deterministic stand-ins generated for "
          + "them.",
      ValueKind.BOOLEAN,
      List.of(new AllowedValue("false", "Actors call their refinements (the functions named in the graph's "
              + "headers); the project's `Code/src` and `Code/include` folders are compiled in when they exist."),
          new AllowedValue("true", "Every actor gets a generated body that reads its inputs and writes a checksum of "
              + "them to its outputs: the program builds and runs without the actors' sources, to test the "
              + "schedule and the memory plan.")),
      "", "false", "false", value -> choiceProblem(SYNTHETIC_ACTORS, List.of("true", "false"), value));

  private static final TaskParameter OUTPUT_DIRECTORY_PARAMETER = new TaskParameter(OUTPUT_DIRECTORY,
      "Where the generated CMake project is written. Its previous content is replaced, but only once generation "
          + "succeeded.",
      ValueKind.DIRECTORY, List.of(),
      "a directory: relative to the project directory, a workspace path `/<project>/...` as in scenarios, or "
          + "absolute",
      "", "the scenario's code generation directory (`<codegenDirectory>`), else `Code/generated`",
      value -> Optional.empty());

  private static final TaskParameter ACTOR_SOURCES_PARAMETER = new TaskParameter(ACTOR_SOURCES,
      "The folder of the actors' C sources, compiled into the program (unless `" + SYNTHETIC_ACTORS + "` is true). "
          + "Becomes the cache variable `CACHEFLOW_ACTOR_SOURCES` of the generated CMake project.",
      ValueKind.DIRECTORY, List.of(),
      "a directory: relative to the project directory, a workspace path `/<project>/...`, or absolute",
      "", "the project's `Code/src`", value -> Optional.empty());

  private static final TaskParameter INCLUDE_DIRECTORIES_PARAMETER = new TaskParameter(INCLUDE_DIRECTORIES,
      "Folders of headers the actors include, besides the project's `Code/include` (always searched when it "
          + "exists). Becomes the cache variable `CACHEFLOW_ACTOR_INCLUDES`.",
      ValueKind.ENTRIES, List.of(),
      "directories separated by `;`, each relative to the project directory, a workspace path or absolute",
      "", "the project's `Code/include` only", value -> Optional.empty());

  private static final TaskParameter COMPILE_DEFINITIONS_PARAMETER = new TaskParameter(COMPILE_DEFINITIONS,
      "Preprocessor definitions for the actors' code (and the generated code, which includes their headers). "
          + "`PROJECT_ROOT_PATH` is always defined as the absolute path of the project's `Code/` folder, as PREESM's "
          + "CMakeLists does, unless an entry defines it. Becomes the cache variable `CACHEFLOW_ACTOR_DEFINITIONS` "
          + "(`PROJECT_ROOT_PATH`'s folder: `CACHEFLOW_PROJECT_ROOT_PATH`).",
      ValueKind.ENTRIES, List.of(),
      "`NAME=VALUE; NAME; ...`; a string value keeps its quotes: `DATA_FILE=\"input.bin\"`",
      "", "`PROJECT_ROOT_PATH` only", CodegenTask::definitionsProblem);

  private static final TaskParameter LIBRARIES_PARAMETER = new TaskParameter(LIBRARIES,
      "Libraries the actors link with, found by CMake when the generated project is configured (no path of this "
          + "machine is written): `Package::target` is looked up with `find_package(Package)`, `pthread` is the "
          + "threads library, any other name is a pkg-config module (`sdl2`, `SDL2_ttf`, `zlib`) or else a library "
          + "found by name (`m`). Becomes the cache variable `CACHEFLOW_ACTOR_LIBRARIES`.",
      ValueKind.ENTRIES, List.of(),
      "names separated by `;`, e.g. `ZLIB::ZLIB; SDL2_ttf; m`",
      "", "none (the generated program itself links the cacheflow runtime, threads and `m`)",
      CodegenTask::librariesProblem);

  /** What each run-time schedule does, in the words of the task reference (docs/workflow.md). */
  private static final Map<RunSchedule.Kind, String> SCHEDULE_DOCS = Map.of(
      RunSchedule.Kind.STATIC, "Each core runs a fixed order of firings computed from the scenario's timings, as "
          + "PREESM does; cores hand data over with rdy-ack flags. Keeps every memory strategy.",
      RunSchedule.Kind.DYNAMIC, "Every firing goes, when its inputs are ready, to a pool that any idle core takes "
          + "from (the firing with the highest data demand first): for actors whose cost varies with the data, or "
          + "timings that are wrong. Keeps the strategy's merges and non-temporal copies only.",
      RunSchedule.Kind.HYBRID, "The firings of the variable actors (`" + VARIABLE_ACTORS + "`, or a `" + COST_SPREAD
          + "` above " + RunSchedule.VARIABLE_ABOVE + ") go to the pool, every other firing keeps a static order per "
          + "core; cores take pooled firings in the gaps of their order. Keeps the strategy's merges and non-temporal "
          + "copies only.");

  private static final TaskParameter SCHEDULE_PARAMETER = new TaskParameter(SCHEDULE,
      "How the generated program places its firings on the cores: in a static order per core, or at run time "
          + "(load balancing, as `cacheflow generate --schedule`). See docs/schedule.md.",
      ValueKind.CHOICE, scheduleValues(), "", RunSchedule.Kind.STATIC.label(), RunSchedule.Kind.STATIC.label(),
      value -> choiceProblem(SCHEDULE, List.of(RunSchedule.Kind.values()).stream().map(RunSchedule.Kind::label)
          .toList(), value));

  private static final TaskParameter VARIABLE_ACTORS_PARAMETER = new TaskParameter(VARIABLE_ACTORS,
      "The actors whose cost varies with the data: with `" + SCHEDULE + "` hybrid, their firings are placed at run "
          + "time (as `cacheflow generate --variable`).",
      ValueKind.ENTRIES, List.of(), "actor names separated by `;`, e.g. `Tile; Detect`", "", "none",
      value -> Optional.empty());

  private static final TaskParameter COST_SPREAD_PARAMETER = new TaskParameter(COST_SPREAD,
      "The coefficient of variation (standard deviation / mean) of actors' firing times, measured or estimated: "
          + "with `" + SCHEDULE + "` hybrid, an actor whose spread is above " + RunSchedule.VARIABLE_ABOVE
          + " is variable (as `cacheflow generate --cost-spread`).",
      ValueKind.ENTRIES, List.of(), "`ACTOR=CV; ...`, e.g. `Tile=0.8; Sink=0.05`", "", "none",
      CodegenTask::spreadProblem);

  private static final TaskParameter PROFILE_PARAMETER = new TaskParameter(PROFILE,
      "A profile of the actors written by `cacheflow profile` (its `profile.json`): ports without an annotation take "
          + "the measured access mode, a declaration the run contradicts is replaced by the safe choice (with a "
          + "warning), the measured times replace the scenario's, and pre-stores go only to buffers the profile shows "
          + "are not re-read soon (as `cacheflow generate --profile`). See docs/profile.md.",
      ValueKind.FILE, List.of(), "a `profile.json` file: relative to the project directory, a workspace path "
          + "`/<project>/...`, or absolute", "", "none: the declared annotations and the scenario's timings",
      value -> Optional.empty());

  /** The task's declaration. */
  public static final TaskDescriptor DESCRIPTOR = new TaskDescriptor(PLUGIN_ID, "cacheflow code generation",
      "Generates a multi-core C program (a CMake project; over MPI for several nodes) for the scenario's graph, with "
          + "a cache-aware memory plan.",
      "Reads the algorithm, architecture and parameter values the scenario names, checks and expands the graph to "
          + "a single-rate graph, splits the firings across the nodes when there are several, maps and orders them on "
          + "the cores, runs the memory scripts, decides for "
          + "every buffer how its data moves through the caches (the memory strategy), and writes C that calls "
          + "the cacheflow runtime. It does the work of PREESM's scheduling, memory and code generation tasks "
          + "together, so it needs only the scenario: the other tasks of a PREESM workflow are not needed by "
          + "cacheflow and are skipped.",
      List.of(new TaskPort("scenario", "the scenario, as PREESM's `scenario` source gives it")),
      List.of(),
      List.of(MEMORY_STRATEGY_PARAMETER, CORES_PARAMETER, NODES_PARAMETER, MAPPING_POLICY_PARAMETER,
          SCHEDULE_PARAMETER, VARIABLE_ACTORS_PARAMETER, COST_SPREAD_PARAMETER, PROFILE_PARAMETER, TARGET_PARAMETER,
          OVERRIDES_PARAMETER,
          SYNTHETIC_ACTORS_PARAMETER, OUTPUT_DIRECTORY_PARAMETER, ACTOR_SOURCES_PARAMETER,
          INCLUDE_DIRECTORIES_PARAMETER, COMPILE_DEFINITIONS_PARAMETER, LIBRARIES_PARAMETER),
      List.of(
          new DocumentedError("unknown variable '<name>' of cacheflow task '<task>'",
              "The task has no such parameter; a misspelt name would otherwise be silently ignored. The message "
                  + "suggests the closest parameter name."),
          new DocumentedError("'<value>' is not a value of '<parameter>'; expected <values>",
              "The value is not one of those listed for the parameter (case does not matter)."),
          new DocumentedError("'Cores' must be a positive integer, got '<value>'",
              "Write a whole number of cores, or leave the variable out to use the architecture's."),
          new DocumentedError("'Nodes' must be a positive integer, got '<value>'",
              "Write a whole number of nodes, or leave the variable out to use the architecture's."),
          new DocumentedError("override '<entry>': ...",
              "An entry of `Overrides` is not `actor.port=STRATEGY`, or names an unknown strategy."),
          new DocumentedError("no such target file, and no built-in target of that name",
              "`Target` is neither a built-in profile nor an existing file (relative paths start at the project "
                  + "directory)."),
          new DocumentedError("override '<entry>': no FIFO has an end '<pattern>'",
              "An override names a FIFO end the graph does not have; ends are written `actor.port` as "
                  + "`cacheflow inspect` prints them. Reported at the `Overrides` variable."),
          new DocumentedError("override '<entry>': <strategy> cannot apply to FIFO <fifo>: <reason>",
              "The strategy does not fit that FIFO (say, a channel between actors on one core). Reported at the "
                  + "`Overrides` variable."),
          new DocumentedError("'Compile definitions': '<entry>' is not NAME=VALUE or NAME",
              "An entry does not start with a C identifier."),
          new DocumentedError("'Libraries': '<entry>' is not a library name",
              "An entry is empty or holds spaces or path separators; name the library, not its file."),
          new DocumentedError("'Cost spread': cost spread '<entry>' is not ACTOR=CV ...",
              "An entry of `" + COST_SPREAD + "` is not an actor name, `=` and a number at least 0."),
          new DocumentedError("'Variable actors' <actor>: the graph has no actor of that name",
              "`" + VARIABLE_ACTORS + "` (or `" + COST_SPREAD + "`, reported at its line) names an actor the graph "
                  + "does not have. Reported when the schedule is hybrid."),
          new DocumentedError("'Variable actors' marks actors for --schedule hybrid; ...",
              "`" + VARIABLE_ACTORS + "` was given with `" + SCHEDULE + "` dynamic, where every firing is placed at "
                  + "run time."),
          new DocumentedError("'Profile': no such file: <path>",
              "`" + PROFILE + "` names a file that does not exist (relative paths start at the project directory)."),
          new DocumentedError("<file>:<line>:<column>: ... (a profile that cannot be read)",
              "The file `" + PROFILE + "` names is not a profile `cacheflow profile` wrote (not JSON, another "
                  + "version, or a field missing): the message names the file, line and cause. Profile again."),
          new DocumentedError("'<parameter>': no such directory: <path>",
              "`" + ACTOR_SOURCES + "` or an entry of `" + INCLUDE_DIRECTORIES + "` names a folder that does not "
                  + "exist (relative paths start at the project directory).")));

  private CodegenTask() {
  }

  /** The plan strategy a workflow value selects (case-insensitive), if it is one. */
  public static Optional<StrategyPreset> strategy(String value) {
    return STRATEGIES.entrySet().stream().filter(entry -> entry.getKey().equalsIgnoreCase(value.trim()))
        .map(Map.Entry::getValue).findFirst();
  }

  /**
   * What a workflow run's strategy setting selects: a task strategy name ({@code CopyOnWrite}) or the label of a
   * planner mode ({@code cow}), as {@code run-workflow --strategy} and the Maven plugin take it.
   */
  public static Optional<StrategyPreset> strategyOrLabel(String text) {
    return strategy(text).or(() -> StrategyPreset.byLabel(text.trim()).filter(StrategyPreset::followsPlan));
  }

  /** The values {@link #strategyOrLabel} accepts, for messages. */
  public static String strategyChoices() {
    return String.join(", ", STRATEGIES.keySet()) + ", or " + String.join(", ",
        StrategyPreset.plannerModes().stream().map(preset -> preset.label).toList());
  }


  private static List<AllowedValue> scheduleValues() {
    return List.of(RunSchedule.Kind.values()).stream().map(kind -> new AllowedValue(kind.label(),
        SCHEDULE_DOCS.get(kind))).toList();
  }

  /** The cost spreads of a {@code Cost spread} value, by actor; later entries win. */
  public static Map<String, Double> spreads(String value) {
    return RunSchedule.parseSpreads(entries(value));
  }

  private static Optional<String> spreadProblem(String value) {
    try {
      spreads(value);
      return Optional.empty();
    } catch (IllegalArgumentException e) {
      return Optional.of("'" + COST_SPREAD + "': " + e.getMessage());
    }
  }

  private static List<AllowedValue> policyValues() {
    return List.of(MappingPolicy.values()).stream().map(policy -> new AllowedValue(policy.label,
        POLICY_DOCS.get(policy))).toList();
  }

  /** The entries of an {@code Overrides} value, trimmed, without empty ones. */
  public static List<String> overrideEntries(String value) {
    return entries(value);
  }

  /** The entries of a value of kind {@link ValueKind#LIST} or {@link ValueKind#ENTRIES}, trimmed, without empty ones.
   * */
  public static List<String> entries(String value) {
    List<String> entries = new ArrayList<>();
    if (value == null) {
      return entries;
    }
    for (String entry : value.split("[;\\n]")) {
      if (!entry.isBlank()) {
        entries.add(entry.trim());
      }
    }
    return entries;
  }

  /** The task's strategy choices: the planner modes of the strategy vocabulary, by their task names. */
  private static List<AllowedValue> strategyValues() {
    return StrategyPreset.plannerModes().stream().map(preset -> new AllowedValue(preset.taskName,
        STRATEGY_DOCS.get(preset))).toList();
  }

  private static List<AllowedValue> targetValues() {
    List<AllowedValue> values = new ArrayList<>();
    for (TargetCache target : TargetCache.BUILT_IN.values()) {
      values.add(new AllowedValue(target.name(), "L1D " + Bytes.human(target.l1dBytes()) + ", L2 "
          + Bytes.human(target.l2Bytes()) + " per core, " + Bytes.human(target.llcBytes()) + " shared last-level "
          + "cache, " + target.lineBytes() + "-byte lines, " + Bytes.human(target.pageBytes()) + " pages."));
    }
    return values;
  }

  private static Map<String, StrategyPreset> strategies() {
    Map<String, StrategyPreset> strategies = new LinkedHashMap<>();
    for (StrategyPreset preset : StrategyPreset.plannerModes()) {
      strategies.put(preset.taskName, preset);
    }
    return Collections.unmodifiableMap(strategies);
  }

  private static Optional<String> choiceProblem(String parameter, Collection<String> names, String value) {
    for (String name : names) {
      if (name.equalsIgnoreCase(value)) {
        return Optional.empty();
      }
    }
    return Optional.of("'" + value + "' is not a value of '" + parameter + "'; expected " + join(List.copyOf(names)));
  }

  /** Users of {@code cacheflow plan} write cow, ntm...: say which workflow name that is. */
  private static String strategyHint(String value) {
    StrategyPreset byLabel = StrategyPreset.byLabel(value).orElse(null);
    if (byLabel == null) {
      return "";
    }
    for (Map.Entry<String, StrategyPreset> entry : STRATEGIES.entrySet()) {
      if (entry.getValue() == byLabel) {
        return " ('" + value + "' on the command line is '" + entry.getKey() + "' here)";
      }
    }
    return "";
  }

  private static Optional<String> positiveIntegerProblem(String parameter, String value) {
    try {
      if (Integer.parseInt(value) > 0) {
        return Optional.empty();
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    return Optional.of("'" + parameter + "' must be a positive integer, got '" + value + "'");
  }

  private static Optional<String> overridesProblem(String value) {
    for (String entry : overrideEntries(value)) {
      try {
        GenerateOptions.checkOverrideText(entry);
      } catch (OptionException e) {
        return Optional.of(e.getMessage());
      }
    }
    return Optional.empty();
  }

  /** Why a compile definition is not one ({@code NAME=VALUE} or {@code NAME}), or empty when it is. */
  private static Optional<String> definitionProblem(String entry) {
    return org.cacheflow.pipeline.ActorCodeOptions.isDefinition(entry) ? Optional.empty()
        : Optional.of("'" + COMPILE_DEFINITIONS + "': '" + entry + "' is not NAME=VALUE or NAME");
  }

  /** Why a library entry is not a library name, or empty when it is. */
  private static Optional<String> libraryProblem(String entry) {
    return org.cacheflow.pipeline.ActorCodeOptions.isLibrary(entry) ? Optional.empty()
        : Optional.of("'" + LIBRARIES + "': '" + entry + "' is not a library name");
  }

  private static Optional<String> definitionsProblem(String value) {
    return entries(value).stream().map(CodegenTask::definitionProblem).flatMap(Optional::stream).findFirst();
  }

  private static Optional<String> librariesProblem(String value) {
    return entries(value).stream().map(CodegenTask::libraryProblem).flatMap(Optional::stream).findFirst();
  }

  private static String join(List<String> names) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < names.size(); i++) {
      text.append(i == 0 ? "" : i == names.size() - 1 ? " or " : ", ").append(names.get(i));
    }
    return text.toString();
  }
}
