package org.cacheflow.bench.codegen;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.cacheflow.codegen.ProjectWriter;
import org.cacheflow.codegen.build.CodeModelBuilder;
import org.cacheflow.codegen.build.PlannedExecution;
import org.cacheflow.codegen.build.CodePreset;
import org.cacheflow.codegen.model.ActorSources;
import org.cacheflow.codegen.model.CodeProject;
import org.cacheflow.io.pisdf.PiReader;
import org.cacheflow.io.project.PreesmProject;
import org.cacheflow.io.project.ScenarioRun;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.analysis.GraphAnalysis;
import org.cacheflow.bench.plan.BenchOptions;
import org.cacheflow.bench.plan.GeneratedGraphs;
import org.cacheflow.analysis.srdag.SingleRateExpansion;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.plan.strategy.TargetCache;

/**
 * Benchmarks of code generation. (0) The bytes the programs generated for examples/stereo allocate, per
 * strategy and core count, with buffers of disjoint lifetimes in pools and without ({@code --footprint-only}:
 * only this). (1) Stereo in synthetic-actors mode: generate and build under every strategy of the ladder on 2 cores,
 * run the programs interleaved round by round, and report time and bytes copied per iteration with speed-ups
 * against {@code preesm} (PREESM's generated code with its memory scripts, the reference) and {@code baseline}
 * (plain copies, the second reference) of the same round; {@code --csv FILE} writes these rows. (2) The time to
 * generate code (plan, code model, printing, writing) for generated graphs of 10^3..10^5 single-rate vertices.
 *
 * <pre>
 * plugins/org.cacheflow.bench/benchmark.sh [--corpus DIR] [--runtime DIR] [--work DIR] [--iterations N]
 *                                            [--scenario F] [--runs N] [--quick] [--footprint-only] [--csv F]
 * </pre>
 */
public final class CodegenBenchmark {

  private static final Pattern STATS = Pattern.compile("stats: bytes copied (\\d+), non-temporal (\\d+).*");
  private static final Pattern TIME = Pattern.compile("time: ([0-9.]+) s for (\\d+) iterations");

  private CodegenBenchmark() {
  }

  public static void main(String[] args) throws Exception {
    BenchOptions options = BenchOptions.parseOrExit("usage: plugins/org.cacheflow.bench/benchmark.sh [--corpus DIR]"
        + " [--runtime DIR] [--work DIR] [--example DIR]\n    [--iterations N] [--scenario F] [--runs N] [--quick]"
        + " [--footprint-only] [--csv FILE]", args, List.of("--quick", "--footprint-only"),
        List.of("--corpus", "--runtime", "--work", "--example", "--iterations", "--scenario", "--runs", "--csv"));
    if (options == null) {
      return;
    }
    boolean quick = options.flag("--quick");
    Path corpus = Path.of(options.value("--corpus", "../shared/corpus"));
    Path runtime = Path.of(options.value("--runtime", "runtime-c"));
    Path work = Path.of(options.value("--work", "target/codegen-bench")).toAbsolutePath();
    int iterations = options.positiveOrExit("--iterations", quick ? 3 : 10);
    int runs = options.positiveOrExit("--runs", quick ? 3 : 7);
    String scenario = options.value("--scenario", "1core.scenario");
    PrintStream out = System.out;
    footprint(out, Path.of(options.value("--example", "examples/stereo")), runtime);
    if (options.flag("--footprint-only")) {
      return;
    }
    String csv = options.value("--csv", null);
    stereo(out, corpus.resolve("preesm-apps/org.ietr.preesm.stereo"), scenario, runtime, work, iterations, runs,
        csv == null ? null : Path.of(csv));
    generationTime(out, work, quick ? new long[] {1_000, 10_000} : new long[] {1_000, 10_000, 100_000}, runs);
  }

