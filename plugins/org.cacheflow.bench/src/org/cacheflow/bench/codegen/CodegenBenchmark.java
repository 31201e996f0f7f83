package org.cacheflow.bench.codegen;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
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
 * only this). (1) Stereo in synthetic-actors mode: generate, build and run under every
 * strategy on 2 cores, and report wall time and bytes copied per iteration against {@code baseline} measured in
 * the same run. (2) The time to generate code (plan, code model, printing, writing) for generated graphs of
 * 10^3..10^5 single-rate vertices.
 *
 * <pre>
 * plugins/org.cacheflow.codegen/benchmark.sh [--corpus DIR] [--runtime DIR] [--work DIR] [--iterations N]
 *                                            [--scenario F] [--runs N] [--quick] [--footprint-only]
 * </pre>
 */
public final class CodegenBenchmark {

  private static final Pattern STATS = Pattern.compile("stats: bytes copied (\\d+), non-temporal (\\d+).*");
  private static final Pattern TIME = Pattern.compile("time: ([0-9.]+) s for (\\d+) iterations");

  private CodegenBenchmark() {
  }

  public static void main(String[] args) throws Exception {
    BenchOptions options = BenchOptions.parseOrExit("usage: plugins/org.cacheflow.codegen/benchmark.sh [--corpus DIR]"
        + " [--runtime DIR] [--work DIR] [--example DIR]\n    [--iterations N] [--scenario F] [--runs N] [--quick]"
        + " [--footprint-only]", args, List.of("--quick", "--footprint-only"),
        List.of("--corpus", "--runtime", "--work", "--example", "--iterations", "--scenario", "--runs"));
    if (options == null) {
      return;
    }
    boolean quick = options.flag("--quick");
    Path corpus = Path.of(options.value("--corpus", "../shared/corpus"));
    Path runtime = Path.of(options.value("--runtime", "runtime-c"));
    Path work = Path.of(options.value("--work", "target/codegen-bench")).toAbsolutePath();
    int iterations = options.positiveOrExit("--iterations", quick ? 3 : 10);
    int runs = options.positiveOrExit("--runs", quick ? 1 : 3);
    String scenario = options.value("--scenario", "1core.scenario");
    PrintStream out = System.out;
    footprint(out, Path.of(options.value("--example", "examples/stereo")), runtime);
    if (options.flag("--footprint-only")) {
      return;
    }
    stereo(out, corpus.resolve("preesm-apps/org.ietr.preesm.stereo"), scenario, runtime, work, iterations, runs);
    generationTime(out, work, quick ? new long[] {1_000, 10_000} : new long[] {1_000, 10_000, 100_000}, runs);
  }

  private static void stereo(PrintStream out, Path project, String scenario, Path runtime, Path work, int iterations,
      int runs) throws Exception {
    if (!Files.isDirectory(project)) {
      out.println("stereo: corpus not found at " + project + ", skipped");
      return;
    }
    Srdag srdag = load(project, scenario);
    out.printf("stereo (%s, synthetic actors, 2 cores, %d iterations, median of %d runs), %d single-rate vertices%n",
        scenario, iterations, runs, srdag.vertexCount());
    out.printf("%-16s %12s %10s %16s %10s %14s%n", "strategy", "ms/iter", "vs base", "copied B/iter",
        "vs base", "of which NT");
    double baseTime = 0;
    double baseBytes = 0;
    String reference = null;
    for (String name : CodePreset.LADDER) {
      CodeProject code = CodeModelBuilder.build(PlannedExecution.plan(srdag, 2, CodePreset.named(name),
          TargetCache.ZEN4_VM, scriptFacts(project, srdag)), true);
      Path dir = work.resolve("stereo-" + name);
      ProjectWriter.write(code, ActorSources.NONE, runtime, dir);
      exec(dir, List.of("cmake", "-S", dir.toString(), "-B", dir.resolve("build").toString(), "-G", "Ninja",
          "-DCMAKE_BUILD_TYPE=Release", "-DCACHEFLOW_BUNDLED_RUNTIME=ON"));
      exec(dir, List.of("cmake", "--build", dir.resolve("build").toString()));
      double[] seconds = new double[runs];
      long copied = 0;
      long ntm = 0;
      String digests = null;
      for (int run = 0; run < runs; run++) {
        String output = exec(dir, List.of(dir.resolve("build").resolve(code.identifier()).toString(), "--iterations",
            Integer.toString(iterations), "--validate"));
        Matcher time = TIME.matcher(output);
        Matcher stats = STATS.matcher(output);
        if (!time.find() || !stats.find()) {
          throw new IllegalStateException("unexpected output of " + name + ":\n" + output);
        }
        seconds[run] = Double.parseDouble(time.group(1));
        copied = Long.parseLong(stats.group(1)) + Long.parseLong(stats.group(2));
        ntm = Long.parseLong(stats.group(2));
        digests = output.lines().filter(l -> l.matches(".* : [0-9a-f]{32}")).reduce("", (a, b) -> a + b + "\n");
      }
      if (reference == null) {
        reference = digests;
      } else if (!reference.equals(digests)) {
        throw new IllegalStateException(name + " printed other sink digests than baseline");
      }
      Arrays.sort(seconds);
      double perIteration = seconds[runs / 2] / iterations * 1000;
      double bytesPerIteration = (double) copied / iterations;
      if (name.equals("baseline")) {
        baseTime = perIteration;
        baseBytes = bytesPerIteration;
      }
      out.printf("%-16s %12.2f %9.2fx %16.0f %9.2fx %14.0f%n", name, perIteration, perIteration / baseTime,
          bytesPerIteration, baseBytes == 0 ? 0 : bytesPerIteration / baseBytes, (double) ntm / iterations);
    }
    out.println("(sink digests identical for every strategy)");
    out.println();
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
