package org.cacheflow.bench;

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
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.cacheflow.cli.CliCommand;
import org.cacheflow.cli.GenerateCommand;
import org.cacheflow.cli.Main;
import org.cacheflow.cli.PositiveInt;
import org.cacheflow.cli.Progress;
import org.cacheflow.cli.Table;
import org.cacheflow.cli.UsageException;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.pipeline.ActorCodeOptions;
import org.cacheflow.pipeline.GenerateOptions;
import org.cacheflow.pipeline.Input;
import org.cacheflow.pipeline.OptionException;
import org.cacheflow.pipeline.PathText;
import org.cacheflow.pipeline.Pipeline;
import org.cacheflow.plan.strategy.StrategyPreset;
import org.cacheflow.workflow.run.ProjectActorCode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cacheflow demo}: generates the stereo example with every strategy, builds and runs each, checks that
 * they compute the same thing and compares their speed, copies and cache misses.
 */
@Command(name = "demo", header = "generate, build and run the stereo example with every strategy and compare them",
    synopsisHeading = "usage: ", abbreviateSynopsis = true, separator = " ", sortOptions = false,
    descriptionHeading = "%n", optionListHeading = "%noptions:%n")
public final class DemoCommand extends CliCommand {

  /** Strategies of a {@code --quick} run: the baseline, the two techniques that change most, and auto. */
  static final List<String> QUICK_STRATEGIES = List.of("baseline", "channels", "cow", "auto");

  /** Strategies whose cache misses are simulated by default: the baseline, the paper's two techniques, auto. */
  static final List<String> MISS_STRATEGIES = List.of("baseline", "ntm", "cow", "auto");

  /** The caches of this project's machine type (zen4-vm), given to cachegrind explicitly (--cache replaces them). */
  static final List<Cache> DEFAULT_CACHES = List.of(new Cache("I1", 32768, 8, 64), new Cache("D1", 32768, 8, 64),
      new Cache("LL", 33554432, 16, 64));

  /**
   * The simulated frame is this many times smaller in each dimension than the timed one (cachegrind runs a
   * program about 50 times slower), and the simulated data caches shrink by its square.
   */
  static final int DEFAULT_MISS_SCALE = 2;

  private static final Pattern DIGEST = Pattern.compile("^(\\S.* -> .*\\S) : ([0-9a-f]{32})$");
  private static final Pattern STATS = Pattern.compile("^stats: bytes copied (\\d+), non-temporal (\\d+), "
      + "cow pages shared (\\d+), faulted (\\d+), re-shared (\\d+), pre-stores (\\d+) \\((\\d+) lines\\)");
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

  @Option(names = "--out", paramLabel = "DIR", description = "work folder (default target/demo under the current "
      + "directory)")
  String out = "target/demo";

  @Option(names = "--quick", description = "1 iteration, 1 run, strategies baseline, channels, cow, auto (for tests)")
  boolean quick;

  @Option(names = "--iterations", paramLabel = "N", converter = PositiveInt.class, description = "graph iterations per "
      + "run (default 2)")
  Integer iterations;

  @Option(names = "--runs", paramLabel = "R", converter = PositiveInt.class, description = "timed runs per strategy "
      + "(default 3)")
  Integer runs;

  @Option(names = "--strategies", paramLabel = "LIST", descriptionKey = "strategies")
  String strategiesOption;

  @Option(names = "--param", paramLabel = "NAME=VALUE", description = "a parameter of stereo.pi for every program, "
      + "e.g. width=1024 (repeatable)")
  List<String> paramTexts = new ArrayList<>();

  @Option(names = "--miss-strategies", paramLabel = "L", descriptionKey = "miss-strategies")
  String missStrategiesOption;

  @Option(names = "--miss-scale", paramLabel = "K", converter = PositiveInt.class, description = "simulated frame = "
      + "timed frame / K in each dimension (default " + DEFAULT_MISS_SCALE + "; 1 = the timed programs themselves)")
  Integer missScaleOption;

  @Option(names = "--cache", paramLabel = "L=B,W,S", description = "a cache for cachegrind instead of zen4-vm's, L one "
      + "of I1, D1, LL (repeatable; B bytes, W ways, S line bytes; B/(W*S) sets must be a power of two)")
  List<String> cacheTexts = new ArrayList<>();

  @Option(names = "--no-cachegrind", description = "no cache-miss measurement when perf counters do not work")
  boolean noCachegrind;

  @Option(names = "--unannotated", description = "also run every strategy S as S" + UNANNOTATED + " on a copy of the "
      + "example derived here, in DIR, with its READ_ONLY port annotations (made NONE) and read-mostly marks (the "
      + "scripts' markReadMostly calls) removed: consumers that may write, where merging cannot share (rows "
      + "interleaved with the example's; outputs must stay identical)")
  boolean unannotated;