  private static void stereo(PrintStream out, Path project, String scenario, Path runtime, Path work, int iterations,
      int runs, Path csv) throws Exception {
    if (!Files.isDirectory(project)) {
      out.println("stereo: corpus not found at " + project + ", skipped");
      return;
    }
    Srdag srdag = load(project, scenario);
    List<String> names = CodePreset.LADDER;
    Map<String, Path> programs = new LinkedHashMap<>();
    for (String name : names) {
      CodeProject code = CodeModelBuilder.build(PlannedExecution.plan(srdag, 2, CodePreset.named(name),
          TargetCache.ZEN4_VM, scriptFacts(project, srdag)), true);
      Path dir = work.resolve("stereo-" + name);
      ProjectWriter.write(code, ActorSources.NONE, runtime, dir);
      exec(dir, List.of("cmake", "-S", dir.toString(), "-B", dir.resolve("build").toString(), "-G", "Ninja",
          "-DCMAKE_BUILD_TYPE=Release", "-DCACHEFLOW_BUNDLED_RUNTIME=ON"));
      exec(dir, List.of("cmake", "--build", dir.resolve("build").toString()));
      programs.put(name, dir.resolve("build").resolve(code.identifier()));
    }
    String loadBefore = loadAverage();
    // rounds: every program once, interleaved, every other round in reverse order
    Map<String, double[]> millis = new LinkedHashMap<>();
    Map<String, long[]> bytes = new LinkedHashMap<>();
    String reference = null;
    for (int run = 0; run < runs; run++) {
      List<String> order = new ArrayList<>(names);
      if (run % 2 == 1) {
        Collections.reverse(order);
      }
      for (String name : order) {
        Path program = programs.get(name);
        String output = exec(program.getParent(), List.of(program.toString(), "--iterations",
            Integer.toString(iterations), "--validate"));
        Matcher time = TIME.matcher(output);
        Matcher stats = STATS.matcher(output);
        if (!time.find() || !stats.find()) {
          throw new IllegalStateException("unexpected output of " + name + ":\n" + output);
        }
        millis.computeIfAbsent(name, n -> new double[runs])[run] = Double.parseDouble(time.group(1)) / iterations
            * 1000;
        bytes.put(name, new long[] {Long.parseLong(stats.group(1)) / iterations,
            Long.parseLong(stats.group(2)) / iterations});
        String digests = output.lines().filter(l -> l.matches(".* : [0-9a-f]{32}")).reduce("", (a, b) -> a + b
            + "\n");
        if (reference == null) {
          reference = digests;
        } else if (!reference.equals(digests)) {
          throw new IllegalStateException(name + " printed other sink digests than " + order.get(0));
        }
      }
    }
    out.printf("stereo (%s, synthetic actors, 2 cores, %d rounds of %d iterations, programs interleaved), %d "
        + "single-rate vertices; load average before %s, after %s%n", scenario, runs, iterations, srdag.vertexCount(),
        loadBefore, loadAverage());
    out.printf("%-16s %22s %22s %12s %16s %14s%n", "strategy", "ms/iter (min-max)", "vs preesm (min-max)",
        "vs baseline", "copied B/iter", "of which NT");
    StringBuilder rows = new StringBuilder("benchmark,variant,size,metric,median,low,high,unit,runs\n");
    for (String name : names) {
      double[] time = millis.get(name);
      double[] vsPreesm = speedups(millis.get("preesm"), time);
      double[] vsBaseline = speedups(millis.get("baseline"), time);
      long[] copied = bytes.get(name);
      out.printf("%-16s %22s %22s %11.2fx %16d %14d%n", name, spread(time, "%.2f", ""), spread(vsPreesm, "%.2f", "x"),
          median(vsBaseline), copied[0] + copied[1], copied[1]);
      csvRow(rows, name, scenario, "time_per_iteration", time, "ms");
      csvRow(rows, name, scenario, "speedup_vs_preesm", vsPreesm, "x");
      csvRow(rows, name, scenario, "speedup_vs_baseline", vsBaseline, "x");
      csvRow(rows, name, scenario, "bytes_copied_per_iteration", new double[] {copied[0] + copied[1]}, "B");
    }
    out.println("(sink digests identical for every strategy; speed-ups: per round, reference time / strategy time)");
    if (csv != null) {
      BenchOptions.writeCsv(csv, rows, out);
    }
    out.println();
  }

  /** Per round, {@code reference[r] / time[r]}, sorted. */
  private static double[] speedups(double[] reference, double[] time) {
    double[] ratios = new double[time.length];
    for (int r = 0; r < time.length; r++) {
      ratios[r] = reference[r] / time[r];
    }
    Arrays.sort(ratios);
    return ratios;
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  private static String spread(double[] values, String format, String unit) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return String.format(format + unit + " (" + format + "-" + format + ")", median(sorted), sorted[0],
        sorted[sorted.length - 1]);
  }

