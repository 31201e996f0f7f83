package org.cacheflow.bench.plan;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.stream.Stream;

import org.cacheflow.io.pisdf.PiReader;
import org.cacheflow.io.sdf3.Sdf3Reader;
import org.cacheflow.model.ActorKind;
import org.cacheflow.model.Graph;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.analysis.AnalysisResult;
import org.cacheflow.analysis.GraphAnalysis;
import org.cacheflow.analysis.srdag.SingleRateExpansion;
import org.cacheflow.analysis.srdag.Srdag;

/**
 * Times reading, flattening (with the consistency and liveness checks) and single-rate expansion: for the
 * corpus graph with the largest single-rate graph, and for generated graphs of 10^3 to 10^6 SRDAG vertices
 * ({@link GeneratedGraphs}). Each measurement is repeated; the table gives the median with the minimum and
 * maximum, and the expansion cost per vertex, which stays flat when expansion scales linearly.
 *
 * <pre>
 * java -Xmx2g -cp CLASSPATH org.cacheflow.bench.plan.ExpansionBenchmark [--quick] [--runs N] [--csv FILE]
 *     [--corpus DIR]
 * </pre>
 *
 * {@code --quick} stops at 10^5 vertices and does 3 runs; {@code --corpus} defaults to the system property
 * {@code cacheflow.corpus}, and the corpus part is skipped when there is none. The classpath is the plan,
 * io, scripts and model bundles with EMF (common, ecore, ecore.xmi) and the ANTLR runtime.
 */
public final class ExpansionBenchmark {

  private static final int WARMUP_RUNS = 2;

  /** One measured row. */
  record Row(String graph, long vertices, long edges, double[] readMs, double[] flattenMs, double[] expandMs) {
  }

  private ExpansionBenchmark() {
  }

  public static void main(String[] args) {
    BenchOptions options = BenchOptions.parseOrExit(
        "usage: ExpansionBenchmark [--quick] [--runs N] [--csv FILE] [--corpus DIR]", args, List.of("--quick"),
        List.of("--runs", "--csv", "--corpus"));
    if (options == null) {
      return;
    }
    boolean quick = options.flag("--quick");
    int runs = options.positiveOrExit("--runs", quick ? 3 : 5);
    Path csv = options.path("--csv");
    String corpus = options.value("--corpus", System.getProperty("cacheflow.corpus"));
    List<Row> rows = new ArrayList<>();
    PrintStream out = System.out;
    out.printf(Locale.ROOT, "single-rate expansion benchmark: %d runs (+%d warm-up), median [min-max]%n", runs,
        WARMUP_RUNS);
    long[] sizes = quick ? new long[] {1_000, 10_000, 100_000} : new long[] {1_000, 10_000, 100_000, 1_000_000};
    for (GeneratedGraphs.Family family : GeneratedGraphs.Family.values()) {
      for (long size : sizes) {
        rows.add(generated(family, size, runs));
      }
    }
    // measured last so that it runs on code the JIT has compiled too, listed first
    if (corpus != null && Files.isDirectory(Path.of(corpus))) {
      Row row = largestCorpusGraph(Path.of(corpus), runs);
      if (row != null) {
        rows.add(0, row);
      }
    } else {
      out.println("(no corpus directory: corpus row skipped)");
    }
    printTable(out, rows);
    if (csv != null) {
      BenchOptions.writeCsv(csv, csv(rows), out);
    }
  }

  // ---------------------------------------------------------------------------------------------------

  private static Row generated(GeneratedGraphs.Family family, long targetVertices, int runs) {
    long n = family.parameterFor(targetVertices);
    String name = family.name().toLowerCase(Locale.ROOT).replace('_', '-') + " N=" + n;
    return measure(name, runs, () -> family.build(n));
  }

