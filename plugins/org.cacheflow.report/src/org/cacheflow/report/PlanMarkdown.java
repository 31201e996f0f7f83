package org.cacheflow.report;

import static org.cacheflow.plan.strategy.Bytes.human;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.cacheflow.plan.classify.BufferClass;
import org.cacheflow.plan.mapping.Core;
import org.cacheflow.plan.memoryplan.FifoPlan;
import org.cacheflow.plan.memoryplan.MemoryPlan;
import org.cacheflow.plan.memoryplan.PlanTotals;
import org.cacheflow.plan.schedule.Schedule;
import org.cacheflow.plan.strategy.Strategy;
import org.cacheflow.plan.strategy.TargetCache;

/** {@code plan.md}: the plan explained for someone who has never seen cacheflow. */
public final class PlanMarkdown {

  private PlanMarkdown() {
  }

  public static String render(MemoryPlan plan) {
    StringBuilder md = new StringBuilder();
    Schedule schedule = plan.schedule();
    DecisionText words = DecisionText.of(plan);
    md.append(summary(plan));
    md.append(howToRead(plan));
    md.append("## FIFOs\n\n");
    md.append("| FIFO | bytes | cores | class | strategy | copied (baseline → plan) | why |\n");
    md.append("|---|---:|---|---|---|---|---|\n");
    for (FifoPlan fifo : plan.fifos()) {
      md.append("| `").append(fifo.source()).append("` → `").append(fifo.target()).append("` | ")
          .append(human(fifo.bytes())).append(" | ").append(cores(plan, fifo)).append(" | ")
          .append(classes(fifo)).append(" | ").append(strategies(fifo)).append(" | ")
          .append(human(fifo.baselineBytesCopied())).append(" → ").append(human(fifo.planBytesCopied())).append(" | ")
          .append(cell(words.fifo(plan, fifo))).append(" |\n");
    }
    md.append("\nPer-buffer details (each single-rate buffer's class, strategy, cores and reuse distances) are in "
        + "`plan.json`.\n\n");

    if (NodeReport.shown(plan)) {
      md.append(NodeReport.section(plan));
    }
    md.append("## Schedule\n\n");
    md.append("![Gantt chart of the static schedule](gantt.svg)\n\n");
    md.append("| core | firings | busy time | busy |\n|---|---:|---:|---:|\n");
    long makespan = Math.max(1, schedule.makespan());
    for (Core core : plan.platform().cores()) {
      long load = schedule.load(core.index());
      md.append("| ").append(core.name()).append(" | ").append(schedule.orderLength(core.index())).append(" | ")
          .append(load).append(" | ").append(String.format(Locale.ROOT, "%.0f%%", 100.0 * load / makespan))
          .append(" |\n");
    }
    md.append("\n## Graph\n\n");
    md.append("![The graph, FIFOs coloured by strategy](graph.svg)\n\n");
    md.append("Edges are FIFOs of the flattened graph, coloured by the strategy applied to most of their bytes and "
        + "thicker the more bytes they carry; hover an edge for details. `graph.dot` is the same graph for "
        + "Graphviz (`dot -Tsvg graph.dot -o graph-dot.svg`).\n");
    if (!plan.notes().isEmpty()) {
      md.append("\n## Notes\n\n");
      for (String note : words.notes()) {
        md.append("- ").append(cell(note)).append('\n');
      }
    }
    return md.toString();
  }

  /** The rows of the reference, {@code preesm}: its bytes copied and buffer memory, this plan's against them. */
  private static String preesmRows(PlanTotals totals, PlanTotals preesm) {
    StringBuilder md = new StringBuilder();
    md.append("| bytes copied, preesm (the reference) | ").append(human(preesm.planBytesCopied())).append(" (")
        .append(preesm.planBytesCopied()).append(" B)");
    if (preesm.planBytesCopied() > 0) {
      md.append(String.format(Locale.ROOT, "; this plan %.1f%% fewer",
          100 * (1 - (double) totals.planBytesCopied() / preesm.planBytesCopied())));
    }
    md.append(" |\n| buffer memory, preesm / this plan | ").append(human(preesm.footprintBytes())).append(" / ")
        .append(human(totals.footprintBytes())).append(" |\n");
    return md.toString();
  }

