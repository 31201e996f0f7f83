package org.cacheflow.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.cacheflow.pipeline.GenerateOptions;
import org.cacheflow.pipeline.Input;
import org.cacheflow.pipeline.LoadedInput;
import org.cacheflow.pipeline.PathText;
import org.cacheflow.pipeline.Pipeline;
import org.cacheflow.pipeline.PlanOptions;
import org.cacheflow.pipeline.PlanResult;
import org.cacheflow.pipeline.PlatformOptions;
import org.cacheflow.plan.classify.BufferClass;
import org.cacheflow.plan.mapping.MappingPolicy;
import org.cacheflow.plan.memoryplan.FifoPlan;
import org.cacheflow.plan.memoryplan.MemoryPlan;
import org.cacheflow.plan.memoryplan.PlanTotals;
import org.cacheflow.plan.partition.NodePartition;
import org.cacheflow.report.DecisionText;
import org.cacheflow.report.JsonText;
import org.cacheflow.report.MemoryText;
import org.cacheflow.report.PlanJson;
import org.cacheflow.report.VariantReport;
import org.cacheflow.plan.schedule.Schedule;
import org.cacheflow.plan.strategy.Bytes;
import org.cacheflow.plan.schedule.RunSchedule;
import org.cacheflow.plan.strategy.StrategyPreset;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code cacheflow plan}: map and schedule a graph, classify every buffer, choose how its data moves through
 * the caches, and explain the decision.
 */
@Command(name = "plan", header = "map, schedule and plan every FIFO's memory strategy; print or report why",
    synopsisHeading = "usage: ", abbreviateSynopsis = true, separator = " ", sortOptions = false,
    description = {"", "Reads and expands the graph as 'cacheflow inspect' does, maps the single-rate graph onto the "
        + "cores with a list scheduler (scenario timings balanced, mapping constraints respected), gives every buffer "
            + "a "
        + "class (aliased, read-mostly, private, write-mostly; and cross-core) and a strategy, and prints per FIFO its "
        + "producer, consumer, cores, bytes per iteration, class, strategy and the reason, then the totals: bytes "
        + "copied per iteration by the baseline (PREESM-like plain copies) and by this plan, buffer memory, and the "
        + "memory of the program generate would write (per core, pools, copies in flight, the largest buffers) against "
        + "what it may use (the target's 'memory', or --max-memory).", ""},
    optionListHeading = "%noptions:%n", parameterListHeading = "%n",
    footer = {"", "Names are those of 'cacheflow inspect': actors relative to the top graph, hierarchy joined with "
        + "'/', FIFO ends actor.port. How auto decides: docs/plan.md."})
public final class PlanCommand extends CliCommand {

  /** The target used without {@code --target}: the machine this project is developed on. */
  static final String DEFAULT_TARGET = GenerateOptions.DEFAULT_TARGET;

  @Mixin
  InputOptions input = new InputOptions();

  @Mixin
  ProfileOption profile = new ProfileOption();

  @Mixin
  InputOptions.Platform platform = new InputOptions.Platform();

  @Mixin
  InputOptions.Mapping mapping = new InputOptions.Mapping();

  @Option(names = "--strategy", paramLabel = "S", descriptionKey = "strategy")
  String strategy = StrategyPreset.DEFAULT.label;

  @Mixin
  ScheduleOptions schedule = new ScheduleOptions();

  @Option(names = "--override", paramLabel = "X", descriptionKey = "override")
  List<String> overrides = new ArrayList<>();