  @Parameters(hidden = true, arity = "0..*")
  List<String> positionals = new ArrayList<>();

  @Override
  protected Map<String, String> texts() {
    return Map.of("strategies", "comma-separated strategies (default all: " + String.join(", ", allStrategies())
        + ")", "miss-strategies", "strategies whose misses are measured (default those of " + String.join(", ",
            MISS_STRATEGIES) + " that run; 'all')", "usage.description", """
        Generates examples/stereo (2-core scenario, the real actors) with the baseline (PREESM's plain copies) \
        and with each strategy including auto, builds each with CMake and Ninja, two at a time (the C runtime is \
        built and installed once into DIR/runtime and shared), runs each R times with --iterations N --validate, \
        checks that every program printed the same MD5 for every sink FIFO (else it fails, naming the \
        strategies and FIFOs that differ), and prints a table: median time per iteration over the runs with \
        min-max, speed-up against the baseline, bytes copied (with memcpy, and with streaming stores), \
        copy-on-write pages shared, faulted and re-shared, and pre-stores per iteration (from the runtime's \
        statistics), and L1D / LLC data misses of one iteration. The misses come from perf when the hardware \
        counters work, else from cachegrind with the caches given explicitly (zen4-vm's: 32 KiB 8-way L1, 32 MiB \
        16-way LL, 64 B lines). cachegrind is about 50 times slower than the program, so by default it simulates \
        only %s, on a frame K=%d times smaller in each dimension with data caches K*K times smaller (every FIFO \
        keeps its size relative to the caches); the table says which tool, frame and caches. See docs/demo.md.%n%n\
        Writes into DIR: demo.csv (the table), runs.csv (every timed run), comparison.svg (bar chart of the \
        times, with speed-ups), disparity.pgm (the first strategy's disparity map), one generated project per \
        strategy, build/ and logs. A progress line on stderr (when it is a terminal) shows what it is doing. \
        The default takes under 3 minutes on the 2-core machine this project targets.%n""".formatted(
            String.join(", ", MISS_STRATEGIES), DEFAULT_MISS_SCALE));
  }

  /** The suffix of a strategy run on the example without its read-only annotations and marks. */
  static final String UNANNOTATED = "-unannotated";

  /** The strategy (code generator preset) of a row label. */
  static String preset(String label) {
    return label.endsWith(UNANNOTATED) ? label.substring(0, label.length() - UNANNOTATED.length()) : label;
  }

  /**
   * Copies the stereo example into {@code target} (named like the example, as its scenarios refer to it) with its
   * READ_ONLY port annotations made NONE and the scripts' markReadMostly calls removed.
   */
  static Path unannotatedCopy(Path stereo, Path target) throws IOException {
    Path copy = target.resolve(stereo.getFileName());
    if (Files.exists(copy)) {
      try (java.util.stream.Stream<Path> old = Files.walk(copy)) {
        for (Path path : old.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.delete(path);
        }
      }
    }
    try (java.util.stream.Stream<Path> files = Files.walk(stereo)) {
      for (Path source : files.toList()) {
        Path destination = copy.resolve(stereo.relativize(source).toString());
        if (Files.isDirectory(source)) {
          Files.createDirectories(destination);
          continue;
        }
        String name = source.getFileName().toString();
        if (name.endsWith(".pi")) {
          Files.writeString(destination, Files.readString(source).replace("annotation=\"READ_ONLY\"",
              "annotation=\"NONE\""));
        } else if (name.endsWith(".bsh")) {
          Files.writeString(destination, Files.readString(source).lines()
              .filter(line -> !line.contains(".markReadMostly("))
              .collect(java.util.stream.Collectors.joining("\n", "", "\n")));
        } else {
          Files.copy(source, destination);
        }
      }
    }
    return copy;
  }

