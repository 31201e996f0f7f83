package org.cacheflow.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.cacheflow.cli.CliCommand;
import org.cacheflow.cli.Main;
import org.cacheflow.cli.UsageException;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code cacheflow bench <name> [options]}: runs one of the Java benchmarks. Each prints a table of
 * medians with their spread and can write CSV; none is part of the test run. The C runtime's benchmarks
 * are separate programs in {@code runtime-c/bench/}.
 */
@Command(name = "bench", header = "run a benchmark of the tool itself (table of medians and spread; --csv FILE)",
    synopsisHeading = "usage: ", customSynopsis = "cacheflow bench <benchmark> [--quick] [--runs N] "
        + "[--csv FILE] [--corpus DIR]", separator = " ", parameterListHeading = "%n",
    description = {"", "Runs a benchmark and prints a table (medians over repeated runs, with min and max); --csv "
        + "FILE also writes the rows as CSV, --quick measures fewer sizes. For large sizes give the JVM memory: "
        + "CACHEFLOW_JAVA_OPTS=-Xmx4g ./cacheflow bench expansion"}, optionListHeading = "%noptions:%n")
public final class BenchCommand extends CliCommand {

  private record Benchmark(String summary, Consumer<String[]> main) {
  }

  private static final Map<String, Benchmark> BENCHMARKS = new LinkedHashMap<>();

  static {
    BENCHMARKS.put("expansion", new Benchmark(
        "read + flatten + single-rate expansion: largest corpus graph and generated graphs of 10^3..10^6 vertices",
        org.cacheflow.bench.plan.ExpansionBenchmark::main));
    BENCHMARKS.put("scripts", new Benchmark(
        "memory scripts of the largest scripted corpus graph after single-rate expansion (evaluation; merging apart)",
        org.cacheflow.bench.scripts.ScriptBenchmark::main));
  }

  @Parameters(paramLabel = "<benchmark> [options]", arity = "0..*", descriptionKey = "benchmarks")
  List<String> args = new ArrayList<>();

  @Override
  protected boolean passesArgumentsOn() {
    return true;
  }

  @Override
  protected Map<String, String> texts() {
    StringBuilder text = new StringBuilder("the benchmark, then its options:");
    BENCHMARKS.forEach((name, benchmark) -> text.append("%n  ").append(String.format("%-12s %s", name,
        benchmark.summary())));
    return Map.of("benchmarks", text.toString());
  }

  @Override
  public Integer call() {
    if (args.isEmpty()) {
      throw new UsageException("name a benchmark: " + String.join(", ", BENCHMARKS.keySet()));
    }
    Benchmark benchmark = BENCHMARKS.get(args.get(0));
    if (benchmark == null) {
      throw new UsageException("unknown benchmark '" + args.get(0) + "'; known: " + String.join(", ",
          BENCHMARKS.keySet()));
    }
    benchmark.main().accept(args.subList(1, args.size()).toArray(String[]::new));
    return Main.OK;
  }
}
