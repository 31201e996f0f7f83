package org.cacheflow.bench.scripts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.cacheflow.io.pisdf.PiReader;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.analysis.AnalysisResult;
import org.cacheflow.analysis.GraphAnalysis;
import org.cacheflow.bench.plan.BenchOptions;
import org.cacheflow.plan.memory.MemoryScripts;
import org.cacheflow.plan.memory.ScriptReport;
import org.cacheflow.analysis.srdag.SingleRateExpansion;
import org.cacheflow.analysis.srdag.Srdag;

/**
 * Times the memory scripts of two corpus graphs: the one with the largest single-rate graph (most vertices)
 * among those that have scripts to run (forks, joins, broadcasts, roundbuffers or actors with a memory
 * script), and, when it is another one, the one with the most scripted single-rate vertices. For each it
 * measures building the environments, evaluating every script and checking the results (the figure the
 * one-second target is about) and, apart, merging. Runs are warm (after {@value #WARMUP_RUNS} unmeasured
 * ones); the table gives median, minimum and maximum, and the ratio of merging to evaluation.
 *
 * <pre>
 * ./cacheflow bench scripts [--runs N] [--csv FILE] [--corpus DIR]
 * </pre>
 *
 * {@code --corpus} defaults to the system property {@code cacheflow.corpus}. Graphs whose expansion would
 * exceed {@value #MAX_FIRINGS} firings are skipped.
 */
public final class ScriptBenchmark {

  private static final int WARMUP_RUNS = 3;
  private static final long MAX_FIRINGS = 2_000_000;

  private ScriptBenchmark() {
  }

  /** A graph whose scripts can be timed. */
  record Candidate(Path graph, Path project, Srdag srdag, int scripted) {
  }

  /** The graphs to time: the largest single-rate graph, then the most scripted one if it differs. */
  record Choice(Candidate largest, Candidate mostScripted) {
    List<Candidate> distinct() {
      return largest == mostScripted ? List.of(largest) : List.of(largest, mostScripted);
    }
  }

  /** One measured graph: times in milliseconds, sorted. */
  record Row(String name, String why, int vertices, int scripted, long savedBytes, double[] evaluationMs,
      double[] mergeMs) {
  }

  public static void main(String[] args) {
    BenchOptions options = BenchOptions.parseOrExit(
        "usage: cacheflow bench scripts [--runs N] [--quick] [--csv FILE] [--corpus DIR]", args, List.of("--quick"),
        List.of("--runs", "--csv", "--corpus"));
    if (options == null) {
      return;
    }
    int runs = options.positiveOrExit("--runs", options.flag("--quick") ? 3 : 10);
    Path csv = options.path("--csv");
    String corpus = options.value("--corpus", System.getProperty("cacheflow.corpus"));
    if (corpus == null || !Files.isDirectory(Path.of(corpus, "preesm-apps"))) {
      System.err.println("error: no corpus (give --corpus DIR or -Dcacheflow.corpus=DIR)");
      System.exit(1);
    }
    Choice choice = choose(Path.of(corpus, "preesm-apps"));
    if (choice == null) {
      System.err.println("error: no corpus graph with memory scripts could be expanded");
      System.exit(1);
    }
    List<Row> rows = new ArrayList<>();
    for (Candidate candidate : choice.distinct()) {
      String why = candidate == choice.largest() ? "largest single-rate graph" : "most scripted vertices";
      rows.add(measure(candidate, why, runs));
    }
    System.out.print(table(rows, runs));
    if (csv != null) {
      BenchOptions.writeCsv(csv, csv(rows), System.out);
    }
  }

