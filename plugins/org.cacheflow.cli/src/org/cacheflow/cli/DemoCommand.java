package org.cacheflow.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.cacheflow.codegen.build.Strategy;

/**
 * {@code cacheflow demo}: generates the stereo example with every strategy, builds and runs each, checks that
 * they compute the same thing and compares their speed, copies and cache misses.
 */
public final class DemoCommand implements Command {

  /** Strategies of a {@code --quick} run: the baseline, the two techniques that change most, and auto. */
  static final List<String> QUICK_STRATEGIES = List.of("baseline", "channels", "cow", "auto");

  /** The cache geometry of this project's machine type (zen4-vm), given to cachegrind explicitly. */
  static final String[] CACHEGRIND_GEOMETRY = {"--I1=32768,8,64", "--D1=32768,8,64", "--LL=33554432,16,64"};

  private static final Pattern DIGEST = Pattern.compile("^(\\S.* -> .*\\S) : ([0-9a-f]{32})$");
  private static final Pattern STATS = Pattern.compile("^stats: bytes copied (\\d+), non-temporal (\\d+), "
      + "cow pages faulted (\\d+), re-shared (\\d+), pre-stores (\\d+) \\((\\d+) lines\\)");
  private static final Pattern TIME = Pattern.compile("^time: ([0-9.]+) s for (\\d+) iterations");
  private static final Pattern QUALITY = Pattern.compile("^stereo: .*bad pixels.*");
  private static final Pattern CACHEGRIND_D1 = Pattern.compile("D1\\s+misses:\\s+([0-9,]+)");
  private static final Pattern CACHEGRIND_LLD = Pattern.compile("LLd misses:\\s+([0-9,]+)");

  private final Path root;

  /** The repository the launcher runs from ({@code CACHEFLOW_HOME}), else the working directory. */
  public DemoCommand() {
    this(defaultRoot());
  }

  DemoCommand(Path root) {
    this.root = root;
  }

  private static Path defaultRoot() {
    String home = System.getenv("CACHEFLOW_HOME");
    return home != null && !home.isBlank() ? Path.of(home) : Path.of("");
  }

  @Override
  public String name() {
    return "demo";
  }

  @Override
  public String summary() {
    return "generate, build and run the stereo example with every strategy and compare them";
  }

  @Override
  public String help() {
    return """
        usage: cacheflow demo [--out DIR] [--quick] [--iterations N] [--runs R] [--strategies S,S,...]
                              [--no-cachegrind]

        Generates examples/stereo (2-core scenario, the real actors) with the baseline (PREESM's plain copies)
        and with each strategy including auto, builds each with CMake and Ninja (the C runtime is built and
        installed once into DIR/runtime and shared), runs each R times with --iterations N --validate, checks
        that every program printed the same MD5 for every sink FIFO (else it fails, naming the strategies and
        FIFOs that differ), and prints a table: median time per iteration over the runs with min-max, speed-up
        against the baseline, bytes copied (with memcpy, and with streaming stores), copy-on-write pages faulted and pre-stores per iteration (from the
        runtime's statistics), and L1D / LLC data misses of one iteration. The misses come from perf when the
        hardware counters work, else from cachegrind simulating the zen4-vm caches (32 KiB 8-way L1, 32 MiB
        16-way LL, 64 B lines; two simulations run at once); the table says which. See docs/demo.md.

        Writes into DIR: demo.csv (the table), comparison.svg (bar chart of the times, with speed-ups),
        disparity.pgm (the baseline's disparity map), one generated project per strategy, build/ and logs.
        A progress line on stderr (when it is a terminal) shows what it is doing. The default takes under
        3 minutes on the 2-core machine this project targets.

        options:
          --out DIR            work folder (default target/demo under the current directory)
          --quick              1 iteration, 1 run, strategies baseline, channels, cow, auto (for tests)
          --iterations N       graph iterations per run (default 2)
          --runs R             timed runs per strategy (default 3)
          --strategies LIST    comma-separated strategies (default all: %s)
          --no-cachegrind      no cache-miss measurement when perf counters do not work
        """.formatted(String.join(", ", allStrategies()));
  }

  /** The distinct strategies: names that are aliases of another ({@code prestore}, {@code homeforward}) left out. */
  static List<String> allStrategies() {
    return Strategy.NAMES.stream().filter(name -> Strategy.named(name).name().equals(name)).toList();
  }

