package org.cacheflow.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.cacheflow.cli.CliCommand;
import org.cacheflow.cli.GenerateCommand;
import org.cacheflow.cli.Main;
import org.cacheflow.cli.PositiveInt;
import org.cacheflow.cli.UsageException;
import org.cacheflow.pipeline.Input;
import org.cacheflow.pipeline.PathText;
import org.cacheflow.plan.strategy.StrategyPreset;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cacheflow demo}: generates the stereo example with every strategy, builds and runs each, checks that
 * they compute the same thing and compares their speed, copies and cache misses. This class is the command line
 * (options, help, their checks); {@link DemoRun} drives the demo.
 */
@Command(name = "demo", header = "generate, build and run the stereo example with every strategy and compare them",
    synopsisHeading = "usage: ", abbreviateSynopsis = true, separator = " ", sortOptions = false,
    descriptionHeading = "%n", optionListHeading = "%noptions:%n")
public final class DemoCommand extends CliCommand {

  /**
   * Strategies of a {@code --quick} run: the two references (PREESM's code with and without its memory scripts), the
   * two techniques that change most, and auto.
   */
  static final List<String> QUICK_STRATEGIES = List.of("baseline", "preesm", "channels", "cow", "auto");

  /** Strategies whose cache misses are simulated by default: the references, the paper's two techniques, auto. */
  static final List<String> MISS_STRATEGIES = List.of("baseline", "preesm", "ntm", "cow", "auto");

  /** The caches of this project's machine type (zen4-vm), given to cachegrind explicitly (--cache replaces them). */
  static final List<DemoCache> DEFAULT_CACHES = List.of(new DemoCache("I1", 32768, 8, 64),
      new DemoCache("D1", 32768, 8, 64), new DemoCache("LL", 33554432, 16, 64));

  /**
   * The simulated frame is this many times smaller in each dimension than the timed one (cachegrind runs a
   * program about 50 times slower), and the simulated data caches shrink by its square.
   */
  static final int DEFAULT_MISS_SCALE = 2;

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

  @Option(names = "--quick", description = "1 iteration, 1 run, strategies baseline, preesm, channels, cow, auto "
      + "(for tests)")
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
        min-max, speed-up against preesm (PREESM's code with its memory scripts) and against the baseline \
        (PREESM's plain copies), bytes copied (with memcpy, and with streaming stores), \
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

  /** Every strategy of the vocabulary, in {@link StrategyPreset} order. */
  static List<String> allStrategies() {
    return StrategyPreset.labels();
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
    Map<String, DemoCache> caches = new LinkedHashMap<>();
    for (DemoCache cache : DEFAULT_CACHES) {
      caches.put(cache.level(), cache);
    }
    cacheTexts.stream().map(DemoCache::parse).forEach(cache -> caches.put(cache.level(), cache));
    Map<String, String> params = Input.parseParams(paramTexts);
    Path work = Path.of(out).toAbsolutePath().normalize();
    Path stereo = root.resolve("examples/stereo").toAbsolutePath().normalize();
    if (!Files.isDirectory(stereo)) {
      throw new DemoFailure("cannot find examples/stereo under " + PathText.display(root.toAbsolutePath())
          + ": run the demo from the repository (./cacheflow demo)");
    }
    try {
      DemoFrame frame = DemoFrame.of(stereo.resolve("Algo/stereo.pi"), params);
      boolean measureMisses = !noCachegrind && !missStrategies.isEmpty();
      DemoFrame missFrame = measureMisses ? frame.reduced(missScale) : frame;
      List<DemoCache> simulated = new ArrayList<>();
      for (DemoCache cache : caches.values()) {
        // Instructions do not grow with the frame: only the data caches shrink with it.
        simulated.add(cache.level().equals("I1") ? cache : cache.shrunk(missScale * missScale));
      }
      DemoSettings settings = new DemoSettings(work, stereo, strategies, missStrategies, iterations, runs, params,
          frame, missFrame, missScale, measureMisses, List.copyOf(caches.values()), simulated, runtimeSources());
      return DemoRun.run(super.out, err, settings);
    } catch (DemoFailure e) {
      err.println("error: " + e.getMessage());
      return Main.BAD_INPUT;
    } catch (IOException e) {
      err.println("error: " + e.getMessage());
      return Main.BAD_INPUT;
    }
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

  private Path runtimeSources() {
    String property = System.getProperty(GenerateCommand.RUNTIME_PROPERTY);
    if (property != null && !property.isBlank()) {
      return Path.of(property).toAbsolutePath();
    }
    return root.resolve("runtime-c").toAbsolutePath().normalize();
  }
}
