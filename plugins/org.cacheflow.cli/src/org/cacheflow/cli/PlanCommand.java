package org.cacheflow.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.cacheflow.cli.InputLoader.LoadedInput;
import org.cacheflow.io.scenario.ScenarioFile;
import org.cacheflow.io.scenario.ScenarioReader;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.plan.analysis.AnalysisResult;
import org.cacheflow.plan.analysis.GraphAnalysis;
import org.cacheflow.plan.classify.BufferClass;
import org.cacheflow.plan.classify.ScriptMemoryFacts;
import org.cacheflow.plan.mapping.MappingInputs;
import org.cacheflow.plan.mapping.MappingPolicy;
import org.cacheflow.plan.mapping.Platform;
import org.cacheflow.plan.memory.ScriptReport;
import org.cacheflow.plan.memoryplan.FifoPlan;
import org.cacheflow.plan.memoryplan.MemoryPlan;
import org.cacheflow.plan.memoryplan.MemoryPlanner;
import org.cacheflow.plan.memoryplan.PlanRequest;
import org.cacheflow.plan.memoryplan.PlanTotals;
import org.cacheflow.plan.partition.NodePartition;
import org.cacheflow.plan.report.JsonText;
import org.cacheflow.plan.report.PlanJson;
import org.cacheflow.plan.report.ReportWriter;
import org.cacheflow.plan.schedule.Schedule;
import org.cacheflow.plan.srdag.SingleRateExpansion;
import org.cacheflow.plan.srdag.Srdag;
import org.cacheflow.plan.strategy.Bytes;
import org.cacheflow.plan.strategy.GlobalStrategy;
import org.cacheflow.plan.strategy.OverrideException;
import org.cacheflow.plan.strategy.StrategyOverride;
import org.cacheflow.plan.strategy.TargetCache;

/**
 * {@code cacheflow plan}: map and schedule a graph, classify every buffer, choose how its data moves through
 * the caches, and explain the decision.
 */
public final class PlanCommand implements Command {

  /** The target used without {@code --target}: the machine this project is developed on. */
  static final String DEFAULT_TARGET = "zen4-vm";

  @Override
  public String name() {
    return "plan";
  }

  @Override
  public String summary() {
    return "map, schedule and plan every FIFO's memory strategy; print or report why";
  }

  @Override
  public String help() {
    return """
        usage: cacheflow plan <graph.pi | sdf3.xml | project-dir> [--scenario F] [--param NAME=VALUE]...
                              [--cores N] [--nodes N] [--policy load|locality] [--strategy S]
                              [--override 'actor.port=S']... [--target NAME|FILE] [--json] [--report DIR]

        Reads and expands the graph as 'cacheflow inspect' does, maps the single-rate graph onto the cores with a
        list scheduler (scenario timings balanced, mapping constraints respected), gives every buffer a class
        (aliased, read-mostly, private, write-mostly; and cross-core) and a strategy, and prints per FIFO its
        producer, consumer, cores, bytes per iteration, class, strategy and the reason, then the totals: bytes
        copied per iteration by the baseline (PREESM-like plain copies) and by this plan, and buffer memory.

        options:
          --scenario F        PREESM scenario (timings, constraints, sizes, parameters); see 'inspect --help'
          --param NAME=VALUE  override a parameter; repeatable
          --cores N           plan for N cores named Core0..CoreN-1 instead of the scenario's architecture
                              (default without an architecture: the target's core count); with --nodes,
                              the cores of each node
          --nodes N           plan for N nodes (machines, MPI processes) of --cores cores each (default:
                              the architecture's cores per node, else the target's); cores are numbered
                              node by node. See docs/multinode.md
          --policy P          load (default): each firing where it finishes first; locality: consumers of
                              buffers of at least the L1 size stay with their producer when the load allows
          --strategy S        baseline | cow | ntm | prestore | homeforward | auto (default)
                                baseline     plain copies everywhere, like PREESM's generated code
                                cow          copy-on-write views wherever a copy can be one
                                ntm          every copy with non-temporal stores
                                prestore     pre-store every written buffer (demote / clean / skip by reuse)
                                homeforward  every cross-core buffer becomes a home-forwarded channel
                                auto         per buffer, what the measured break-evens and reuse distances favour
          --override 'P=S'    per-FIFO strategy; P is a FIFO end 'actor.port' (glob * and ? allowed), S one of
                              alias, direct, memcpy, cow, ntm, prestore, prestore-demote, prestore-clean,
                              prestore-skip, channel, channel:K (K slots); repeatable, later ones win
          --target T          cache description: a built-in profile (zen4-vm (default), generic,
                              sapphire-rapids-vm) or a file of 'key = value' lines (or one flat JSON object):
                                base = zen4-vm      # start from a profile (default generic)
                                name = my-board
                                l1d = 32K           # per-core L1 data cache; sizes in bytes or K/M/G (x1024)
                                l2 = 1M             # per-core L2
                                llc = 32M           # shared last-level cache
                                line = 64
                                page = 4K
                                cores = 2
                                cow.readonly.min = 64K    # break-even sizes used by auto
                                cow.readmostly.min = 256K
                                ntm.min = 1M
                                prestore.max = 4K
                                handoff.ns = 400          # one cross-core hand-off (rdy-ack flag)
                                transfer.ns = 6           # one line of a cross-core buffer
                                timing.ns = 0.4           # ns per unit of the scenario's timings
                                                          # (0: unknown; then no core count check,
                                                          # and nodes' network model in ns)
          --json              print JSON: {"fifos": [{"source", "targets", "bytes", "class", "strategy",
                              "reason", ..., "buffers": [...]}], "totals": {"baselineBytesCopied",
                              "planBytesCopied", "footprintBytes", ...}, "copyOnWrite": {"views",
                              "sources", "pagesShared"}, ...}; bytes per graph iteration
          --report DIR        also write DIR/plan.json, plan.md, graph.dot, graph.svg (FIFOs coloured by
                              strategy) and gantt.svg (the per-core schedule)
          --help              this text

        Names are those of 'cacheflow inspect': actors relative to the top graph, hierarchy joined with '/',
        FIFO ends actor.port. How auto decides: docs/plan.md.
        """;
  }