  /** The demo cannot go on (a build failed, outputs differ): message for the user, exit status 1. */
  static final class DemoFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    DemoFailure(String message) {
      super(message);
    }
  }

  /** What one strategy measured. */
  static final class Result {
    final String strategy;
    final List<Double> millisPerIteration = new ArrayList<>();
    Map<String, String> digests = new LinkedHashMap<>();
    long bytesCopied;
    long bytesStreamed;
    long cowPages;
    long prestores;
    int iterations;
    long l1dMisses = -1;
    long llcMisses = -1;

    Result(String strategy) {
      this.strategy = strategy;
    }

    double median() {
      double[] sorted = millisPerIteration.stream().mapToDouble(Double::doubleValue).sorted().toArray();
      int n = sorted.length;
      return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    double min() {
      return millisPerIteration.stream().mapToDouble(Double::doubleValue).min().orElse(0);
    }

    double max() {
      return millisPerIteration.stream().mapToDouble(Double::doubleValue).max().orElse(0);
    }
  }

  @Override
  public int run(List<String> args, PrintStream out, PrintStream err) {
    Arguments arguments = Arguments.parse(args, Set.of("--quick", "--no-cachegrind"),
        Set.of("--out", "--iterations", "--runs", "--strategies"));
    if (!arguments.positionals().isEmpty()) {
      throw new UsageException("demo takes no positional argument, got " + arguments.positionals());
    }
    boolean quick = arguments.flag("--quick");
    int iterations = arguments.positiveInt("--iterations").orElse(quick ? 1 : 2);
    int runs = arguments.positiveInt("--runs").orElse(quick ? 1 : 3);
    List<String> strategies = arguments.option("--strategies")
        .map(list -> Arrays.stream(list.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList())
        .orElse(quick ? QUICK_STRATEGIES : allStrategies());
    for (String strategy : strategies) {
      if (!allStrategies().contains(strategy)) {
        throw new UsageException("unknown strategy '" + strategy + "' (known: " + String.join(", ", allStrategies())
            + ")");
      }
    }
    if (strategies.isEmpty()) {
      throw new UsageException("--strategies names no strategy");
    }
    Path work = Path.of(arguments.option("--out").orElse("target/demo")).toAbsolutePath().normalize();
    Path stereo = root.resolve("examples/stereo").toAbsolutePath().normalize();
    if (!Files.isDirectory(stereo)) {
      throw new DemoFailure("cannot find examples/stereo under " + Paths.display(root.toAbsolutePath())
          + ": run the demo from the repository (./cacheflow demo)");
    }
    try {
      return demo(out, err, work, stereo, strategies, iterations, runs, !arguments.flag("--no-cachegrind"));
    } catch (DemoFailure e) {
      err.println("error: " + e.getMessage());
      return Main.BAD_INPUT;
    } catch (IOException e) {
      err.println("error: " + e.getMessage());
      return Main.BAD_INPUT;
    }
  }

  private int demo(PrintStream out, PrintStream err, Path work, Path stereo, List<String> strategies, int iterations,
      int runs, boolean measureMisses) throws IOException {
    long start = System.nanoTime();
    Files.createDirectories(work);
    Progress progress = new Progress(err);
    Path runtimePrefix = work.resolve("runtime");
    progress.step("building the C runtime once (" + Paths.display(runtimePrefix) + ")");
    Path runtimeBuild = work.resolve("build/runtime");
    Files.createDirectories(runtimeBuild);
    Path runtimeLog = work.resolve("build/runtime.log");
    Files.deleteIfExists(runtimeLog);
    command(runtimeLog, work, null, "cmake", "-S", runtimeSources().toString(), "-B", runtimeBuild.toString(),
        "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release", "-DCF_BUILD_TESTS=OFF", "-DCF_BUILD_BENCH=OFF",
        "-DCMAKE_INSTALL_PREFIX=" + runtimePrefix);
    command(runtimeLog, work, null, "cmake", "--build", runtimeBuild.toString());
    command(runtimeLog, work, null, "cmake", "--install", runtimeBuild.toString());

    Map<String, Path> programs = new LinkedHashMap<>();
    for (int i = 0; i < strategies.size(); i++) {
      String strategy = strategies.get(i);
      String position = "[" + (i + 1) + "/" + strategies.size() + "] " + strategy;
      progress.step(position + ": generating");
      Path project = work.resolve(strategy);
      generate(stereo, project, strategy);
      progress.step(position + ": building");
      Path build = work.resolve("build").resolve(strategy);
      Path log = work.resolve("build").resolve(strategy + ".log");
      Files.deleteIfExists(log);
      command(log, work, null, "cmake", "-S", project.toString(), "-B", build.toString(), "-G", "Ninja",
          "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_PREFIX_PATH=" + runtimePrefix);
      command(log, work, null, "cmake", "--build", build.toString());
      programs.put(strategy, build.resolve("stereo"));
    }

    // Runs interleave the strategies so that a disturbance of the machine hits all of them alike.
    Map<String, Result> results = new LinkedHashMap<>();
    strategies.forEach(s -> results.put(s, new Result(s)));
    String quality = null;
    Path disparity = work.resolve("disparity.pgm");
    for (int run = 0; run < runs; run++) {
      for (String strategy : strategies) {
        progress.step("run " + (run + 1) + "/" + runs + ": " + strategy + " (" + iterations + " iterations)");
        Map<String, String> environment = new LinkedHashMap<>();
        if (run == 0 && strategy.equals(strategies.get(0))) {
          environment.put("STEREO_OUTPUT", disparity.toString());
        }
        Path log = work.resolve("build").resolve(strategy + ".run.log");
        Files.deleteIfExists(log);
        String output = command(log, work, environment, programs.get(strategy).toString(), "--iterations",
            Integer.toString(iterations), "--validate");
        String line = parseRun(output, results.get(strategy), log);
        quality = quality == null ? line : quality;
      }
    }
    checkDigests(results);

    String missSource = "not measured (--no-cachegrind)";
    if (measureMisses) {
      missSource = measureMisses(work, programs, results, progress);
    }
    progress.done();

    Result baseline = results.get("baseline");
    Table table = new Table("strategy", "ms/iter", "min-max", "speed-up", "copied MiB/iter",
        "streamed MiB/iter", "CoW pages/iter",
        "pre-stores/iter", "L1D misses", "LLC misses");
    StringBuilder csv = new StringBuilder("strategy,median_ms_per_iteration,min_ms,max_ms,speedup_vs_baseline,"
        + "bytes_copied_per_iteration,bytes_streamed_per_iteration,cow_pages_per_iteration,prestores_per_iteration,l1d_misses,llc_misses\n");
    for (Result result : results.values()) {
      String speedUp = baseline == null ? "-" : format("%.2fx", baseline.median() / result.median());
      table.row(result.strategy, format("%.1f", result.median()),
          format("%.1f-%.1f", result.min(), result.max()), speedUp,
          format("%.1f", result.bytesCopied / (double) result.iterations / (1 << 20)),
          format("%.1f", result.bytesStreamed / (double) result.iterations / (1 << 20)),
          Long.toString(result.cowPages / result.iterations), Long.toString(result.prestores / result.iterations),
          misses(result.l1dMisses), misses(result.llcMisses));
      csv.append(String.join(",", result.strategy, format("%.3f", result.median()), format("%.3f", result.min()),
          format("%.3f", result.max()), baseline == null ? "" : format("%.4f", baseline.median() / result.median()),
          Long.toString(result.bytesCopied / result.iterations), Long.toString(result.bytesStreamed / result.iterations),
          Long.toString(result.cowPages / result.iterations),
          Long.toString(result.prestores / result.iterations), result.l1dMisses < 0 ? "" : Long.toString(result.l1dMisses),
          result.llcMisses < 0 ? "" : Long.toString(result.llcMisses))).append('\n');
    }
    Files.writeString(work.resolve("demo.csv"), csv);
    Files.writeString(work.resolve("comparison.svg"), chart(results.values(), iterations, runs));

    out.printf("stereo matching, 512x384, 32 disparities, 2 cores: %d strategies, %d run%s of %d iteration%s each%n",
        results.size(), runs, runs == 1 ? "" : "s", iterations, iterations == 1 ? "" : "s");
    out.print(table.render("  "));
    out.println("outputs: identical (" + describeDigests(results) + ")");
    if (quality != null) {
      out.println(quality);
    }
    out.println("cache misses (data, one iteration): " + missSource);
    out.println("wrote " + Paths.display(work.resolve("demo.csv")) + ", " + Paths.display(work.resolve("comparison.svg"))
        + (Files.exists(disparity) ? ", " + Paths.display(disparity) : ""));
    out.printf("demo took %.0f s%n", (System.nanoTime() - start) / 1e9);
    return Main.OK;
  }

  /** The summary of the agreement: the first strategy's MD5 per sink FIFO, shortened. */
  private static String describeDigests(Map<String, Result> results) {
    List<String> parts = new ArrayList<>();
    results.values().iterator().next().digests.forEach((fifo, md5) -> parts.add(fifo + " " + md5.substring(0, 8)
        + "..."));
    return "MD5 " + String.join(", ", parts);
  }

  private static String misses(long value) {
    return value < 0 ? "-" : String.format(Locale.ROOT, "%,d", value);
  }

  private static String format(String pattern, Object... values) {
    return String.format(Locale.ROOT, pattern, values);
  }

  private Path runtimeSources() {
    String property = System.getProperty(GenerateCommand.RUNTIME_PROPERTY);
    if (property != null && !property.isBlank()) {
      return Path.of(property).toAbsolutePath();
    }
    return root.resolve("runtime-c").toAbsolutePath().normalize();
  }

  private void generate(Path stereo, Path project, String strategy) {
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream capture = new PrintStream(captured, true, StandardCharsets.UTF_8);
    String previous = System.getProperty(GenerateCommand.RUNTIME_PROPERTY);
    if (previous == null && System.getenv("CACHEFLOW_HOME") == null) {
      // Run outside the launcher (tests): bundle the runtime of the repository the demo runs from.
      System.setProperty(GenerateCommand.RUNTIME_PROPERTY, runtimeSources().toString());
    }
    try {
      int status = new GenerateCommand().run(List.of(stereo.toString(), "--out", project.toString(), "--scenario",
          stereo.resolve("Scenarios/2core.scenario").toString(), "--strategy", strategy, "--sources",
          stereo.resolve("Code/src").toString(), "--include", stereo.resolve("Code/include").toString()), capture,
          capture);
      if (status != Main.OK) {
        throw new DemoFailure("generating " + strategy + " failed:\n" + captured.toString(StandardCharsets.UTF_8));
      }
    } finally {
      if (previous == null && System.getenv("CACHEFLOW_HOME") == null) {
        System.clearProperty(GenerateCommand.RUNTIME_PROPERTY);
      }
    }
  }

  /** Parses one {@code --validate} run into the result; returns the program's quality line. */
  static String parseRun(String output, Result result, Path log) {
    Map<String, String> digests = new LinkedHashMap<>();
    String quality = null;
    boolean sawStats = false;
    boolean sawTime = false;
    for (String line : output.split("\n")) {
      Matcher matcher;
      if ((matcher = DIGEST.matcher(line)).matches()) {
        digests.put(matcher.group(1), matcher.group(2));
      } else if ((matcher = STATS.matcher(line)).find()) {
        result.bytesCopied = Long.parseLong(matcher.group(1));
        result.bytesStreamed = Long.parseLong(matcher.group(2));
        result.cowPages = Long.parseLong(matcher.group(3));
        result.prestores = Long.parseLong(matcher.group(5));
        sawStats = true;
      } else if ((matcher = TIME.matcher(line)).find()) {
        int iterations = Integer.parseInt(matcher.group(2));
        result.iterations = iterations;
        result.millisPerIteration.add(Double.parseDouble(matcher.group(1)) * 1000 / iterations);
        sawTime = true;
      } else if (quality == null && QUALITY.matcher(line).matches()) {
        quality = line;
      }
    }
    if (digests.isEmpty() || !sawStats || !sawTime) {
      throw new DemoFailure(result.strategy + " printed no " + (digests.isEmpty() ? "MD5 lines" : !sawStats
          ? "statistics line" : "time line") + "; its output is in " + Paths.display(log));
    }
    if (!result.digests.isEmpty() && !result.digests.equals(digests)) {
      throw new DemoFailure(result.strategy + " printed different MD5s in two runs: " + result.digests + " and "
          + digests);
    }
    result.digests = digests;
    return quality;
  }

  /** Every strategy must compute exactly what the first one (the baseline by default) computed. */
  static void checkDigests(Map<String, Result> results) {
    Result reference = results.values().iterator().next();
    List<String> differences = new ArrayList<>();
    for (Result result : results.values()) {
      if (!result.digests.keySet().equals(reference.digests.keySet())) {
        differences.add(result.strategy + " has sink FIFOs " + result.digests.keySet() + ", " + reference.strategy
            + " has " + reference.digests.keySet());
        continue;
      }
      reference.digests.forEach((fifo, md5) -> {
        if (!md5.equals(result.digests.get(fifo))) {
          differences.add(fifo + ": " + reference.strategy + " " + md5 + ", " + result.strategy + " "
              + result.digests.get(fifo));
        }
      });
    }
    if (!differences.isEmpty()) {
      throw new DemoFailure("the strategies' outputs differ:\n  " + String.join("\n  ", differences));
    }
  }

  /** Fills the L1D / LLC misses of one iteration per strategy; returns how they were measured. */
  private String measureMisses(Path work, Map<String, Path> programs, Map<String, Result> results, Progress progress)
      throws IOException {
    String perfProblem = perfProblem(work);
    if (perfProblem == null) {
      for (Map.Entry<String, Path> program : programs.entrySet()) {
        progress.step("perf stat: " + program.getKey());
        Path log = work.resolve("build").resolve(program.getKey() + ".perf.log");
        Files.deleteIfExists(log);
        String output = command(log, work, null, "perf", "stat", "-x", ",", "-e",
            "L1-dcache-load-misses,LLC-load-misses", "--", program.getValue().toString(), "--iterations", "1");
        Result result = results.get(program.getKey());
        for (String line : output.split("\n")) {
          String[] fields = line.split(",");
          if (fields.length > 2 && fields[0].matches("[0-9]+")) {
            if (fields[2].startsWith("L1-dcache")) {
              result.l1dMisses = Long.parseLong(fields[0]);
            } else if (fields[2].startsWith("LLC")) {
              result.llcMisses = Long.parseLong(fields[0]);
            }
          }
        }
      }
      return "perf stat (hardware counters: L1-dcache-load-misses, LLC-load-misses)";
    }
    if (!onPath("valgrind")) {
      return "not measured: " + perfProblem + " and valgrind is not installed";
    }
    Path outputs = work.resolve("build/cachegrind");
    Files.createDirectories(outputs);
    // cachegrind runs the program's threads one at a time, so two simulations use the two cores.
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(2,
        Runtime.getRuntime().availableProcessors())));
    try {
      Map<String, Future<String>> pending = new LinkedHashMap<>();
      for (Map.Entry<String, Path> program : programs.entrySet()) {
        String strategy = program.getKey();
        pending.put(strategy, pool.submit(() -> {
          Path log = outputs.resolve(strategy + ".log");
          Files.deleteIfExists(log);
          List<String> argv = new ArrayList<>(List.of("valgrind", "--tool=cachegrind", "--cache-sim=yes"));
          argv.addAll(List.of(CACHEGRIND_GEOMETRY));
          argv.addAll(List.of("--cachegrind-out-file=" + outputs.resolve(strategy + ".out"),
              program.getValue().toString(), "--iterations", "1"));
          return command(log, work, null, argv.toArray(String[]::new));
        }));
      }
      int done = 0;
      for (Map.Entry<String, Future<String>> entry : pending.entrySet()) {
        progress.step("cachegrind (" + done + "/" + pending.size() + " done): " + entry.getKey());
        String output = entry.getValue().get();
        Result result = results.get(entry.getKey());
        result.l1dMisses = cachegrindCount(CACHEGRIND_D1, output, entry.getKey());
        result.llcMisses = cachegrindCount(CACHEGRIND_LLD, output, entry.getKey());
        done++;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new DemoFailure("interrupted while running cachegrind");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof DemoFailure failure) {
        throw failure;
      }
      throw new DemoFailure("cachegrind failed: " + e.getCause());
    } finally {
      pool.shutdownNow();
    }
    return "cachegrind, simulated caches given explicitly (L1D 32 KiB 8-way, LL 32 MiB 16-way, 64 B lines: "
        + String.join(" ", CACHEGRIND_GEOMETRY) + "), because " + perfProblem;
  }

  private static long cachegrindCount(Pattern pattern, String output, String strategy) {
    Matcher matcher = pattern.matcher(output);
    if (!matcher.find()) {
      throw new DemoFailure("cachegrind printed no '" + pattern.pattern() + "' line for " + strategy);
    }
    return Long.parseLong(matcher.group(1).replace(",", ""));
  }

  /** Why perf cannot count cache misses here, or null when it can. */
  private static String perfProblem(Path work) {
    if (!onPath("perf")) {
      return "perf is not installed";
    }
    try {
      Process process = new ProcessBuilder("perf", "stat", "-x", ",", "-e", "instructions", "true")
          .directory(work.toFile()).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
        return "perf stat fails here";
      }
      for (String line : output.split("\n")) {
        if (line.contains("instructions") && line.split(",")[0].matches("[0-9]+")) {
          return null;
        }
      }
      return "perf has no hardware counters here (instructions: <not supported>)";
    } catch (IOException e) {
      return "perf cannot run: " + e.getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }

  private static boolean onPath(String program) {
    String path = System.getenv("PATH");
    if (path == null) {
      return false;
    }
    for (String folder : path.split(java.io.File.pathSeparator)) {
      if (!folder.isEmpty() && Files.isExecutable(Path.of(folder, program))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Runs a program, appending its output (stdout and stderr) to {@code log} and returning it; on failure shows
   * the end of the log in the exception.
   */
  static String command(Path log, Path directory, Map<String, String> environment, String... argv)
      throws IOException {
    ProcessBuilder builder = new ProcessBuilder(argv).directory(directory.toFile()).redirectErrorStream(true);
    if (environment != null) {
      builder.environment().putAll(environment);
    }
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new DemoFailure("cannot run " + argv[0] + ": " + e.getMessage() + " (is it installed?)");
    }
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    int status;
    try {
      status = process.waitFor();
    } catch (InterruptedException e) {
      process.destroy();
      Thread.currentThread().interrupt();
      throw new DemoFailure("interrupted while running " + argv[0]);
    }
    Files.createDirectories(log.getParent());
    Files.writeString(log, "$ " + String.join(" ", argv) + "\n" + output, StandardCharsets.UTF_8,
        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
    if (status != 0) {
      List<String> lines = Arrays.asList(output.split("\n"));
      String tail = String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
      throw new DemoFailure(String.join(" ", argv) + " failed with status " + status + "; the end of "
          + Paths.display(log) + ":\n" + tail);
    }
    return output;
  }

  /** A horizontal bar chart of the median times, min-max whiskers and speed-ups against the baseline. */
  static String chart(Iterable<Result> results, int iterations, int runs) {
    List<Result> rows = new ArrayList<>();
    results.forEach(rows::add);
    double scale = rows.stream().mapToDouble(Result::max).max().orElse(1);
    Result baseline = rows.stream().filter(r -> r.strategy.equals("baseline")).findFirst().orElse(null);
    int labelWidth = 130;
    int barWidth = 480;
    int rowHeight = 28;
    int top = 50;
    int height = top + rows.size() * rowHeight + 40;
    int width = labelWidth + barWidth + 150;
    StringBuilder svg = new StringBuilder();
    svg.append(format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
        + "font-family=\"sans-serif\" font-size=\"13\">%n", width, height));
    svg.append(format("<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
    svg.append(format("<text x=\"10\" y=\"22\" font-size=\"15\" font-weight=\"bold\">cacheflow demo: stereo "
        + "matching on 2 cores, ms per iteration (median of %d run%s of %d iteration%s, min-max)</text>%n", runs,
        runs == 1 ? "" : "s", iterations, iterations == 1 ? "" : "s"));
    for (int i = 0; i < rows.size(); i++) {
      Result result = rows.get(i);
      double y = top + i * rowHeight;
      double length = barWidth * result.median() / scale;
      String colour = result.strategy.equals("baseline") ? "#999999"
          : result.strategy.equals("auto") ? "#d95f02" : "#1b9e77";
      svg.append(format("<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", labelWidth - 8, y + 17,
          escape(result.strategy)));
      svg.append(format("<rect x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>%n", labelWidth, y + 4,
          length, rowHeight - 8, colour));
      double low = labelWidth + barWidth * result.min() / scale;
      double high = labelWidth + barWidth * result.max() / scale;
      svg.append(format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>%n", low,
          y + rowHeight / 2.0, high, y + rowHeight / 2.0));
      String speedUp = baseline == null ? "" : format(" (%.2fx)", baseline.median() / result.median());
      svg.append(format("<text x=\"%.1f\" y=\"%.1f\">%.1f ms%s</text>%n", Math.max(high, labelWidth + length) + 6,
          y + 17, result.median(), speedUp));
    }
    svg.append(format("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>%n", labelWidth, top,
        labelWidth, top + rows.size() * rowHeight));
    svg.append(format("<text x=\"%d\" y=\"%d\" fill=\"#555555\">speed-up against the baseline (PREESM's plain "
        + "copies) in brackets</text>%n", labelWidth, top + rows.size() * rowHeight + 24));
    svg.append("</svg>\n");
    return svg.toString();
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