  /** The target file format, for --target's help. */
  private static final String TARGET_FILE_FORMAT = String.join("%n", List.of(
      "  base = zen4-vm      # start from a profile (default generic)",
      "  name = my-board",
      "  l1d = 32K           # per-core L1 data cache; sizes in bytes or K/M/G (x1024)",
      "  l2 = 1M             # per-core L2",
      "  llc = 32M           # shared last-level cache",
      "  line = 64",
      "  page = 4K",
      "  cores = 2",
      "  memory = 4G         # what a program may use; generate refuses larger",
      "                      # ones (--max-memory overrides it)",
      "  cow.readonly.min = 64K    # break-even sizes used by auto",
      "  cow.readmostly.min = 256K",
      "  ntm.min = 1M",
      "  prestore.max = 4K",
      "  handoff.ns = 400          # one cross-core hand-off (rdy-ack flag)",
      "  transfer.ns = 3           # one line of a cross-core buffer",
      "  transfer.spanning.ns = 0.5  # one line of a merge group whose",
      "                            # slots span the L2",
      "  timing.ns = 0.4           # ns per unit of the scenario's timings",
      "                            # (0: unknown; then no core count check,",
      "                            # and nodes' network model in ns)"));

  @Option(names = "--target", paramLabel = "T", descriptionKey = "target")
  String target = DEFAULT_TARGET;

  @Option(names = "--json", description = "print JSON: {\"fifos\": [{\"source\", \"targets\", \"bytes\", "
      + "\"class\", \"strategy\", \"reason\", ..., \"buffers\": [...]}], \"totals\": {\"baselineBytesCopied\", "
      + "\"planBytesCopied\", \"footprintBytes\", ...}, \"copyOnWrite\": {\"views\", \"sources\", "
      + "\"pagesShared\", \"perCore\": [{\"core\", \"views\", \"pagesShared\"}]}, ...}; bytes per graph iteration")
  boolean json;

  @Option(names = "--report", paramLabel = "DIR", description = "also write DIR/plan.json, plan.md, graph.dot, "
      + "graph.svg (FIFOs coloured by strategy) and gantt.svg (the per-core schedule)")
  Path report;

  @Override
  protected Map<String, String> texts() {
    return Map.of("strategy", strategies(), "override", overrideHelp("a per-FIFO strategy 'P=S': P is a FIFO "
        + "end 'actor.port' (glob * and ? allowed), S one of " + org.cacheflow.plan.strategy.StrategyOverride.NAMES
        + " (:K: K slots)"),
        "target", "cache description: a built-in profile (" + builtInTargets()
        + ") or a file of 'key = value' lines (or one flat JSON object):%n" + TARGET_FILE_FORMAT);
  }

  /** The planner modes {@code plan --strategy} accepts, one line of help each. */
  static String strategies() {
    StringBuilder text = new StringBuilder(String.join(" | ", StrategyPreset.plannerModes().stream()
        .map(preset -> preset.label).toList()) + " (default " + StrategyPreset.DEFAULT.label + ")");
    for (StrategyPreset preset : StrategyPreset.plannerModes()) {
      text.append("%n").append(wrap(String.format("  %-12s %s", preset.label, preset.help)));
    }
    return text.toString();
  }

  @Override
  public Integer call() {
    Input what = profile.apply(input.input("graph, SDF3 file or project directory"));
    StrategyPreset preset = StrategyPreset.byLabel(strategy).filter(StrategyPreset::followsPlan)
        .orElseThrow(() -> new UsageException("unknown strategy '" + strategy + "' (known: " + String.join(", ",
            StrategyPreset.plannerModes().stream().map(mode -> mode.label).toList()) + ")"));
    MappingPolicy policy = mapping.policy();
    PlanOptions options;
    try {
      options = new PlanOptions(what, platform.options(), preset, policy, List.of(), target, report)
          .withOverrideTexts(overrides);
    } catch (org.cacheflow.pipeline.OptionException e) {
      throw new UsageException(e.getMessage());
    }
    RunSchedule chosen = schedule.schedule();
    PlanResult result = new Pipeline(progress()).plan(options);
    // what generate does with the choice (it plans a dispatched schedule on one core, keeping merges and non-temporal
    // copies)
    Pipeline.scheduleNotes(chosen, preset, result.plan().platform().size(), options.slots())
        .forEach(n -> err.println("note: " + n));
    if (!result.reportFiles().isEmpty()) {
      err.println("report written to " + PathText.display(report) + ": " + String.join(", ",
          result.reportFiles().stream().map(p -> report.relativize(p).toString()).toList()));
    }
    if (!result.variants().isEmpty()) {
      out.print(json ? JsonText.print(VariantReport.document(result.variants(), true))
          : variantsText(result));
      return Main.OK;
    }
    out.print(json ? JsonText.print(json(result)) : toText(result.input(), result.plan()) + memoryText(result));
    return Main.OK;
  }

