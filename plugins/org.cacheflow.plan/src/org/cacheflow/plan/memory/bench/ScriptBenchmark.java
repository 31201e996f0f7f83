package org.cacheflow.plan.memory.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.cacheflow.io.pisdf.PiReader;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.plan.analysis.AnalysisResult;
import org.cacheflow.plan.analysis.GraphAnalysis;
import org.cacheflow.plan.memory.MemoryScripts;
import org.cacheflow.plan.memory.ScriptReport;
import org.cacheflow.plan.srdag.SingleRateExpansion;
import org.cacheflow.plan.srdag.Srdag;

/**
 * Times the memory scripts of the corpus graph with the largest single-rate graph among those that have
 * scripts to run (forks, joins, broadcasts, roundbuffers or actors with a memory script): building the
 * environments, evaluating every script and checking the results; merging is timed apart. Runs are
 * warm (after {@value #WARMUP_RUNS} unmeasured ones); the table gives median, minimum and maximum.
 *
 * <pre>
 * java -cp CLASSPATH org.cacheflow.plan.memory.bench.ScriptBenchmark [--runs N] [--csv FILE] [--corpus DIR]
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

  /** A candidate graph. */
  private record Candidate(Path graph, Path project, Srdag srdag, int scripted) {
  }

  public static void main(String[] args) {
    int runs = 10;
    Path csv = null;
    String corpus = System.getProperty("cacheflow.corpus");
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--runs" -> runs = Integer.parseInt(value(args, ++i));
        case "--csv" -> csv = Path.of(value(args, ++i));
        case "--corpus" -> corpus = value(args, ++i);
        default -> {
          System.err.println("usage: ScriptBenchmark [--runs N] [--csv FILE] [--corpus DIR]");
          System.exit(2);
        }
      }
    }
    if (corpus == null || !Files.isDirectory(Path.of(corpus, "preesm-apps"))) {
      System.err.println("error: no corpus (give --corpus DIR or -Dcacheflow.corpus=DIR)");
      System.exit(1);
    }
    Candidate largest = largest(Path.of(corpus, "preesm-apps"));
    if (largest == null) {
      System.err.println("error: no corpus graph could be expanded");
      System.exit(1);
    }
    MemoryScripts.Options evaluateOnly = MemoryScripts.Options.defaults();
    double[] total = new double[runs];
    double[] merging = new double[runs];
    ScriptReport report = null;
    for (int run = -WARMUP_RUNS; run < runs; run++) {
      report = MemoryScripts.evaluate(largest.srdag(), largest.project(), evaluateOnly, new Diagnostics());
      if (run >= 0) {
        total[run] = report.evaluationNanos() / 1e6;
        merging[run] = report.mergeNanos() / 1e6;
      }
    }
    Arrays.sort(total);
    Arrays.sort(merging);
    String graph = largest.project().relativize(largest.graph()).toString();
    String name = largest.project().getFileName() + "/" + graph;
    System.out.printf(Locale.ROOT, "%-50s %9s %9s %12s %10s %9s %9s %12s%n", "graph", "vertices", "scripted",
        "saved bytes", "median ms", "min ms", "max ms", "merge med ms");
    System.out.printf(Locale.ROOT, "%-50s %9d %9d %12d %10.1f %9.1f %9.1f %12.1f%n", name,
        largest.srdag().vertexCount(), report.instances().size(), report.bytesSaved(), total[runs / 2], total[0],
        total[runs - 1], merging[runs / 2]);
    System.out.println("(ms: environments, evaluation of every script and checks; merging apart; warm, " + runs
        + " runs)");
    if (csv != null) {
      String text = "graph,vertices,scripted,saved_bytes,median_ms,min_ms,max_ms,merge_median_ms\n"
          + String.format(Locale.ROOT, "%s,%d,%d,%d,%.3f,%.3f,%.3f,%.3f%n", name, largest.srdag().vertexCount(),
              report.instances().size(), report.bytesSaved(), total[runs / 2], total[0], total[runs - 1],
              merging[runs / 2]);
      try {
        Files.writeString(csv, text);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** The corpus graph with the most scripted single-rate vertices. */
  static Candidate largest(Path apps) {
    List<Path> graphs;
    try (Stream<Path> files = Files.walk(apps)) {
      graphs = files.filter(f -> f.toString().endsWith(".pi") && f.getParent().getFileName().toString().equals("Algo"))
          .sorted().collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Candidate best = null;
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
        if (best == null || scripted > best.scripted()) {
          best = new Candidate(graph, project, srdag, scripted);
        }
      } catch (InputException | IllegalArgumentException e) {
        // graphs the analysis refuses (inconsistent, missing sub-graphs) are not candidates
      }
    }
    return best;
  }

  private static String value(String[] args, int index) {
    if (index >= args.length) {
      System.err.println("error: " + args[index - 1] + " needs a value");
      System.exit(2);
    }
    return args[index];
  }
}