  /** Times one graph: {@code runs} warm evaluations of every script, merging timed apart. */
  static Row measure(Candidate candidate, String why, int runs) {
    double[] evaluation = new double[runs];
    double[] merging = new double[runs];
    ScriptReport report = null;
    for (int run = -WARMUP_RUNS; run < runs; run++) {
      report = MemoryScripts.evaluate(candidate.srdag(), candidate.project(), MemoryScripts.Options.defaults(),
          new Diagnostics());
      if (run >= 0) {
        evaluation[run] = report.evaluationNanos() / 1e6;
        merging[run] = report.mergeNanos() / 1e6;
      }
    }
    Arrays.sort(evaluation);
    Arrays.sort(merging);
    String name = candidate.project().getFileName() + "/" + candidate.project().relativize(candidate.graph());
    return new Row(name, why, candidate.srdag().vertexCount(), report.instances().size(), report.bytesSaved(),
        evaluation, merging);
  }

  static double median(double[] sorted) {
    int middle = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }

  static String table(List<Row> rows, int runs) {
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "%-52s %-26s %9s %9s %12s %10s %8s %8s %12s %7s%n", "graph", "chosen as",
        "vertices", "scripted", "saved bytes", "eval med", "min", "max", "merge med", "merge/eval"));
    for (Row row : rows) {
      double evaluation = median(row.evaluationMs());
      double merge = median(row.mergeMs());
      out.append(String.format(Locale.ROOT, "%-52s %-26s %9d %9d %12d %10.1f %8.1f %8.1f %12.1f %7.1fx%n",
          row.name(), row.why(), row.vertices(), row.scripted(), row.savedBytes(), evaluation, row.evaluationMs()[0],
          row.evaluationMs()[row.evaluationMs().length - 1], merge, evaluation > 0 ? merge / evaluation : 0));
    }
    out.append("(ms, warm, ").append(runs).append(" runs: eval = environments, every script and the match checks;"
        + " merge = buffer merging, apart)\n");
    return out.toString();
  }

  static String csv(List<Row> rows) {
    StringBuilder out = new StringBuilder(
        "graph,chosen_as,vertices,scripted,saved_bytes,eval_median_ms,eval_min_ms,eval_max_ms,merge_median_ms\n");
    for (Row row : rows) {
      double[] evaluation = row.evaluationMs();
      out.append(String.format(Locale.ROOT, "%s,%s,%d,%d,%d,%.3f,%.3f,%.3f,%.3f%n", row.name(), row.why(),
          row.vertices(), row.scripted(), row.savedBytes(), median(evaluation), evaluation[0],
          evaluation[evaluation.length - 1], median(row.mergeMs())));
    }
    return out.toString();
  }

  /** Among the PREESM graphs of {@code apps} that have scripts to run, the largest and the most scripted. */
  static Choice choose(Path apps) {
    List<Path> graphs;
    try (Stream<Path> files = Files.walk(apps)) {
      graphs = files.filter(f -> f.toString().endsWith(".pi") && f.getParent().getFileName().toString().equals("Algo"))
          .sorted().collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Candidate largest = null;
    Candidate mostScripted = null;
    for (Path graph : graphs) {
      try {
        Diagnostics quiet = new Diagnostics();
        AnalysisResult analysis = GraphAnalysis.analyse(PiReader.read(graph, quiet), Map.of(), quiet);
        if (analysis.flatGraph().totalFirings() > MAX_FIRINGS) {
          continue;
        }
        Srdag srdag = SingleRateExpansion.expand(analysis, null);
        Path project = graph.getParent().getParent();
        int scripted = MemoryScripts.evaluate(srdag, project, MemoryScripts.Options.defaults(), quiet).instances()
            .size();
        if (scripted == 0) {
          continue;
        }
        Candidate candidate = new Candidate(graph, project, srdag, scripted);
        if (largest == null || srdag.vertexCount() > largest.srdag().vertexCount()) {
          largest = candidate;
        }
        if (mostScripted == null || scripted > mostScripted.scripted()) {
          mostScripted = candidate;
        }
      } catch (InputException | IllegalArgumentException e) {
        // graphs the analysis refuses (inconsistent, missing sub-graphs) are not candidates
      }
    }
    return largest == null ? null : new Choice(largest, mostScripted);
  }
}