  /** The title, what was planned and the totals. */
  private static String summary(MemoryPlan plan) {
    StringBuilder md = new StringBuilder();
    String graph = plan.srdag().flatGraph().name();
    Schedule schedule = plan.schedule();
    PlanTotals totals = plan.totals();
    TargetCache target = plan.target();
    md.append("# Memory plan for `").append(graph).append("`\n\n");
    md.append("cacheflow turned the dataflow graph `").append(graph).append("` into a single-rate graph of ")
        .append(plan.srdag().vertexCount()).append(" actor firings and helper vertices and ")
        .append(plan.srdag().edgeCount()).append(" buffers, mapped it onto ").append(schedule.coreCount())
        .append(" cores, and decided for every buffer how its data moves through the caches. ")
        .append("All figures are per iteration of the graph.\n\n");
    md.append("| | |\n|---|---|\n");
    md.append("| strategy | `").append(plan.strategy().label).append("` |\n");
    md.append("| mapping | ").append(schedule.policy().label).append(" (").append(policyText(schedule))
        .append(") |\n");
    md.append("| target | ").append(target.describe()).append(" |\n");
    md.append("| makespan | ").append(schedule.makespan()).append(" time units (scenario units) |\n");
    if (NodeReport.shown(plan)) {
      md.append(NodeReport.summaryRows(plan));
    }
    md.append("| bytes copied, baseline | ").append(human(totals.baselineBytesCopied())).append(" (")
        .append(totals.baselineBytesCopied()).append(" B) |\n");
    md.append("| bytes copied, this plan | ").append(human(totals.planBytesCopied())).append(" (")
        .append(totals.planBytesCopied()).append(" B)").append(totals.baselineBytesCopied() > 0
            ? String.format(Locale.ROOT, ", %.1f%% fewer", 100 * totals.copyReduction()) : "").append(" |\n");
    md.append("| buffer memory, baseline / this plan | ").append(human(totals.baselineFootprintBytes())).append(" / ")
        .append(human(totals.footprintBytes())).append(" |\n");
    md.append(preesmRows(totals, plan.preesmTotals()));
    org.cacheflow.plan.memoryplan.MemoryPlan.CowSummary cow = plan.cowSummary();
    md.append("| copy-on-write | ").append(cow.views()).append(" views of ").append(cow.sources())
        .append(" memories, ").append(cow.pagesShared()).append(" pages shared")
        .append(perCore(cow)).append("; faulted and re-shared: counted at run time (`--validate`, per core), at most "
            + "the pages shared |\n\n");
    md.append("*preesm*, the reference, is what PREESM's generated code does with its memory scripts: the buffers "
        + "they merge share memory, every other broadcast, fork, join and round buffer copies its data with memcpy. ");
    md.append("*Baseline* is what PREESM's generated code does without them: every buffer in its own memory, and "
        + "every broadcast, fork, join and round buffer copies its data with memcpy. Copy-on-write views count as no "
        + "copy here: the pages their consumers write are copied at run time and are not known in advance.\n\n");

    return md.toString();
  }