  /** The variants' table, then each variant's plan as a graph without dynamic parameters prints. */
  private static String variantsText(PlanResult result) {
    StringBuilder text = new StringBuilder(String.join("\n", VariantReport.lines(result.variants()))).append('\n');
    for (int i = 0; i < result.variants().size(); i++) {
      VariantReport.Row row = result.variants().get(i);
      text.append("\nvariant ").append(i + 1).append(": ").append(row.label()).append('\n')
          .append(toText(result.input(), row.plan()));
      if (row.memory() != null) {
        text.append(String.join("\n", MemoryText.lines(row.memory(), result.memoryLimit().bytes(),
            result.memoryLimit().source()))).append('\n');
      }
    }
    return text.toString();
  }

  /** The plan's JSON with the program's memory ({@code memory}) when generate could write the program. */
  private static Map<String, Object> json(PlanResult result) {
    Map<String, Object> json = new LinkedHashMap<>(PlanJson.toJson(result.plan(), true, false));
    if (result.memory() != null) {
      json.put("memory", MemoryText.json(result.memory(), result.memoryLimit().bytes()));
    }
    return json;
  }

  /** The lines of the program's memory, when generate could write the program. */
  private static String memoryText(PlanResult result) {
    if (result.memory() == null) {
      return "";
    }
    return String.join("\n", MemoryText.lines(result.memory(), result.memoryLimit().bytes(),
        result.memoryLimit().source())) + "\n";
  }

  static String toText(LoadedInput loaded, MemoryPlan plan) {
    StringBuilder text = new StringBuilder();
    Schedule schedule = plan.schedule();
    text.append("plan for ").append(loaded.graph().getName()).append("  (").append(PathText.display(loaded.source()));
    if (loaded.scenarioFile() != null) {
      text.append(", scenario ").append(PathText.display(loaded.scenarioFile()));
    }
    text.append(")\n");
    text.append("strategy ").append(plan.strategy().label).append(", ").append(schedule.policy().label)
        .append(" mapping on ").append(PlatformOptions.describe(plan.platform())).append(", target ")
        .append(plan.target().describe()).append("\n");
    if (plan.platform().nodes() > 1) {
      text.append(partition(plan));
    }
    text.append("schedule: makespan ").append(schedule.makespan()).append(" time units;");
    for (int c = 0; c < schedule.coreCount(); c++) {
      text.append(c == 0 ? " " : ", ").append(plan.platform().core(c).name()).append(' ')
          .append(schedule.orderLength(c)).append(" firings, busy ").append(schedule.load(c));
    }
    text.append("\n\n");
    Table table = new Table("producer", "consumer", "cores", "bytes/iter", "class", "strategy", "reason");
    DecisionText words = DecisionText.of(plan);
    for (FifoPlan fifo : plan.fifos()) {
      table.row(fifo.source(), fifo.target(), cores(plan, fifo), Long.toString(fifo.bytes()), classes(fifo),
          String.join("+", fifo.bytesByStrategy().keySet()), words.fifo(plan, fifo));
    }
    text.append(plan.fifos().size()).append(" FIFOs (class and strategy: those of the FIFO's single-rate buffers, "
        + "most bytes first)\n").append(table.render("  ")).append('\n');
    PlanTotals totals = plan.totals();
    text.append(String.format(Locale.ROOT, "bytes copied per iteration: baseline %d (%s), this plan %d (%s)%s%n",
        totals.baselineBytesCopied(), Bytes.human(totals.baselineBytesCopied()), totals.planBytesCopied(),
        Bytes.human(totals.planBytesCopied()), totals.baselineBytesCopied() > 0
            ? String.format(Locale.ROOT, ", %.1f%% fewer", 100 * totals.copyReduction()) : ""));
    text.append(String.format(Locale.ROOT, "buffer memory: this plan %d (%s), baseline %d (%s)%n",
        totals.footprintBytes(), Bytes.human(totals.footprintBytes()), totals.baselineFootprintBytes(),
        Bytes.human(totals.baselineFootprintBytes())));
    PlanTotals preesm = plan.preesmTotals();
    text.append(String.format(Locale.ROOT, "reference preesm (PREESM's code with its memory scripts): bytes copied %d "
        + "(%s), buffer memory %d (%s)%n", preesm.planBytesCopied(), Bytes.human(preesm.planBytesCopied()),
        preesm.footprintBytes(), Bytes.human(preesm.footprintBytes())));
    MemoryPlan.CowSummary cow = plan.cowSummary();
    if (cow.views() > 0) {
      text.append(String.format(Locale.ROOT, "copy-on-write: %d views of %d memories, %d pages shared per iteration "
          + "(pages the consumers write are faulted and re-shared at run time, at most these; --validate counts "
          + "them)%n", cow.views(), cow.sources(), cow.pagesShared()));
      if (cow.perCore().size() > 1) {
        for (MemoryPlan.CoreViews core : cow.perCore()) {
          text.append(String.format(Locale.ROOT, "  read on %s: %d views, %d pages shared per iteration%n",
              core.core(), core.views(), core.pagesShared()));
        }
      }
    }
    return text.toString();
  }