  @Override
  public int run(List<String> args, PrintStream out, PrintStream err) {
    Arguments arguments = Arguments.parse(args, Set.of("--json"),
        Set.of("--scenario", "--param", "--cores", "--nodes", "--policy", "--strategy", "--override", "--target",
            "--report"));
    Path input = Path.of(arguments.single("graph, SDF3 file or project directory"));
    Path scenario = arguments.option("--scenario").map(Path::of).orElse(null);
    boolean json = arguments.flag("--json");
    PlatformOptions platformOptions = PlatformOptions.of(arguments);
    String strategyName = arguments.option("--strategy").orElse("auto");
    GlobalStrategy strategy = GlobalStrategy.byLabel(strategyName.toLowerCase(Locale.ROOT));
    if (strategy == null) {
      throw new UsageException("unknown strategy '" + strategyName + "' (known: " + GlobalStrategy.labels() + ")");
    }
    String policyName = arguments.option("--policy").orElse("load");
    MappingPolicy policy = MappingPolicy.byLabel(policyName.toLowerCase(Locale.ROOT));
    if (policy == null) {
      throw new UsageException("unknown mapping policy '" + policyName + "' (known: load, locality)");
    }
    List<StrategyOverride> overrides = new ArrayList<>();
    try {
      for (String text : arguments.all("--override")) {
        overrides.add(StrategyOverride.parse(text));
      }
    } catch (OverrideException e) {
      throw new UsageException(e.getMessage());
    }
    Path report = arguments.option("--report").map(Path::of).orElse(null);
    TargetCache target = TargetCache.resolve(arguments.option("--target").orElse(DEFAULT_TARGET));

    Diagnostics diagnostics = new Diagnostics();
    Progress progress = new Progress(err);
    progress.step("reading " + input);
    LoadedInput loaded = InputLoader.load(input, scenario, arguments.all("--param"), platformOptions.given(),
        diagnostics);
    if (scenario == null && loaded.scenarioFile() != null) {
      err.println("note: using scenario " + Paths.display(loaded.scenarioFile()) + " (choose another with --scenario)");
    }
    progress.step("analysing " + loaded.graph().getName());
    AnalysisResult analysis = GraphAnalysis.analyse(loaded.graph(), loaded.parameterOverrides(), diagnostics,
        progress);
    progress.step("expanding to a single-rate graph");
    Srdag srdag = SingleRateExpansion.expand(analysis, progress);

    Platform platform = platformOptions.platform(loaded.architecture(), target, target.cores(), false);
    List<String> specialOperators = List.of();
    if (loaded.scenarioFile() != null) {
      ScenarioFile file = ScenarioReader.readFile(loaded.scenarioFile(), new Diagnostics());
      specialOperators = file.specialVertexOperators();
    }
    MappingInputs inputs = MappingInputs.fromScenario(analysis.flatGraph(), platform, loaded.scenario(),
        specialOperators, diagnostics);
    progress.step("running memory scripts");
    ScriptReport scripts = loaded.memoryScripts(srdag, diagnostics);
    progress.step("planning");
    MemoryPlan plan;
    try {
      plan = MemoryPlanner.plan(srdag, PlanRequest.of(inputs, target).withPolicy(policy).withStrategy(strategy)
          .withOverrides(overrides).withFacts(ScriptMemoryFacts.of(srdag, scripts)).withProgress(progress));
    } catch (OverrideException e) {
      progress.done();
      throw new UsageException(e.getMessage());
    }
    List<Path> written = report == null ? List.of() : ReportWriter.write(plan, report);
    progress.done();

    for (Diagnostics.Warning warning : diagnostics.warnings()) {
      err.println("warning: " + warning);
    }
    for (String error : scripts.errors()) {
      err.println("warning: memory script: " + error + " (its merges and marks are left out)");
    }
    for (String note : plan.notes()) {
      err.println("note: " + note);
    }
    if (!written.isEmpty()) {
      err.println("report written to " + Paths.display(report) + ": " + String.join(", ",
          written.stream().map(p -> p.getFileName().toString()).toList()));
    }
    out.print(json ? JsonText.print(PlanJson.toJson(plan, true, false)) : toText(loaded, plan));
    return Main.OK;
  }

  static String toText(LoadedInput loaded, MemoryPlan plan) {
    StringBuilder text = new StringBuilder();
    Schedule schedule = plan.schedule();
    text.append("plan for ").append(loaded.graph().getName()).append("  (").append(Paths.display(loaded.source()));
    if (loaded.scenarioFile() != null) {
      text.append(", scenario ").append(Paths.display(loaded.scenarioFile()));
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
    for (FifoPlan fifo : plan.fifos()) {
      table.row(fifo.source(), fifo.target(), cores(plan, fifo), Long.toString(fifo.bytes()), classes(fifo),
          String.join("+", fifo.bytesByStrategy().keySet()), fifo.reason());
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
    MemoryPlan.CowSummary cow = plan.cowSummary();
    if (cow.views() > 0) {
      text.append(String.format(Locale.ROOT, "copy-on-write: %d views of %d memories, %d pages shared per iteration "
          + "(pages the consumers write are faulted and re-shared at run time, at most these; --validate counts "
          + "them)%n", cow.views(), cow.sources(), cow.pagesShared()));
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
