package org.cacheflow.bench.plan;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.analysis.FlatGraph;
import org.cacheflow.analysis.GraphAnalysis;
import org.cacheflow.plan.mapping.MappingInputs;
import org.cacheflow.plan.mapping.MappingPolicy;
import org.cacheflow.plan.mapping.Platform;
import org.cacheflow.plan.memoryplan.MemoryPlan;
import org.cacheflow.plan.memoryplan.MemoryPlanner;
import org.cacheflow.plan.memoryplan.PlanRequest;
import org.cacheflow.plan.schedule.ListScheduler;
import org.cacheflow.plan.schedule.Schedule;
import org.cacheflow.analysis.srdag.SingleRateExpansion;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.plan.strategy.GlobalStrategy;
import org.cacheflow.plan.strategy.TargetCache;

/**
 * Times scheduling and planning on generated graphs ({@link GeneratedGraphs}) of 10^3 to 10^5 single-rate
 * vertices on 4 cores: the list scheduler alone (load balancing and locality), and the whole plan ({@code auto}:
 * schedule, classification, reuse distances, strategies, per-FIFO summaries). Each measurement is repeated after
 * warm-up runs; the table gives the median [min-max] and the cost per vertex, which stays flat when the cost
 * grows linearly (the scheduler's priority queue adds a log factor).
 *
 * <pre>
 * java -Xmx2g -cp CLASSPATH org.cacheflow.bench.plan.PlanBenchmark [--quick] [--runs N] [--cores N] [--csv FILE]
 * </pre>
 *
 * {@code --quick} measures 10^3, 10^4 and 10^5 vertices with 3 runs; otherwise also 3 x 10^3 and 3 x 10^4, with
 * 5 runs. The classpath is the plan, io, scripts and model bundles with EMF and the ANTLR runtime.
 */
public final class PlanBenchmark {

  private static final int WARMUP_RUNS = 2;

  /** One measured row. */
  record Row(String graph, int vertices, int edges, String task, double[] ms) {

    double median() {
      return ms[ms.length / 2];
    }

    double nsPerVertex() {
      return median() * 1e6 / vertices;
    }
  }

  private PlanBenchmark() {
  }

  public static void main(String[] args) {
    BenchOptions options = BenchOptions.parseOrExit("usage: PlanBenchmark [--quick] [--runs N] [--cores N] [--csv "
        + "FILE]",
        args, List.of("--quick"), List.of("--runs", "--cores", "--csv"));
    if (options == null) {
      return;
    }
    boolean quick = options.flag("--quick");
    int runs = options.positiveOrExit("--runs", quick ? 3 : 5);
    int cores = options.positiveOrExit("--cores", 4);
    Path csv = options.path("--csv");
    long[] sizes = quick ? new long[] {1_000, 10_000, 100_000} : new long[] {1_000, 3_000, 10_000, 30_000, 100_000};
    PrintStream out = System.out;
    out.printf(Locale.ROOT, "scheduling and planning benchmark: %d cores, %d runs (+%d warm-up), median [min-max]%n",
        cores, runs, WARMUP_RUNS);
    List<Row> rows = new ArrayList<>();
    for (GeneratedGraphs.Family family : GeneratedGraphs.Family.values()) {
      for (long size : sizes) {
        FlatGraph flat = GraphAnalysis.analyse(family.build(family.parameterFor(size)), Map.of(), new Diagnostics())
            .flatGraph();
        Srdag srdag = SingleRateExpansion.expand(flat);
        MappingInputs inputs = MappingInputs.defaults(flat, Platform.generic(cores));
        String name = family.name().toLowerCase(Locale.ROOT).replace('_', '-');
        rows.add(measure(name, srdag, "schedule (load)", runs,
            () -> ListScheduler.schedule(srdag, inputs, MappingPolicy.LOAD_BALANCE, 32 << 10)));
        rows.add(measure(name, srdag, "schedule (locality)", runs,
            () -> ListScheduler.schedule(srdag, inputs, MappingPolicy.LOCALITY, 32 << 10)));
        rows.add(measure(name, srdag, "plan (auto)", runs, () -> MemoryPlanner.plan(srdag,
            PlanRequest.of(inputs, TargetCache.ZEN4_VM).withStrategy(GlobalStrategy.AUTO))));
        for (Row row : rows.subList(rows.size() - 3, rows.size())) {
          print(out, row);
        }
      }
    }
    out.println();
    out.println("scaling: cost per vertex at the largest size / at 10^4 vertices (1.0 = linear)");
    for (GeneratedGraphs.Family family : GeneratedGraphs.Family.values()) {
      String name = family.name().toLowerCase(Locale.ROOT).replace('_', '-');
      for (String task : List.of("schedule (load)", "schedule (locality)", "plan (auto)")) {
        Row mid = null;
        Row last = null;
        for (Row row : rows) {
          if (row.graph().equals(name) && row.task().equals(task)) {
            if (mid == null && row.vertices() >= 9_000) {
              mid = row;
            }
            last = row;
          }
        }
        if (mid != null && last != null) {
          out.printf(Locale.ROOT, "  %-18s %-20s %.2f%n", name, task, last.nsPerVertex() / mid.nsPerVertex());
        }
      }
    }
    if (csv != null) {
      BenchOptions.writeCsv(csv, csv(rows), out);
    }
  }

  private static Row measure(String graph, Srdag srdag, String task, int runs, Supplier<Object> work) {
    Object keep = null;
    for (int i = 0; i < WARMUP_RUNS; i++) {
      keep = work.get();
    }
    double[] ms = new double[runs];
    for (int i = 0; i < runs; i++) {
      long start = System.nanoTime();
      keep = work.get();
      ms[i] = (System.nanoTime() - start) / 1e6;
    }
    check(keep);
    Arrays.sort(ms);
    return new Row(graph, srdag.vertexCount(), srdag.edgeCount(), task, ms);
  }

  /** Uses the result, so the work cannot be optimised away, and checks it is whole. */
  private static void check(Object result) {
    if (result instanceof Schedule schedule && schedule.makespan() <= 0) {
      throw new IllegalStateException("empty schedule");
    }
    if (result instanceof MemoryPlan plan && plan.buffers().size() != plan.srdag().edgeCount()) {
      throw new IllegalStateException("incomplete plan");
    }
  }

  private static void print(PrintStream out, Row row) {
    out.printf(Locale.ROOT, "  %-18s %8d vertices %8d edges  %-20s %9.2f ms [%.2f-%.2f]  %7.0f ns/vertex%n",
        row.graph(), row.vertices(), row.edges(), row.task(), row.median(), row.ms()[0], row.ms()[row.ms().length - 1],
        row.nsPerVertex());
  }

  private static String csv(List<Row> rows) {
    StringBuilder text = new StringBuilder("graph,vertices,edges,task,median_ms,min_ms,max_ms,ns_per_vertex\n");
    for (Row row : rows) {
      text.append(String.format(Locale.ROOT, "%s,%d,%d,\"%s\",%.3f,%.3f,%.3f,%.1f%n", row.graph(), row.vertices(),
          row.edges(), row.task(), row.median(), row.ms()[0], row.ms()[row.ms().length - 1], row.nsPerVertex()));
    }
    return text.toString();
  }
}