  private static void csvRow(StringBuilder rows, String variant, String size, String metric, double[] values,
      String unit) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    rows.append(String.format("stereo,%s,%s,%s,%.6g,%.6g,%.6g,%s,%d%n", variant, size, metric, median(sorted),
        sorted[0], sorted[sorted.length - 1], unit, sorted.length));
  }

  private static String loadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
      return String.join(" ", Arrays.copyOf(fields, 3));
    } catch (IOException e) {
      return "unknown";
    }
  }

  /**
   * Bytes the generated program allocates for data (buffers, channel slots, copy-on-write buffers) with the
   * memory plan, per strategy and core count, with buffers of disjoint lifetimes sharing pools and without.
   */
  private static void footprint(PrintStream out, Path project, Path runtime) {
    if (!Files.isDirectory(project.resolve("Scenarios"))) {
      out.println("footprint: no project at " + project + ", skipped");
      return;
    }
    Path scenario;
    try (var files = Files.list(project.resolve("Scenarios"))) {
      scenario = files.filter(f -> f.toString().endsWith(".scenario")).sorted().findFirst().orElseThrow();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Srdag srdag = load(project, scenario.getFileName().toString());
    out.printf("allocated data bytes, %s (%s, %d single-rate vertices, memory plan, synthetic actors)%n",
        project.getFileName(), scenario.getFileName(), srdag.vertexCount());
    out.printf("%-16s %5s %16s %16s %8s%n", "strategy", "cores", "own buffers", "with pools", "ratio");
    for (int cores : new int[] {1, 2}) {
      for (String name : CodePreset.LADDER) {
        CodeProject code = CodeModelBuilder.build(PlannedExecution.plan(srdag, cores, CodePreset.named(name),
            TargetCache.ZEN4_VM, scriptFacts(project, srdag)), true);
        long before = code.allocatedBytesWithoutPools();
        long after = code.allocatedBytes();
        out.printf("%-16s %5d %16d %16d %7.2fx%n", name, cores, before, after, (double) after / before);
      }
    }
    out.println();
  }

  private static void generationTime(PrintStream out, Path work, long[] sizes, int runs) {
    out.printf("code generation time (plan, code model, printing, writing; 2 cores, auto, synthetic; median of %d)%n",
        runs);
    out.printf("%-22s %10s %12s %12s %12s%n", "graph", "vertices", "plan+model ms", "print ms", "write ms");
    for (GeneratedGraphs.Family family : GeneratedGraphs.Family.values()) {
      for (long size : sizes) {
        long n = family.parameterFor(size);
        Srdag srdag = SingleRateExpansion.expand(GraphAnalysis.analyse(family.build(n), null, new Diagnostics())
            .flatGraph());
        long[] model = new long[runs];
        long[] print = new long[runs];
        long[] write = new long[runs];
        for (int run = 0; run < runs; run++) {
          long start = System.nanoTime();
          CodeProject code = CodeModelBuilder.build(PlannedExecution.plan(srdag, 2,
              CodePreset.named("auto"), TargetCache.ZEN4_VM), true);
          long modelled = System.nanoTime();
          Map<String, String> files = ProjectWriter.print(code, ActorSources.NONE);
          long printed = System.nanoTime();
          Path dir = work.resolve("generated-" + family.name().toLowerCase() + "-" + size);
          try {
            for (Map.Entry<String, String> file : files.entrySet()) {
              Path path = dir.resolve(file.getKey());
              Files.createDirectories(path.getParent());
              Files.writeString(path, file.getValue(), StandardCharsets.UTF_8);
            }
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
          long written = System.nanoTime();
          model[run] = modelled - start;
          print[run] = printed - modelled;
          write[run] = written - printed;
        }
        out.printf("%-22s %10d %12.1f %12.1f %12.1f%n", family.name().toLowerCase(), srdag.vertexCount(),
            median(model) / 1e6, median(print) / 1e6, median(write) / 1e6);
      }
    }
  }

  private static double median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  /** The merges and marks of the project's memory scripts, as {@code cacheflow generate} plans with them. */
  private static org.cacheflow.plan.classify.MemoryFacts scriptFacts(Path project, Srdag srdag) {
    return org.cacheflow.plan.memoryplan.MemoryPlanner.scriptFacts(srdag, project);
  }

  private static Srdag load(Path project, String scenario) {
    Diagnostics diagnostics = new Diagnostics();
    ScenarioRun run = PreesmProject.open(project, diagnostics).load(project.resolve("Scenarios").resolve(scenario),
        PiReader::read, diagnostics);
    Map<String, String> overrides = run.scenario().parameterOverrides(Map.of());
    return SingleRateExpansion.expand(GraphAnalysis.analyse(run.graph(), overrides, diagnostics).flatGraph());
  }

  private static String exec(Path dir, List<String> command) throws Exception {
    Path log = Files.createTempFile(dir.getParent(), "bench", ".log");
    Process process = new ProcessBuilder(new ArrayList<>(command)).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    if (!process.waitFor(1800, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException(String.join(" ", command) + " timed out");
    }
    String output = Files.readString(log);
    Files.delete(log);
    if (process.exitValue() != 0) {
      throw new IllegalStateException(String.join(" ", command) + " failed:\n" + output);
    }
    return output;
  }
}