  /**
   * Analyses every top-level graph of the corpus once (SDF3 files and PiSDF graphs without interfaces,
   * default parameters) and benchmarks the one with the most firings.
   */
  private static Row largestCorpusGraph(Path corpus, int runs) {
    List<Path> files = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(corpus)) {
      walk.filter(p -> p.toString().endsWith(".pi") || p.toString().endsWith(".xml") && p.toString().contains("sdf3"))
          .sorted().forEach(files::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Path largest = null;
    long largestFirings = -1;
    for (Path file : files) {
      try {
        Graph graph = read(file);
        boolean subgraph = graph.getActors().stream().anyMatch(actor -> actor.getKind() == ActorKind.SOURCE_INTERFACE
            || actor.getKind() == ActorKind.SINK_INTERFACE);
        if (subgraph) {
          continue;
        }
        long firings = GraphAnalysis.analyse(graph, null, new Diagnostics()).flatGraph().totalFirings();
        if (firings > largestFirings) {
          largestFirings = firings;
          largest = file;
        }
      } catch (InputException e) {
        System.out.println("(corpus graph skipped: " + e.describe() + ")");
      }
    }
    if (largest == null) {
      return null;
    }
    Path chosen = largest;
    return measure(corpus.relativize(chosen).toString(), runs, () -> read(chosen));
  }

  private static Graph read(Path file) {
    return file.toString().endsWith(".pi") ? PiReader.read(file, new Diagnostics())
        : Sdf3Reader.read(file, new Diagnostics());
  }

  private static Row measure(String name, int runs, Supplier<Graph> read) {
    double[] readMs = new double[runs];
    double[] flattenMs = new double[runs];
    double[] expandMs = new double[runs];
    long vertices = 0;
    long edges = 0;
    for (int run = -WARMUP_RUNS; run < runs; run++) {
      System.gc();
      long t0 = System.nanoTime();
      Graph graph = read.get();
      long t1 = System.nanoTime();
      AnalysisResult analysis = GraphAnalysis.analyse(graph, null, new Diagnostics());
      long t2 = System.nanoTime();
      Srdag dag = SingleRateExpansion.expand(analysis.flatGraph(), SingleRateExpansion.DEFAULT_MAX_VERTICES, null);
      long t3 = System.nanoTime();
      vertices = dag.vertexCount();
      edges = dag.edgeCount();
      if (run >= 0) {
        readMs[run] = (t1 - t0) / 1e6;
        flattenMs[run] = (t2 - t1) / 1e6;
        expandMs[run] = (t3 - t2) / 1e6;
      }
    }
    System.out.printf(Locale.ROOT, "  measured %s%n", name);
    return new Row(name, vertices, edges, readMs, flattenMs, expandMs);
  }

  // ---------------------------------------------------------------------------------------------------

  static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int middle = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }

  private static String cell(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return String.format(Locale.ROOT, "%9.2f [%.2f-%.2f]", median(values), sorted[0], sorted[sorted.length - 1]);
  }

  private static void printTable(PrintStream out, List<Row> rows) {
    int width = "graph".length();
    for (Row row : rows) {
      width = Math.max(width, row.graph().length());
    }
    String nameColumn = "%-" + width + "s";
    out.printf(Locale.ROOT, "%n" + nameColumn + " %10s %10s  %-26s %-26s %-26s %9s%n", "graph", "vertices", "edges",
        "read/build ms", "flatten+check ms", "expand ms", "ns/vertex");
    for (Row row : rows) {
      out.printf(Locale.ROOT, nameColumn + " %10d %10d  %-26s %-26s %-26s %9.1f%n", row.graph(), row.vertices(),
          row.edges(),
          cell(row.readMs()), cell(row.flattenMs()), cell(row.expandMs()),
          median(row.expandMs()) * 1e6 / Math.max(1, row.vertices()));
    }
  }

  private static String csv(List<Row> rows) {
    StringBuilder text = new StringBuilder(
        "graph,vertices,edges,runs,read_median_ms,read_min_ms,read_max_ms,flatten_median_ms,flatten_min_ms,"
            + "flatten_max_ms,expand_median_ms,expand_min_ms,expand_max_ms\n");
    for (Row row : rows) {
      text.append('"').append(row.graph().replace("\"", "\"\"")).append('"').append(',').append(row.vertices())
          .append(',').append(row.edges()).append(',').append(row.readMs().length);
      for (double[] series : List.of(row.readMs(), row.flattenMs(), row.expandMs())) {
        double[] sorted = series.clone();
        Arrays.sort(sorted);
        text.append(String.format(Locale.ROOT, ",%.3f,%.3f,%.3f", median(series), sorted[0],
            sorted[sorted.length - 1]));
      }
      text.append('\n');
    }
    return text.toString();
  }
}