  /** Every strategy of the vocabulary, in {@link StrategyPreset} order. */
  static List<String> allStrategies() {
    return StrategyPreset.labels();
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
    long cowShared;
    long cowPages;
    long cowReshared;
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

  /** One cache level given to cachegrind: {@code --NAME=BYTES,WAYS,LINE}. */
  record Cache(String level, long bytes, int ways, int lineBytes) {

    /** Parses {@code LEVEL=BYTES,WAYS,LINE} (LEVEL one of I1, D1, LL), as cachegrind's options take it. */
    static Cache parse(String text) {
      Matcher matcher = Pattern.compile("(I1|D1|LL)=(\\d+),(\\d+),(\\d+)").matcher(text.trim());
      if (!matcher.matches()) {
        throw new UsageException("--cache expects LEVEL=BYTES,WAYS,LINE with LEVEL I1, D1 or LL (e.g. "
            + "D1=49152,12,64), got '" + text + "'");
      }
      Cache cache = new Cache(matcher.group(1), Long.parseLong(matcher.group(2)), Integer.parseInt(matcher.group(3)),
          Integer.parseInt(matcher.group(4)));
      cache.checkSets("--cache " + text);
      return cache;
    }

    /** The same cache with {@code 1/divisor} of the capacity (fewer sets, same ways and lines). */
    Cache shrunk(int divisor) {
      Cache cache = new Cache(level, bytes / divisor, ways, lineBytes);
      cache.checkSets(level + " divided by " + divisor);
      return cache;
    }

    /** cachegrind accepts only a power-of-two number of sets. */
    private void checkSets(String what) {
      long setBytes = (long) ways * lineBytes;
      long sets = setBytes == 0 ? 0 : bytes / setBytes;
      if (ways <= 0 || lineBytes <= 0 || sets == 0 || bytes % setBytes != 0 || Long.bitCount(sets) != 1) {
        throw new UsageException(what + ": cachegrind needs a power-of-two number of sets, and " + bytes + " B / ("
            + ways + " ways x " + lineBytes + " B) is not one");
      }
    }

    String option() {
      return "--" + level + "=" + bytes + "," + ways + "," + lineBytes;
    }

    String describe() {
      String size = bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? (bytes >> 20) + " MiB"
          : bytes % 1024 == 0 ? (bytes >> 10) + " KiB" : bytes + " B";
      return size + " " + ways + "-way";
    }
  }

  /** The frame of a stereo program: it fixes the work and the size of every FIFO. */
  record Frame(long width, long height, long disparities, long slices) {

    /** The parameters of examples/stereo/Algo/stereo.pi, with the given {@code --param} values instead. */
    static Frame of(Path pi, Map<String, String> overrides) throws IOException {
      String graph = Files.readString(pi);
      long[] values = new long[4];
      String[] names = {"width", "height", "nbDisparities", "nbSlices"};
      for (int i = 0; i < names.length; i++) {
        String text = overrides.get(names[i]);
        if (text == null) {
          Matcher matcher = Pattern.compile("<node expr=\"([^\"]*)\" id=\"" + names[i] + "\" kind=\"param\"")
              .matcher(graph);
          if (!matcher.find()) {
            throw new DemoFailure(PathText.display(pi) + ": no parameter '" + names[i] + "'");
          }
          text = matcher.group(1);
        }
        try {
          values[i] = Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
          throw new UsageException("parameter " + names[i] + " must be an integer for the demo, got '" + text + "'");
        }
      }
      return new Frame(values[0], values[1], values[2], values[3]);
    }

    /** The frame divided by {@code scale} in each dimension, for the cache simulations. */
    Frame reduced(int scale) {
      if (width % scale != 0 || height % scale != 0 || (height / scale) % slices != 0) {
        throw new UsageException("--miss-scale " + scale + " does not divide the " + this + " frame exactly (width "
            + "and height must divide by it, and the reduced height by nbSlices = " + slices + ")");
      }
      return new Frame(width / scale, height / scale, disparities, slices);
    }

    List<String> params() {
      return List.of("width=" + width, "height=" + height);
    }

    @Override
    public String toString() {
      return width + "x" + height;
    }
  }

  /** A generated and built program: a strategy at a frame size. */
  private record Program(String strategy, Path project, Path build, Path log) {
    Path executable() {
      return build.resolve("stereo");
    }
  }

  @Override
  public Integer call() {
    if (!positionals.isEmpty()) {
      throw new UsageException("demo takes no positional argument, got " + positionals);
    }
    int iterations = this.iterations != null ? this.iterations : quick ? 1 : 2;
    int runs = this.runs != null ? this.runs : quick ? 1 : 3;
    List<String> chosen = strategyList(strategiesOption, quick ? QUICK_STRATEGIES : allStrategies(), "--strategies");
    List<String> strategies = new ArrayList<>();
    for (String strategy : chosen) {
      strategies.add(strategy);
      if (unannotated) {
        strategies.add(strategy + UNANNOTATED);
      }
    }
    List<String> missStrategies = Optional.ofNullable(missStrategiesOption)
        .map(list -> list.trim().equals("all") ? strategies : strategyList(list, List.of(), "--miss-strategies"))
        .orElse(strategies.stream().filter(MISS_STRATEGIES::contains).toList());
    for (String strategy : missStrategies) {
      if (!strategies.contains(strategy)) {
        throw new UsageException("--miss-strategies names '" + strategy + "', which --strategies leaves out");
      }
    }
    int missScale = missScaleOption != null ? missScaleOption : DEFAULT_MISS_SCALE;
    Map<String, Cache> caches = new LinkedHashMap<>();
    for (Cache cache : DEFAULT_CACHES) {
      caches.put(cache.level(), cache);
    }
    cacheTexts.stream().map(Cache::parse).forEach(cache -> caches.put(cache.level(), cache));
    Map<String, String> params = Input.parseParams(paramTexts);
    Path work = Path.of(out).toAbsolutePath().normalize();
    Path stereo = root.resolve("examples/stereo").toAbsolutePath().normalize();
    if (!Files.isDirectory(stereo)) {
      throw new DemoFailure("cannot find examples/stereo under " + PathText.display(root.toAbsolutePath())
          + ": run the demo from the repository (./cacheflow demo)");
    }
    try {
      Frame frame = Frame.of(stereo.resolve("Algo/stereo.pi"), params);
      boolean measureMisses = !noCachegrind && !missStrategies.isEmpty();
      Frame missFrame = measureMisses ? frame.reduced(missScale) : frame;
      List<Cache> simulated = new ArrayList<>();
      for (Cache cache : caches.values()) {
        // Instructions do not grow with the frame: only the data caches shrink with it.
        simulated.add(cache.level().equals("I1") ? cache : cache.shrunk(missScale * missScale));
      }
      Settings settings = new Settings(work, stereo, strategies, missStrategies, iterations, runs, params, frame,
          missFrame, missScale, measureMisses, List.copyOf(caches.values()), simulated);
      return demo(super.out, err, settings);
    } catch (DemoFailure e) {
      err.println("error: " + e.getMessage());
      return Main.BAD_INPUT;
    } catch (IOException e) {
      err.println("error: " + e.getMessage());
      return Main.BAD_INPUT;
    }
  }

  /** What the command line asked for. */
  private record Settings(Path work, Path stereo, List<String> strategies, List<String> missStrategies,
      int iterations, int runs, Map<String, String> params, Frame frame, Frame missFrame, int missScale,
      boolean measureMisses, List<Cache> caches, List<Cache> simulatedCaches) {
  }

  private static List<String> strategyList(String list, List<String> otherwise, String option) {
    if (list == null) {
      return otherwise;
    }
    List<String> names = Arrays.stream(list.split(",")).map(String::trim).filter(s -> !s.isEmpty()).distinct()
        .toList();
    for (String strategy : names) {
      if (!allStrategies().contains(strategy)) {
        throw new UsageException("unknown strategy '" + strategy + "' in " + option + " (known: "
            + String.join(", ", allStrategies()) + ")");
      }
    }
    if (names.isEmpty()) {
      throw new UsageException(option + " names no strategy");
    }
    return names;
  }

  private int demo(PrintStream out, PrintStream err, Settings settings) throws IOException {
    long start = System.nanoTime();
    Path work = settings.work();
    Files.createDirectories(work);
    Progress progress = new Progress(err);
    Path runtimePrefix = work.resolve("runtime");
    progress.step("building the C runtime once (" + PathText.display(runtimePrefix) + ")");
    Path runtimeBuild = work.resolve("build/runtime");
    Files.createDirectories(runtimeBuild);
    Path runtimeLog = work.resolve("build/runtime.log");
    Files.deleteIfExists(runtimeLog);
    command(runtimeLog, work, null, "cmake", "-S", runtimeSources().toString(), "-B", runtimeBuild.toString(),
        "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release", "-DCF_BUILD_TESTS=OFF", "-DCF_BUILD_BENCH=OFF",
        "-DCMAKE_INSTALL_PREFIX=" + runtimePrefix);
    command(runtimeLog, work, null, "cmake", "--build", runtimeBuild.toString());
    command(runtimeLog, work, null, "cmake", "--install", runtimeBuild.toString());

    // The timed programs, then (when the simulations run on a smaller frame) the simulated ones.
    Map<String, Program> programs = new LinkedHashMap<>();
    Map<String, Program> missPrograms = new LinkedHashMap<>();
    for (String strategy : settings.strategies()) {
      programs.put(strategy, new Program(strategy, work.resolve(strategy), work.resolve("build").resolve(strategy),
          work.resolve("build").resolve(strategy + ".log")));
    }
    boolean separateMissBuilds = settings.measureMisses() && settings.missScale() > 1;
    for (String strategy : settings.measureMisses() ? settings.missStrategies() : List.<String>of()) {
      missPrograms.put(strategy, separateMissBuilds
          ? new Program(strategy, work.resolve("misses").resolve(strategy), work.resolve("build/misses").resolve(strategy),
              work.resolve("build/misses").resolve(strategy + ".log"))
          : programs.get(strategy));
    }
    long buildStart = System.nanoTime();
    generateAndBuild(settings, programs, separateMissBuilds ? missPrograms : Map.of(), runtimePrefix, progress);
    long buildNanos = System.nanoTime() - buildStart;

    // Runs interleave the strategies so that a disturbance of the machine hits all of them alike.
    long runStart = System.nanoTime();
    Map<String, Result> results = new LinkedHashMap<>();
    settings.strategies().forEach(s -> results.put(s, new Result(s)));
    String quality = null;
    Path disparity = work.resolve("disparity.pgm");
    StringBuilder runsCsv = new StringBuilder("strategy,run,ms_per_iteration\n");
    int iterations = settings.iterations();
    for (int run = 0; run < settings.runs(); run++) {
      for (String strategy : settings.strategies()) {
        progress.step("run " + (run + 1) + "/" + settings.runs() + ": " + strategy + " (" + iterations
            + " iteration" + (iterations == 1 ? "" : "s") + ")");
        Map<String, String> environment = new LinkedHashMap<>();
        if (run == 0 && strategy.equals(settings.strategies().get(0))) {
          environment.put("STEREO_OUTPUT", disparity.toString());
        }
        Path log = work.resolve("build").resolve(strategy + ".run.log");
        if (run == 0) {
          Files.deleteIfExists(log);
        }
        String output = command(log, work, environment, programs.get(strategy).executable().toString(),
            "--iterations", Integer.toString(iterations), "--validate");
        Result result = results.get(strategy);
        String line = parseRun(output, result, log);
        runsCsv.append(strategy).append(',').append(run + 1).append(',')
            .append(format("%.3f", result.millisPerIteration.get(result.millisPerIteration.size() - 1))).append('\n');
        quality = quality == null ? line : quality;
      }
    }
    checkDigests(results);
    long runNanos = System.nanoTime() - runStart;

    long missStart = System.nanoTime();
    List<String> missNotes = new ArrayList<>();
    String missSource = settings.measureMisses() ? measureMisses(settings, missPrograms, results, missNotes, progress)
        : "not measured (" + (settings.missStrategies().isEmpty() ? "--miss-strategies is empty" : "--no-cachegrind")
            + ")";
    long missNanos = System.nanoTime() - missStart;
    progress.done();

    Result baseline = results.get("baseline");
    Table table = new Table("strategy", "ms/iter", "min-max", "speed-up", "copied MiB/iter",
        "streamed MiB/iter", "CoW pages/iter shared/faulted/re-shared",
        "pre-stores/iter", "L1D misses", "LLC misses");
    StringBuilder csv = new StringBuilder("strategy,median_ms_per_iteration,min_ms,max_ms,speedup_vs_baseline,"
        + "bytes_copied_per_iteration,bytes_streamed_per_iteration,cow_pages_per_iteration,prestores_per_iteration,l1d_misses,llc_misses,"
        + "cow_pages_shared_per_iteration,cow_pages_reshared_per_iteration\n");
    for (Result result : results.values()) {
      String speedUp = baseline == null ? "-" : format("%.2fx", baseline.median() / result.median());
      table.row(result.strategy, format("%.1f", result.median()),
          format("%.1f-%.1f", result.min(), result.max()), speedUp,
          format("%.1f", result.bytesCopied / (double) result.iterations / (1 << 20)),
          format("%.1f", result.bytesStreamed / (double) result.iterations / (1 << 20)),
          result.cowShared / result.iterations + "/" + result.cowPages / result.iterations + "/"
              + result.cowReshared / result.iterations, Long.toString(result.prestores / result.iterations),
          misses(result.l1dMisses), misses(result.llcMisses));
      csv.append(String.join(",", result.strategy, format("%.3f", result.median()), format("%.3f", result.min()),
          format("%.3f", result.max()), baseline == null ? "" : format("%.4f", baseline.median() / result.median()),
          Long.toString(result.bytesCopied / result.iterations), Long.toString(result.bytesStreamed / result.iterations),
          Long.toString(result.cowPages / result.iterations),
          Long.toString(result.prestores / result.iterations), result.l1dMisses < 0 ? "" : Long.toString(result.l1dMisses),
          result.llcMisses < 0 ? "" : Long.toString(result.llcMisses), Long.toString(result.cowShared / result.iterations),
          Long.toString(result.cowReshared / result.iterations))).append('\n');
    }
    Files.writeString(work.resolve("demo.csv"), csv);
    Files.writeString(work.resolve("runs.csv"), runsCsv);
    Files.writeString(work.resolve("comparison.svg"), chart(results.values(), iterations, settings.runs(),
        settings.frame()));

    int runs = settings.runs();
    out.printf("stereo matching, %s, %d disparities, 2 cores: %d strategies, %d run%s of %d iteration%s each%n",
        settings.frame(), settings.frame().disparities(), results.size(), runs, runs == 1 ? "" : "s", iterations,
        iterations == 1 ? "" : "s");
    out.print(table.render("  "));
    out.println("outputs: identical (" + describeDigests(results) + ")");
    if (quality != null) {
      out.println(quality);
    }
    out.println("cache misses (data, one iteration): " + missSource);
    missNotes.forEach(note -> out.println("  note: " + note));
    out.println("wrote " + PathText.display(work.resolve("demo.csv")) + ", " + PathText.display(work.resolve("runs.csv"))
        + ", " + PathText.display(work.resolve("comparison.svg"))
        + (Files.exists(disparity) ? ", " + PathText.display(disparity) : ""));
    out.printf("demo took %.0f s (generate and build %.0f s, timed runs %.0f s, cache misses %.0f s)%n",
        (System.nanoTime() - start) / 1e9, buildNanos / 1e9, runNanos / 1e9, missNanos / 1e9);
    return Main.OK;
  }

  /**
   * Generates every program in this thread (generation is quick once the code is warm) and builds them two at a
   * time, so that one program's configuration overlaps another's compilation.
   */
  private void generateAndBuild(Settings settings, Map<String, Program> programs, Map<String, Program> missPrograms,
      Path runtimePrefix, Progress progress) throws IOException {
    List<Program> all = new ArrayList<>(programs.values());
    all.addAll(missPrograms.values());
    ExecutorService builders = Executors.newFixedThreadPool(Math.max(1, Math.min(2,
        Runtime.getRuntime().availableProcessors())));
    try {
      Map<Program, Future<?>> builds = new LinkedHashMap<>();
      Future<Path> actors = builders.submit(() -> buildActors(settings));
      Path unannotated = programs.keySet().stream().anyMatch(label -> label.endsWith(UNANNOTATED))
          ? unannotatedCopy(settings.stereo(), Files.createDirectories(settings.work().resolve("unannotated")))
          : null;
      int index = 0;
      for (Program program : all) {
        boolean reduced = missPrograms.containsValue(program);
        Frame frame = reduced ? settings.missFrame() : settings.frame();
        Map<String, String> params = new LinkedHashMap<>(settings.params());
        if (reduced) {
          frame.params().forEach(param -> params.put(param.substring(0, param.indexOf('=')),
              param.substring(param.indexOf('=') + 1)));
        }
        index++;
        progress.step("[" + index + "/" + all.size() + "] " + program.strategy() + " (" + frame + "): generating"
            + (builds.isEmpty() ? "" : ", " + count(builds.values(), false) + " building"));
        Path example = program.strategy().endsWith(UNANNOTATED) ? unannotated : settings.stereo();
        generate(example, program.project(), preset(program.strategy()), params);
        builds.put(program, builders.submit(() -> {
          build(program, runtimePrefix, settings.work().resolve(ACTOR_STUB_FOLDER), await(actors));
          return null;
        }));
      }
      for (Map.Entry<Program, Future<?>> build : builds.entrySet()) {
        progress.step("building: " + count(builds.values(), true) + "/" + builds.size() + " done");
        build.getValue().get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new DemoFailure("interrupted while building");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof DemoFailure failure) {
        throw failure;
      }
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      throw new DemoFailure("a build failed: " + e.getCause());
    } finally {
      builders.shutdownNow();
    }
  }

  /** The actor library, or the failure that stopped its build (so that every program reports that cause). */
  private static Path await(Future<Path> actors) throws IOException, InterruptedException {
    try {
      return actors.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof DemoFailure failure) {
        throw failure;
      }
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      throw new DemoFailure("building the actors failed: " + e.getCause());
    }
  }