  /**
   * The nodes of a plan on several nodes: each node's cores, firings and load, the bytes and messages each iteration
   * sends from node to node, and the predicted time of an iteration.
   */
  private static String partition(MemoryPlan plan) {
    NodePartition partition = plan.partition();
    Schedule schedule = plan.schedule();
    StringBuilder text = new StringBuilder("nodes:");
    for (int node = 0; node < partition.nodes(); node++) {
      List<String> cores = new ArrayList<>();
      int firings = 0;
      for (int core : plan.platform().coresOf(node)) {
        cores.add(plan.platform().core(core).name());
        firings += schedule.orderLength(core);
      }
      text.append(node == 0 ? " " : "; ").append("node ").append(node).append(" (").append(String.join(", ", cores))
          .append("): ").append(firings).append(" firings, load ").append(partition.load(node));
    }
    text.append(String.format(Locale.ROOT, "%nsent between nodes per iteration: %d bytes (%s) in %d message%s",
        partition.cutBytes(), Bytes.human(partition.cutBytes()), partition.cutMessages(),
        partition.cutMessages() == 1 ? "" : "s"));
    String separator = ": ";
    for (int from = 0; from < partition.nodes(); from++) {
      for (int to = 0; to < partition.nodes(); to++) {
        if (partition.messages(from, to) > 0) {
          text.append(String.format(Locale.ROOT, "%snode %d->%d %s in %d", separator, from, to,
              Bytes.human(partition.bytes(from, to)), partition.messages(from, to)));
          separator = ", ";
        }
      }
    }
    text.append('\n');
    text.append("predicted time per iteration: ").append(partition.predictedTime())
        .append(" time units (the schedule's makespan, network transfers included)\n");
    return text.toString();
  }

  private static String cores(MemoryPlan plan, FifoPlan fifo) {
    String producers = names(plan, fifo.producerCores());
    String consumers = names(plan, fifo.consumerCores());
    return !fifo.crossCore() && producers.equals(consumers) ? producers : producers + "->" + consumers;
  }

  private static String names(MemoryPlan plan, List<Integer> cores) {
    List<String> names = new ArrayList<>();
    for (int core : cores) {
      names.add(plan.platform().core(core).name());
    }
    return String.join(",", names);
  }

  private static String classes(FifoPlan fifo) {
    List<String> labels = new ArrayList<>();
    for (BufferClass c : fifo.bytesByClass().keySet()) {
      labels.add(c.label());
    }
    return String.join("+", labels) + (fifo.crossCore() ? " (cross-core)" : "");
  }
}
