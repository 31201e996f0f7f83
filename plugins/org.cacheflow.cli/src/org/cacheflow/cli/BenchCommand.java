package org.cacheflow.cli;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code cacheflow bench <name> [options]}: runs one of the Java benchmarks. Each prints a table of
 * medians with their spread and can write CSV; none is part of the test run. The C runtime's benchmarks
 * are separate programs in {@code runtime-c/bench/}.
 */
public final class BenchCommand implements Command {

  private record Benchmark(String summary, Consumer<String[]> main) {
  }

  private final Map<String, Benchmark> benchmarks = new LinkedHashMap<>();

  public BenchCommand() {
    benchmarks.put("expansion", new Benchmark(
        "read + flatten + single-rate expansion: largest corpus graph and generated graphs of 10^3..10^6 vertices",
        org.cacheflow.plan.bench.ExpansionBenchmark::main));
    benchmarks.put("scripts", new Benchmark(
        "memory scripts of the largest scripted corpus graph after single-rate expansion (evaluation; merging apart)",
        org.cacheflow.plan.memory.bench.ScriptBenchmark::main));
  }

  @Override
  public String name() {
    return "bench";
  }

  @Override
  public String summary() {
    return "run a benchmark of the tool itself (table of medians and spread; --csv FILE)";
  }

  @Override
  public String help() {
    StringBuilder text = new StringBuilder();
    text.append("usage: cacheflow bench <benchmark> [--quick] [--runs N] [--csv FILE] [--corpus DIR]\n\n");
    text.append("Runs a benchmark and prints a table (medians over repeated runs, with min and max);\n");
    text.append("--csv FILE also writes the rows as CSV, --quick measures fewer sizes. For large sizes give the\n");
    text.append("JVM memory: CACHEFLOW_JAVA_OPTS=-Xmx4g ./cacheflow bench expansion\n\nbenchmarks:\n");
    benchmarks.forEach((name, benchmark) -> text.append(String.format("  %-12s %s%n", name, benchmark.summary())));
    return text.toString();
  }

  @Override
  public int run(List<String> args, PrintStream out, PrintStream err) {
    if (args.isEmpty()) {
      throw new UsageException("name a benchmark: " + String.join(", ", benchmarks.keySet()));
    }
    Benchmark benchmark = benchmarks.get(args.get(0));
    if (benchmark == null) {
      throw new UsageException("unknown benchmark '" + args.get(0) + "'; known: " + String.join(", ", benchmarks.keySet()));
    }
    benchmark.main().accept(args.subList(1, args.size()).toArray(String[]::new));
    return Main.OK;
  }
}