  private static long count(Iterable<Future<?>> futures, boolean done) {
    long n = 0;
    for (Future<?> future : futures) {
      n += future.isDone() == done ? 1 : 0;
    }
    return n;
  }

  /**
   * Configures and builds a generated project. Its actor sources folder is a stub, and the actors come from the
   * library built once by {@link #buildActors}, appended to the link line with the standard libraries.
   */
  private static void build(Program program, Path runtimePrefix, Path actorStub, Path actorLibrary)
      throws IOException {
    Files.createDirectories(program.log().getParent());
    Files.deleteIfExists(program.log());
    Path directory = program.log().getParent();
    command(program.log(), directory, null, "cmake", "-S", program.project().toString(), "-B",
        program.build().toString(), "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_PREFIX_PATH=" + runtimePrefix,
        "-DCACHEFLOW_ACTOR_SOURCES=" + actorStub, "-DCMAKE_C_STANDARD_LIBRARIES=\"" + actorLibrary + "\" -lm");
    command(program.log(), directory, null, "cmake", "--build", program.build().toString());
  }

  /** Where the demo writes the actor library's CMake project, and the stub sources folder the programs get. */
  static final String ACTOR_PROJECT = "actors";
  static final String ACTOR_STUB_FOLDER = "actors/linked";

  /**
   * The actors are the same C for every strategy and take most of a program's compilation, so the demo
   * compiles them once, with the generated projects' language settings, into a static library.
   */
  private static Path buildActors(Settings settings) throws IOException {
    Path project = settings.work().resolve(ACTOR_PROJECT);
    Path stub = settings.work().resolve(ACTOR_STUB_FOLDER);
    Files.createDirectories(stub);
    Files.writeString(stub.resolve("linked_actors.c"), "/* Written by cacheflow demo: the actors of examples/stereo "
        + "are linked from the library built in build/actors. */\ntypedef int cacheflow_demo_actors_are_linked;\n");
    Files.writeString(project.resolve("CMakeLists.txt"), """
        # Written by cacheflow demo: the actors of examples/stereo, compiled once for every generated program.
        cmake_minimum_required(VERSION 3.16)
        project(stereo_actors LANGUAGES C)
        set(CMAKE_C_STANDARD 11)
        set(CMAKE_C_STANDARD_REQUIRED ON)
        set(CMAKE_C_EXTENSIONS ON)
        file(GLOB actor_sources "%s/*.c")
        add_library(stereo_actors STATIC ${actor_sources})
        target_include_directories(stereo_actors PRIVATE "%s")
        """.formatted(cmakePath(settings.stereo().resolve("Code/src")),
        cmakePath(settings.stereo().resolve("Code/include"))));
    Path build = settings.work().resolve("build/actors");
    Path log = settings.work().resolve("build/actors.log");
    Files.deleteIfExists(log);
    command(log, settings.work(), null, "cmake", "-S", project.toString(), "-B", build.toString(), "-G", "Ninja",
        "-DCMAKE_BUILD_TYPE=Release");
    command(log, settings.work(), null, "cmake", "--build", build.toString());
    return build.resolve("libstereo_actors.a");
  }