  /** What the classes and strategies mean. */
  private static String howToRead(MemoryPlan plan) {
    StringBuilder md = new StringBuilder();
    md.append("## How to read this\n\n");
    md.append("Each buffer gets one **class** (what its users do with it):\n\n");
    md.append("- **aliased** — memory scripts merged it with other buffers: they share memory, nothing is copied;\n");
    md.append("- **read-mostly** — its consumers may write it, but rarely (e.g. a broadcast output);\n");
    md.append("- **private** — its consumer needs its own copy (it writes it), or only its own actor uses it;\n");
    md.append("- **write-mostly** — written by its producer, which does not read it again.\n\n");
    md.append("A buffer whose producer and consumer run on different cores is also **cross-core**. Each buffer then "
        + "gets a **strategy**:\n\n");
    List<Strategy> strategies = new ArrayList<>(List.of(Strategy.values()));
    if (plan.platform().nodes() == 1) {
      strategies.remove(Strategy.SEND);
    }
    for (Strategy strategy : strategies) {
      String text = strategyText(strategy);
      boolean last = strategy == strategies.get(strategies.size() - 1);
      md.append("- `").append(strategy.label).append("` — ").append(last ? text.substring(0, text.length() - 1) + "."
          : text).append('\n');
    }
    md.append(plan.target().costs().figures() == null ? "\n`docs/plan.md` in cacheflow explains the rules.\n\n"
        : "\nThe reasons below quote the measurements they rest on (the runtime's benchmarks `bench_cow`, "
            + "`bench_ntm_copy`, `bench_prestore`, and the machine baseline). `docs/plan.md` in cacheflow explains "
            + "the rules.\n\n");

    return md.toString();
  }

  private static String policyText(Schedule schedule) {
    return switch (schedule.policy()) {
      case LOAD_BALANCE -> "each firing on the core where it finishes first";
      case LOCALITY -> "like load balancing, but consumers of large buffers stay with their producer when the load "
          + "allows";
    };
  }

  static String strategyText(Strategy strategy) {
    return switch (strategy) {
      case ALIAS -> "it lives in its merge group's memory: no copy, no memory of its own;";
      case DIRECT -> "the producer writes it and the consumer reads the same memory: no copy;";
      case MEMCPY -> "a broadcast, fork, join or round buffer copies it with memcpy (what PREESM does);";
      case COW -> "the consumer gets a copy-on-write view of the source: a page is copied only if written;";
      case NTM -> "the copy is made with non-temporal (streaming) stores, so it does not evict the copier's data;";
      case PRESTORE -> "after writing, the lines are demoted (re-written soon), cleaned (re-read soon) or the cache is "
          + "skipped (neither), as the pre-stores paper prescribes;";
      case CHANNEL -> "a home-forwarded rdy-ack channel with k slots, homed at the consumer's core, filled and read in "
          + "place;";
      case SEND -> "producer and consumer run on different nodes: the producer's node sends the buffer over MPI, the "
          + "consumer reads its own copy;";
    };
  }

  private static String cores(MemoryPlan plan, FifoPlan fifo) {
    String producers = names(plan, fifo.producerCores());
    String consumers = names(plan, fifo.consumerCores());
    return producers.equals(consumers) && !fifo.crossCore() ? producers : producers + " → " + consumers;
  }

  private static String names(MemoryPlan plan, List<Integer> cores) {
    List<String> names = new ArrayList<>();
    for (int core : cores) {
      names.add(plan.platform().core(core).name());
    }
    return String.join(", ", names);
  }

  private static String classes(FifoPlan fifo) {
    List<String> parts = new ArrayList<>();
    for (Map.Entry<BufferClass, Long> entry : fifo.bytesByClass().entrySet()) {
      parts.add(entry.getKey().label());
    }
    return String.join(" + ", parts) + (fifo.crossCore() ? ", cross-core" : "");
  }

  private static String strategies(FifoPlan fifo) {
    List<String> parts = new ArrayList<>();
    for (String label : fifo.bytesByStrategy().keySet()) {
      parts.add("`" + label + "`");
    }
    return String.join(" + ", parts);
  }

  private static String cell(String text) {
    return text.replace("|", "\\|").replace("\n", " ");
  }

  /** " (Core0: 2 views, 40 pages; Core1: ...)" when views are read on several cores, else nothing. */
  static String perCore(org.cacheflow.plan.memoryplan.MemoryPlan.CowSummary cow) {
    if (cow.perCore().size() < 2) {
      return "";
    }
    List<String> cores = new ArrayList<>();
    for (org.cacheflow.plan.memoryplan.MemoryPlan.CoreViews core : cow.perCore()) {
      cores.add(core.core() + ": " + core.views() + " views, " + core.pagesShared() + " pages");
    }
    return " (" + String.join("; ", cores) + ")";
  }
}