  private static String cmakePath(Path path) {
    return path.toAbsolutePath().toString().replace('\\', '/').replace("\"", "\\\"");
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

  private void generate(Path stereo, Path project, String strategy, Map<String, String> params) {
    Input input = new Input(stereo, stereo.resolve("Scenarios/2core.scenario"), params);
    ActorCodeOptions actors = new ActorCodeOptions(stereo.resolve("Code/src"), List.of(stereo.resolve("Code/include")),
        List.of(), List.of());
    try {
      new Pipeline().generate(GenerateOptions.of(input, project, runtimeSources())
          .withStrategy(StrategyPreset.named(strategy)).withActorCode(actors, ProjectActorCode.defaults()));
    } catch (InputException e) {
      throw new DemoFailure("generating " + strategy + " failed:\nerror: " + e.describe());
    } catch (OptionException e) {
      throw new DemoFailure("generating " + strategy + " failed:\nerror: " + e.getMessage());
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
        result.cowShared = Long.parseLong(matcher.group(3));
        result.cowPages = Long.parseLong(matcher.group(4));
        result.cowReshared = Long.parseLong(matcher.group(5));
        result.prestores = Long.parseLong(matcher.group(6));
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
          ? "statistics line" : "time line") + "; its output is in " + PathText.display(log));
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

  /**
   * Fills the L1D / LLC data misses of one iteration of the simulated strategies; returns how they were
   * measured. The simulated programs must agree with each other (MD5s), and a strategy whose share of the
   * baseline's copies differs between the two frame sizes is planned differently there, which a note says.
   */
  private String measureMisses(Settings settings, Map<String, Program> programs, Map<String, Result> results,
      List<String> notes, Progress progress) throws IOException {
    Path work = settings.work();
    String perfProblem = perfProblem(work);
    Map<String, Result> simulated = new LinkedHashMap<>();
    String tool;
    if (perfProblem == null) {
      for (Program program : programs.values()) {
        progress.step("perf stat: " + program.strategy());
        Path log = work.resolve("build").resolve(program.strategy() + ".perf.log");
        Files.deleteIfExists(log);
        String output = command(log, work, null, "perf", "stat", "-x", ",", "-e",
            "L1-dcache-load-misses,LLC-load-misses", "--", program.executable().toString(), "--iterations", "1",
            "--validate");
        Result result = results.get(program.strategy());
        Result run = new Result(program.strategy());
        parseRun(output, run, log);
        simulated.put(program.strategy(), run);
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
      tool = "perf stat (hardware counters: L1-dcache-load-misses, LLC-load-misses)";
    } else if (!onPath("valgrind")) {
      return "not measured: " + perfProblem + " and valgrind is not installed";
    } else {
      cachegrind(settings, programs, results, simulated, progress);
      tool = "cachegrind (" + perfProblem + "), caches given explicitly: L1D "
          + cache(settings.simulatedCaches(), "D1").describe() + ", LL " + cache(settings.simulatedCaches(), "LL")
          .describe() + ", " + cache(settings.simulatedCaches(), "D1").lineBytes() + " B lines ("
          + settings.simulatedCaches().stream().map(Cache::option).collect(Collectors.joining(" ")) + ")";
    }
    checkDigests(simulated);
    Result simulatedBaseline = simulated.get("baseline");
    Result timedBaseline = results.get("baseline");
    if (simulatedBaseline != null && timedBaseline != null && settings.missScale() > 1) {
      for (Result run : simulated.values()) {
        double small = run.bytesCopied / (double) Math.max(1, simulatedBaseline.bytesCopied);
        Result timed = results.get(run.strategy);
        double full = timed.bytesCopied / (double) Math.max(1, timedBaseline.bytesCopied);
        if (Math.abs(small - full) > 0.01) {
          notes.add(format("%s copies %.0f%% of the baseline's bytes on the %s frame but %.0f%% on the %s frame: it "
              + "is planned differently there, so its misses do not describe the timed program", run.strategy,
              100 * small, settings.missFrame(), 100 * full, settings.frame()));
        }
      }
    }
    String which = programs.size() == results.size() ? "every strategy" : String.join(", ", programs.keySet())
        + " ('-': not simulated, see --miss-strategies)";
    if (settings.missScale() == 1) {
      return tool + "; " + which + ", on the timed " + settings.frame() + " frame";
    }
    int area = settings.missScale() * settings.missScale();
    return tool + "; " + which + ", on a " + settings.missFrame() + " frame (1/" + area + " of the timed one's pixels)"
        + " with the data caches 1/" + area + " of L1D " + cache(settings.caches(), "D1").describe() + ", LL "
        + cache(settings.caches(), "LL").describe() + (perfProblem == null ? " (perf cannot shrink caches: the real"
        + " ones were used)" : "") + ", so that every FIFO keeps its size relative to the caches";
  }

  private static Cache cache(List<Cache> caches, String level) {
    return caches.stream().filter(c -> c.level().equals(level)).findFirst().orElseThrow();
  }

  private void cachegrind(Settings settings, Map<String, Program> programs, Map<String, Result> results,
      Map<String, Result> simulated, Progress progress) throws IOException {
    Path outputs = settings.work().resolve("build/cachegrind");
    Files.createDirectories(outputs);
    // cachegrind runs the program's threads one at a time, so two simulations use the two cores.
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(2,
        Runtime.getRuntime().availableProcessors())));
    try {
      Map<String, Future<String>> pending = new LinkedHashMap<>();
      for (Program program : programs.values()) {
        String strategy = program.strategy();
        pending.put(strategy, pool.submit(() -> {
          Path log = outputs.resolve(strategy + ".log");
          Files.deleteIfExists(log);
          List<String> argv = new ArrayList<>(List.of("valgrind", "--tool=cachegrind", "--cache-sim=yes"));
          settings.simulatedCaches().forEach(cache -> argv.add(cache.option()));
          argv.addAll(List.of("--cachegrind-out-file=" + outputs.resolve(strategy + ".out"),
              program.executable().toString(), "--iterations", "1", "--validate"));
          return command(log, settings.work(), null, argv.toArray(String[]::new));
        }));
      }
      int done = 0;
      for (Map.Entry<String, Future<String>> entry : pending.entrySet()) {
        progress.step("cachegrind (" + done + "/" + pending.size() + " done, " + settings.missFrame() + "): "
            + entry.getKey());
        String output = entry.getValue().get();
        Path log = outputs.resolve(entry.getKey() + ".log");
        Result run = new Result(entry.getKey());
        parseRun(output, run, log);
        simulated.put(entry.getKey(), run);
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
          + PathText.display(log) + ":\n" + tail);
    }
    return output;
  }

  /** A horizontal bar chart of the median times, min-max whiskers and speed-ups against the baseline. */
  static String chart(Iterable<Result> results, int iterations, int runs, Frame frame) {
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
        + "matching %s on 2 cores, ms per iteration (median of %d run%s of %d iteration%s, min-max)</text>%n", frame,
        runs, runs == 1 ? "" : "s", iterations, iterations == 1 ? "" : "s"));
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
