package org.cacheflow.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Stream;

import org.cacheflow.codegen.build.CodePreset;
import org.cacheflow.codegen.model.ActorSources;
import org.cacheflow.codegen.model.CodeProject;
import org.cacheflow.analysis.srdag.Srdag;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Generates, builds with CMake and runs graphs, asserting that every strategy and core count prints the same
 * sink digests. The default run ({@code cacheflow.e2e=default}) is a small subset: the test graph with its real
 * actors under every strategy on 2 cores and baseline/auto on 1 and 4, stereo (small disparity scenario) and an
 * SDF3 graph under ASan+UBSan, multi-core runs under TSan, cross builds for aarch64 (the test graph), armhf and
 * riscv64 (the bundled examples filter-bank and stereo, baseline and auto, against their native digests) run under
 * qemu-user, and the farm and map of bench/home-forwarding (synthetic bodies: merge groups both cores use, rdy-ack
 * flags) plainly, under TSan, ASan+UBSan and qemu-user.
 * {@code cacheflow.e2e=full} (see e2e-matrix.sh) runs every corpus graph under baseline and auto on 2 cores and a
 * representative subset under every strategy on 1, 2 and 4 cores, with sanitizers; {@code none} skips.
 * {@code cacheflow.e2e.only} (e2e-matrix.sh --only) keeps the cases whose name contains a match of a regular
 * expression.
 *
 * <p>Every (project, scenario) pair of the corpus's PREESM projects is counted (cases {@code scenario-*}, then
 * {@code scenario-count}): generated with synthetic actors under baseline and auto on 2 cores, built with
 * ASan+UBSan and run, the two printing the same MD5s; or, for a pair in {@link #UPSTREAM_BROKEN}, checked to fail
 * still as stated there. By default one pair per distinct program of at most {@link #DEFAULT_MAX_VERTICES}
 * single-rate vertices runs and the others are listed with the reason; {@code cacheflow.e2e.scenarios=all} (or
 * {@code cacheflow.e2e=full}, e2e-matrix.sh --scenarios) runs every pair. The count is printed and written to
 * target/e2e/corpus-scenarios.txt; a pair that fails, or that neither runs nor has a reason, fails the count.
 */
class EndToEndTest {

  private static final String MODE = System.getProperty("cacheflow.e2e", "default");
  private static final Path WORK = Path.of(System.getProperty("cacheflow.e2e.work", "target/e2e")).toAbsolutePath();
  /** A regular expression found in the names of the cases to run (e2e-matrix.sh --only); empty runs every case. */
  private static final String ONLY = System.getProperty("cacheflow.e2e.only", "");
  /** Digests per graph: the first run's, which every other run of the graph must repeat. */
  private static final Map<String, List<String>> REFERENCE = new HashMap<>();
  static final int BUILD_SECONDS = 600;
  static final int BUILD_SECONDS_PER_MB = 120;
  private static final Map<Build, Path> RUNTIMES = new EnumMap<>(Build.class);

  enum Build {
    PLAIN("", null), ASAN("address,undefined", null), TSAN("thread", null), AARCH64("", "aarch64-linux-gnu"),
    ARMHF("", "arm-linux-gnueabihf"), RISCV64("", "riscv64-linux-gnu"), CLANG("", null);

    final String sanitize;
    /** The cross target's GNU triple (its toolchain file), null for a native build. */
    final String triple;

    Build(String sanitize, String triple) {
      this.sanitize = sanitize;
      this.triple = triple;
    }

    boolean cross() {
      return triple != null;
    }

    /** The qemu-user program running the cross target's binaries. */
    String qemu() {
      return "qemu-" + (this == ARMHF ? "arm" : triple.substring(0, triple.indexOf('-')));
    }

    /** The command prefix running a program of this build: qemu-user with the cross libc, or nothing. */
    List<String> runner() {
      return cross() ? List.of(qemu(), "-L", "/usr/" + triple) : List.of();
    }

    /** Whether the cross compiler and qemu-user are installed (always true for a native build). */
    boolean available() {
      return !cross() || (EndToEndTest.available(triple + "-gcc") && EndToEndTest.available(qemu()));
    }
  }

  private record Case(String graph, Path input, String scenario, boolean synthetic, String strategy, int cores,
      Build build, Map<String, String> parameters) {

    Case(String graph, Path input, String scenario, boolean synthetic, String strategy, int cores, Build build) {
      this(graph, input, scenario, synthetic, strategy, cores, build, Map.of());
    }

    String name() {
      return graph + "-" + strategy + "-" + cores + "-" + build.name().toLowerCase();
    }
  }

  @TestFactory
  Stream<DynamicTest> everyStrategyAndCoreCountPrintsTheSameDigests() throws IOException {
    assumeBuildTools("end-to-end tests");
    Path corpus = corpusOrNull();
    List<Case> cases = new ArrayList<>(tinyCases());
    cases.addAll(benchmarkCases());
    cases.addAll(exampleCases());
    if (corpus != null) {
      cases.addAll(corpusCases(corpus));
    }
    cases.addAll(toolchainCases());
    List<Named> named = new ArrayList<>(cases.stream().map(c -> new Named(c.name(), () -> run(c), null)).toList());
    List<Named> pairTests = corpus == null ? List.of()
        : corpusScenarioTests(corpus, MODE.equals("full") || SCENARIOS.equals("all"));
    named.addAll(pairTests);
    List<Named> kept = selected(named, Named::name, ONLY);
    for (Named pairTest : pairTests) {
      if (!kept.contains(pairTest)) {
        synchronized (PAIR_OUTCOMES) {
          PAIR_OUTCOMES.put(pairTest.pairKey(), "not run: not selected by cacheflow.e2e.only");
        }
      }
    }
    Stream<DynamicTest> tests = kept.stream().map(n -> DynamicTest.dynamicTest(n.name(), n.body()));
    return corpus == null ? tests : Stream.concat(tests, Stream.of(DynamicTest.dynamicTest("scenario-count",
        () -> countCorpusScenarios(corpus))));
  }

  /** The tiny example: every strategy on two cores, the baseline and auto on one and four, two-page frames. */
  private static List<Case> tinyCases() {
    List<Case> cases = new ArrayList<>();
    Path tiny = TestInputs.TINY.resolve("Algo/tiny.pi");
    for (String strategy : CodePreset.LADDER) {
      cases.add(new Case("tiny", tiny, null, false, strategy, 2, Build.PLAIN));
    }
    for (int cores : new int[] {1, 4}) {
      cases.add(new Case("tiny", tiny, null, false, "baseline", cores, Build.PLAIN));
      cases.add(new Case("tiny", tiny, null, false, "auto", cores, Build.PLAIN));
    }
    cases.add(new Case("tiny", tiny, null, false, "auto", 4, Build.TSAN));
    // the plan's names for presets
    for (String strategy : List.of("prestore", "homeforward")) {
      cases.add(new Case("tiny", tiny, null, false, strategy, 2, Build.PLAIN));
    }
    // two-page frames: on one core the plan gives the writing consumer of the broadcast a copy-on-write view
    for (String strategy : List.of("baseline", "cow")) {
      cases.add(new Case("tiny-8k", tiny, null, false, strategy, 2, Build.TSAN, TWO_PAGES));
    }
    cases.add(new Case("tiny-8k", tiny, null, false, "cow", 1, Build.ASAN, TWO_PAGES));
    return cases;
  }

  /** Frames of two pages for the tiny example. */
  private static final Map<String, String> TWO_PAGES = Map.of("size", "8192", "slice", "2048");
  private static final Path BENCH = Path.of("../../bench/home-forwarding/Algo").toAbsolutePath().normalize();
  private static final Path EXAMPLES = Path.of("../../examples").toAbsolutePath().normalize();
  private static final Map<String, String> FARM = Map.of("size", "16", "tasks", "4", "elemFloat", "0");
  private static final Map<String, String> MAP = Map.of("size", "24", "parts", "4", "elemFloat", "1");

  /** Merge groups both cores use, signalled with rdy-ack flags (the home-forwarding benchmark's farm and map). */
  private static List<Case> benchmarkCases() {
    List<Case> cases = new ArrayList<>();
    // prestore-demote: the slices another core reads demoted after their writer's firing, before the flag
    for (String strategy : List.of("baseline", "preesm", "homeforward", "auto", "prestore-demote")) {
      cases.add(new Case("farm", BENCH.resolve("farm.pi"), null, true, strategy, 2, Build.PLAIN, FARM));
      cases.add(new Case("map", BENCH.resolve("map.pi"), null, true, strategy, 2, Build.PLAIN, MAP));
    }
    cases.add(new Case("farm", BENCH.resolve("farm.pi"), null, true, "homeforward", 2, Build.TSAN, FARM));
    cases.add(new Case("map", BENCH.resolve("map.pi"), null, true, "homeforward", 2, Build.TSAN, MAP));
    cases.add(new Case("map", BENCH.resolve("map.pi"), null, true, "homeforward", 2, Build.ASAN, MAP));
    return cases;
  }

  /**
   * The bundled examples with synthetic actors: PREESM's code with its memory scripts ({@code preesm}) prints the
   * digests of its plain copies ({@code baseline}).
   */
  private static List<Case> exampleCases() {
    List<Case> cases = new ArrayList<>();
    Path examples = Path.of("../../examples").toAbsolutePath().normalize();
    for (String example : List.of("filter-bank", "frame-crc", "stereo")) {
      for (String strategy : List.of("baseline", "preesm")) {
        cases.add(new Case("example-" + example, examples.resolve(example), "2core.scenario", true, strategy, 2,
            Build.PLAIN));
      }
    }
    return cases;
  }

  /** Corpus graphs: stereo and a small cyclic graph, and the full matrix in full mode. */
  private static List<Case> corpusCases(Path corpus) {
    List<Case> cases = new ArrayList<>();
    Path stereo = corpus.resolve("preesm-apps/org.ietr.preesm.stereo");
    Path cyclic = corpus.resolve("sdf3/generated/small_cyclic.xml");
    for (String strategy : List.of("baseline", "preesm", "auto")) {
      cases.add(new Case("stereo", stereo, "lowMaxDisparity.scenario", true, strategy, 2, Build.ASAN));
      cases.add(new Case("small_cyclic", cyclic, null, true, strategy, 2, Build.ASAN));
    }
    cases.add(new Case("stereo", stereo, "lowMaxDisparity.scenario", true, "cow", 2, Build.TSAN));
    if (MODE.equals("full")) {
      addFullMatrix(cases, corpus);
    }
    return cases;
  }

  /**
   * Builds with the other toolchains found on the machine: aarch64, armhf and riscv64 under qemu-user, clang. The
   * bundled examples filter-bank and stereo (synthetic actors, baseline and auto on 2 cores) run natively first, so
   * that the cross builds' digests are compared with the native ones.
   */
  private static List<Case> toolchainCases() {
    List<Case> cases = new ArrayList<>();
    Path tiny = TestInputs.TINY.resolve("Algo/tiny.pi");
    if (Build.AARCH64.available()) {
      cases.add(new Case("tiny", tiny, null, false, "auto", 2, Build.AARCH64));
      cases.add(new Case("farm", BENCH.resolve("farm.pi"), null, true, "homeforward", 2, Build.AARCH64, FARM));
    }
    for (String strategy : List.of("baseline", "auto")) {
      for (Build build : List.of(Build.PLAIN, Build.ARMHF, Build.RISCV64)) {
        if (build.available()) {
          cases.add(new Case("example-filter-bank", EXAMPLES.resolve("filter-bank"), null, true, strategy, 2, build));
          // stereo under qemu for armhf and riscv64 (about 25 s): in the full run only
          if (build == Build.PLAIN || MODE.equals("full")) {
            cases.add(new Case("example-stereo", EXAMPLES.resolve("stereo"), null, true, strategy, 2, build));
          }
        }
      }
    }
    if (available("clang")) {
      // -Wall -Wextra -Werror under clang too (CACHEFLOW_WERROR)
      cases.add(new Case("tiny", tiny, null, false, "auto", 2, Build.CLANG));
      cases.add(new Case("tiny-8k-synthetic", tiny, null, true, "cow", 1, Build.CLANG, TWO_PAGES));
    }
    return cases;
  }

  // ---------------------------------------------------------------------------------------------------------
  // Every (project, scenario) pair of the corpus

  /** Which corpus scenarios run: {@code distinct} (default) or {@code all}; {@code cacheflow.e2e=full} means all. */
  private static final String SCENARIOS = System.getProperty("cacheflow.e2e.scenarios", "distinct");

  /**
   * Scenarios whose files are broken upstream (preesm-apps), by {@code project/scenario}: why they cannot run, and
   * a part of the error loading them gives, checked at every run so the list cannot go stale.
   */
  static final Map<String, Broken> UPSTREAM_BROKEN = Map.of(
      "org.ietr.preesm.stereo/YUV12core.scenario", new Broken("its algorithm Algo/yuv_stereo_top.pi is not in the"
          + " project (preesm-apps has no such file)", "yuv_stereo_top.pi' does not exist"),
      "org.ietr.preesm.stereo/YUV4core.scenario", new Broken("its algorithm Algo/yuv_stereo_top.pi is not in the"
          + " project (preesm-apps has no such file)", "yuv_stereo_top.pi' does not exist"));

  /** An upstream defect: the reason stated, and a fragment of the loading error that shows it is still there. */
  record Broken(String reason, String error) {
  }

  /** One scenario of one corpus project. */
  record ScenarioPair(Path project, String scenario) {

    String key() {
      return project.getFileName() + "/" + scenario;
    }

    /** The case name: {@code scenario-<project without org.ietr.preesm.>-<scenario without .scenario>}. */
    String name() {
      return "scenario-" + project.getFileName().toString().replace("org.ietr.preesm.", "") + "-"
          + scenario.replace(".scenario", "").replace('/', '_');
    }
  }

  /** What became of each pair in this run, by key: "green", "skipped: reason" or "failed: message". */
  private static final Map<String, String> PAIR_OUTCOMES = new TreeMap<>();

  /** Every (project, scenario) pair of preesm-apps, sorted. */
  static List<ScenarioPair> corpusScenarios(Path corpus) throws IOException {
    List<ScenarioPair> pairs = new ArrayList<>();
    try (Stream<Path> apps = Files.list(corpus.resolve("preesm-apps"))) {
      for (Path app : apps.filter(Files::isDirectory).sorted().toList()) {
        for (Path scenario : org.cacheflow.io.project.PreesmProject.open(app,
            new org.cacheflow.model.diagnostics.Diagnostics()).scenarios()) {
          pairs.add(new ScenarioPair(app, app.resolve("Scenarios").relativize(scenario).toString()));
        }
      }
    }
    return pairs;
  }

  /**
   * Programs of more single-rate vertices than this are left to {@code -Dcacheflow.e2e.scenarios=all} in the default
   * run: a core file is one straight-line function, so their build takes minutes (squeezenet's 5,566 vertices);
   * squeezenet's network up to fire5 (1,208 vertices) took 21 s of the default run and is left out too.
   */
  static final int DEFAULT_MAX_VERTICES = 1000;

  /**
   * The pairs the default run leaves out, each with the reason: all but one per distinct program, i.e. per
   * (algorithm, parameter values) — with the core count fixed (2) and synthetic actors, scenarios that differ only
   * in architecture, timings or mapping constraints generate the same program, so the first of them stands for
   * the others — and programs of more than {@link #DEFAULT_MAX_VERTICES} single-rate vertices. Broken pairs are
   * all kept (they cost no build).
   */
  static Map<ScenarioPair, String> distinctPrograms(List<ScenarioPair> pairs) {
    Map<ScenarioPair, String> standIn = new LinkedHashMap<>();
    Map<String, ScenarioPair> firstOfProgram = new HashMap<>();
    for (ScenarioPair pair : pairs) {
      if (UPSTREAM_BROKEN.containsKey(pair.key())) {
        continue;
      }
      org.cacheflow.model.diagnostics.Diagnostics quiet = new org.cacheflow.model.diagnostics.Diagnostics();
      org.cacheflow.io.project.ScenarioRun run = org.cacheflow.io.project.PreesmProject.open(pair.project(), quiet)
          .load(pair.project().resolve("Scenarios").resolve(pair.scenario()),
              org.cacheflow.io.pisdf.PiReader::read, true, quiet);
      String program = run.algorithmFile() + " " + new TreeMap<>(run.scenario().parameterOverrides(
          Map.of()));
      ScenarioPair first = firstOfProgram.putIfAbsent(program, pair);
      if (first != null) {
        standIn.put(pair, "the same program as " + first.key());
        continue;
      }
      int vertices = TestInputs.srdag(pair.project(), pair.scenario()).vertexCount();
      if (vertices > DEFAULT_MAX_VERTICES) {
        standIn.put(pair, vertices + " single-rate vertices, more than the default run builds ("
            + DEFAULT_MAX_VERTICES + ")");
      }
    }
    return standIn;
  }

  /** The pairs' tests: the selected ones run, the others are counted as not run in this mode. */
  private static List<Named> corpusScenarioTests(Path corpus, boolean all) throws IOException {
    List<ScenarioPair> pairs = corpusScenarios(corpus);
    Map<ScenarioPair, String> standIn = all ? Map.of() : distinctPrograms(pairs);
    List<Named> tests = new ArrayList<>();
    for (ScenarioPair pair : pairs) {
      if (standIn.containsKey(pair)) {
        synchronized (PAIR_OUTCOMES) {
          PAIR_OUTCOMES.put(pair.key(), "not run: " + standIn.get(pair));
        }
        continue;
      }
      tests.add(new Named(pair.name(), () -> runPair(pair), pair.key()));
    }
    return tests;
  }

  /**
   * Generates the pair's program with synthetic actors under baseline and auto (2 cores), builds both with
   * ASan+UBSan (which also compiles core files at -O0, so large graphs build fastest), runs them and requires the
   * same sink digests; a pair broken upstream must still fail to load as {@link #UPSTREAM_BROKEN}
   * says.
   */
  private static void runPair(ScenarioPair pair) throws Exception {
    Broken broken = UPSTREAM_BROKEN.get(pair.key());
    if (broken != null) {
      org.cacheflow.model.diagnostics.InputException error = org.junit.jupiter.api.Assertions.assertThrows(
          org.cacheflow.model.diagnostics.InputException.class, () -> TestInputs.srdag(pair.project(),
              pair.scenario()), pair.key() + " is listed as broken upstream but loads: run it (remove it from"
                  + " UPSTREAM_BROKEN)");
      assertTrue(error.getMessage().contains(broken.error()), pair.key() + " fails otherwise than listed: "
          + error.getMessage());
      record(pair, "skipped: " + broken.reason());
      return;
    }
    List<Case> runs = new ArrayList<>();
    try {
      for (String strategy : List.of("baseline", "auto")) {
        runs.add(new Case(pair.name(), pair.project(), pair.scenario(), true, strategy, 2, Build.ASAN));
        run(runs.get(runs.size() - 1));
      }
    } catch (Exception | AssertionError e) {
      record(pair, "failed: " + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
      throw e;
    }
    record(pair, "green");
    // the builds of large graphs take room; a green pair's are not needed any more
    for (Case c : runs) {
      try (Stream<Path> files = Files.walk(WORK.resolve(c.name()).resolve("build"))) {
        files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
  }

  private static void record(ScenarioPair pair, String outcome) {
    synchronized (PAIR_OUTCOMES) {
      PAIR_OUTCOMES.put(pair.key(), outcome);
    }
  }

  /**
   * Prints how many corpus pairs ran green, were skipped for an upstream reason or stood in for (default mode),
   * writes the list to target/e2e/corpus-scenarios.txt, and fails when a pair failed or has no outcome.
   */
  private static void countCorpusScenarios(Path corpus) throws IOException {
    List<ScenarioPair> pairs = corpusScenarios(corpus);
    Map<String, String> outcomes;
    synchronized (PAIR_OUTCOMES) {
      outcomes = new TreeMap<>(PAIR_OUTCOMES);
    }
    long green = outcomes.values().stream().filter(o -> o.equals("green")).count();
    long skipped = outcomes.values().stream().filter(o -> o.startsWith("skipped: ")).count();
    long notRun = outcomes.values().stream().filter(o -> o.startsWith("not run: ")).count();
    List<String> lines = new ArrayList<>();
    lines.add("corpus (project, scenario) pairs: " + pairs.size() + " in all; " + green + " run green (baseline and"
        + " auto print the same MD5s), " + skipped + " skipped for an upstream reason, " + notRun
        + " not run in this mode (-Dcacheflow.e2e.scenarios=all runs every pair)");
    List<String> missing = new ArrayList<>();
    for (ScenarioPair pair : pairs) {
      String outcome = outcomes.get(pair.key());
      lines.add("  " + pair.key() + ": " + (outcome == null ? "NO OUTCOME" : outcome));
      if (outcome == null || outcome.startsWith("failed: ")) {
        missing.add(pair.key() + (outcome == null ? " (neither run nor skipped for a stated reason)" : ""));
      }
    }
    String report = String.join("\n", lines);
    System.out.println(report);
    Files.createDirectories(WORK);
    Files.writeString(WORK.resolve("corpus-scenarios.txt"), report + "\n");
    assertTrue(missing.isEmpty(), missing.size() + " corpus pairs did not run green:\n" + String.join("\n", missing)
        + "\n" + report);
  }

  /** A test case by name, so that {@code cacheflow.e2e.only} selects among all of them; pairKey for a pair. */
  record Named(String name, org.junit.jupiter.api.function.Executable body, String pairKey) {
  }

  /** The cases whose name contains a match of {@code only} (all when blank); none matching is an error. */
  static <T> List<T> selected(List<T> cases, Function<T, String> name, String only) {
    if (only.isBlank()) {
      return cases;
    }
    Pattern pattern;
    try {
      pattern = Pattern.compile(only);
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException("cacheflow.e2e.only: '" + only + "' is not a regular expression: "
          + e.getDescription());
    }
    List<T> kept = cases.stream().filter(c -> pattern.matcher(name.apply(c)).find()).toList();
    if (kept.isEmpty()) {
      throw new IllegalArgumentException("cacheflow.e2e.only: '" + only + "' matches none of the " + cases.size()
          + " cases (names are graph-strategy-cores-build, e.g. "
          + (cases.isEmpty() ? "tiny-auto-2-plain" : name.apply(cases.get(0))) + ")");
    }
    return kept;
  }

  private static void addFullMatrix(List<Case> cases, Path corpus) {
    List<Case> graphs = new ArrayList<>();
    try (Stream<Path> apps = Files.list(corpus.resolve("preesm-apps"))) {
      apps.sorted().forEach(app -> graphs.add(new Case(app.getFileName().toString().replace("org.ietr.preesm.", ""),
          app, null, true, "", 0, Build.PLAIN)));
    } catch (IOException e) {
      fail(e);
    }
    for (String sdf3 : List.of("h263decoder.xml", "mp3decoder_granule_parallelism.xml", "samplerate.xml",
        "generated/small_acyclic.xml", "generated/small_cyclic.xml", "generated/medium_acyclic.xml",
        "generated/medium_cyclic.xml")) {
      graphs.add(new Case(Path.of(sdf3).getFileName().toString().replace(".xml", ""), corpus.resolve("sdf3/" + sdf3),
          null, true, "", 0, Build.PLAIN));
    }
    for (Case graph : graphs) {
      String scenario = graph.graph().equals("stereo") ? "lowMaxDisparity.scenario" : null;
      for (String strategy : List.of("baseline", "preesm", "auto")) {
        cases.add(new Case(graph.graph(), graph.input(), scenario, true, strategy, 2, Build.ASAN));
      }
    }
    Path stereo = corpus.resolve("preesm-apps/org.ietr.preesm.stereo");
    Path stabilization = corpus.resolve("preesm-apps/org.ietr.preesm.stabilization");
    Path h263 = corpus.resolve("sdf3/h263decoder.xml");
    for (String strategy : CodePreset.LADDER) {
      for (int cores : new int[] {1, 2, 4}) {
        Build build = cores == 1 ? Build.ASAN : Build.TSAN;
        cases.add(new Case("stereo", stereo, "lowMaxDisparity.scenario", true, strategy, cores, build));
        cases.add(new Case("stabilization", stabilization, null, true, strategy, cores, build));
        cases.add(new Case("h263decoder", h263, null, true, strategy, cores, build));
        cases.add(new Case("tiny-synthetic", TestInputs.TINY.resolve("Algo/tiny.pi"), null, true, strategy, cores,
            build));
      }
    }
    cases.add(new Case("stereo", stereo, "lowMaxDisparity.scenario", true, "auto", 2, Build.AARCH64));
    cases.add(new Case("h263decoder", h263, null, true, "baseline", 2, Build.AARCH64));
  }

  private static void run(Case c) throws Exception {
    Srdag srdag = TestInputs.srdag(c.input(), c.scenario(), c.parameters());
    CodeProject project = TestInputs.model(c.input(), srdag, c.cores(), c.strategy(), c.synthetic());
    Path dir = WORK.resolve(c.name());
    ActorSources actors = c.synthetic() ? ActorSources.NONE : new ActorSources(
        dir.relativize(TestInputs.TINY.resolve("Code/src")).toString(),
        List.of(dir.relativize(TestInputs.TINY.resolve("Code/include")).toString()));
    ProjectWriter.write(project, actors, TestInputs.runtime(), dir);
    List<String> configure = new ArrayList<>(List.of("cmake", "-S", dir.toString(), "-B", dir.resolve("build")
        .toString(), "-G", "Ninja", "-DCACHEFLOW_WERROR=ON", "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
        "-DCMAKE_PREFIX_PATH=" + runtime(c.build())));
    if (!c.build().sanitize.isEmpty()) {
      configure.add("-DCACHEFLOW_SANITIZE=" + c.build().sanitize);
    }
    if (c.build().cross()) {
      configure.add("-DCMAKE_TOOLCHAIN_FILE=toolchains/" + c.build().triple + ".cmake");
    }
    if (c.build() == Build.CLANG) {
      configure.add("-DCMAKE_C_COMPILER=clang");
    }
    exec(dir, 300, configure);
    exec(dir, buildSeconds(dir), List.of("cmake", "--build", dir.resolve("build").toString()));
    List<String> command = new ArrayList<>(c.build().runner());
    command.addAll(List.of(dir.resolve("build").resolve(project.identifier()).toString(), "--iterations", "3",
        "--validate"));
    String output = exec(dir, 300, command);
    List<String> digests = output.lines().filter(l -> l.matches(".* : [0-9a-f]{32}")).toList();
    assertFalse(digests.isEmpty(), "no sink digests printed:\n" + output);
    assertTrue(output.contains("stats: bytes copied"), output);
    List<String> reference;
    synchronized (REFERENCE) {
      reference = REFERENCE.putIfAbsent(c.graph(), digests);
    }
    if (reference != null) {
      assertEquals(reference, digests, c.name() + " prints other sink digests than the first run of " + c.graph());
    }
  }

  /**
   * The time limit of a generated project's build: {@value #BUILD_SECONDS} s, plus {@value #BUILD_SECONDS_PER_MB} s
   * per MB of generated C (the project's own .c and .h files, not the runtime copy). It only stops a hung build:
   * a core file is one straight-line function, so the largest graphs take minutes to compile, more on a loaded
   * machine.
   */
  static int buildSeconds(Path project) throws IOException {
    long bytes;
    try (Stream<Path> files = Files.list(project)) {
      bytes = files.filter(f -> Files.isRegularFile(f) && f.getFileName().toString().matches(".*\\.[ch]"))
          .mapToLong(f -> f.toFile().length()).sum();
    }
    return BUILD_SECONDS + (int) (bytes * BUILD_SECONDS_PER_MB / 1_000_000L);
  }

  /** Skips the calling test when CMake, Ninja or a C compiler is missing, or end-to-end runs are disabled. */
  static void assumeBuildTools(String what) {
    Assumptions.assumeTrue(available("cmake") && available("ninja") && available("cc"),
        "cmake, ninja or cc missing: " + what + " skipped");
    Assumptions.assumeFalse(MODE.equals("none"), "end-to-end tests disabled (cacheflow.e2e=none)");
  }

  /**
   * Writes the project into {@code dir}, builds it natively (warnings as errors) against the installed runtime
   * and runs it with {@code --validate}; returns the sink digests it prints, in order.
   */
  static List<String> buildAndRunDigests(CodeProject project, ActorSources actors, Path dir, int iterations)
      throws Exception {
    Path program = writeAndBuild(project, actors, dir, "RelWithDebInfo");
    String output = exec(dir, 300, List.of(program.toString(), "--iterations", Integer.toString(iterations),
        "--validate"));
    return output.lines().filter(l -> l.matches(".* : [0-9a-f]{32}")).map(l -> l.substring(l.length() - 32))
        .toList();
  }

  /**
   * Writes the project into {@code dir} and builds it natively (warnings as errors, the given build type and cache
   * settings) against the installed runtime; returns the program.
   */
  static Path writeAndBuild(CodeProject project, ActorSources actors, Path dir, String buildType, String... settings)
      throws Exception {
    return writeAndBuild(project, null, actors, dir, buildType, settings);
  }

  /** As {@link #writeAndBuild(CodeProject, ActorSources, Path, String, String...)}, with a dispatched table. */
  static Path writeAndBuild(CodeProject project, org.cacheflow.codegen.model.SchedTable table, ActorSources actors,
      Path dir, String buildType, String... settings) throws Exception {
    ProjectWriter.write(project, table, actors, TestInputs.runtime(), dir, folder -> {
    });
    List<String> configure = new ArrayList<>(List.of("cmake", "-S", dir.toString(), "-B", dir.resolve("build")
        .toString(), "-G", "Ninja", "-DCACHEFLOW_WERROR=ON", "-DCMAKE_BUILD_TYPE=" + buildType,
        "-DCMAKE_PREFIX_PATH=" + runtime(Build.PLAIN)));
    configure.addAll(List.of(settings));
    exec(dir, 300, configure);
    exec(dir, 600, List.of("cmake", "--build", dir.resolve("build").toString()));
    return dir.resolve("build").resolve(project.identifier());
  }

  /**
   * Configures and builds a written project (warnings as errors) against the runtime of a build kind (its sanitizers,
   * the aarch64 toolchain), then runs the program with the arguments (under qemu-user for aarch64); its output.
   */
  static String buildAndRun(Path dir, String program, Build build, String... arguments) throws Exception {
    List<String> configure = new ArrayList<>(List.of("cmake", "-S", dir.toString(), "-B", dir.resolve("build")
        .toString(), "-G", "Ninja", "-DCACHEFLOW_WERROR=ON", "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
        "-DCMAKE_PREFIX_PATH=" + runtime(build)));
    List<String> command = new ArrayList<>();
    if (!build.sanitize.isEmpty()) {
      configure.add("-DCACHEFLOW_SANITIZE=" + build.sanitize);
    }
    if (build == Build.AARCH64) {
      configure.add("-DCMAKE_TOOLCHAIN_FILE=toolchains/aarch64-linux-gnu.cmake");
      command.addAll(List.of("qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"));
    }
    exec(dir, 300, configure);
    exec(dir, buildSeconds(dir), List.of("cmake", "--build", dir.resolve("build").toString()));
    command.add(dir.resolve("build").resolve(program).toString());
    command.addAll(List.of(arguments));
    return exec(dir, 300, command);
  }

  /** The runtime built and installed once per build kind, so each generated project compiles only its own files. */
  static synchronized Path runtime(Build build) throws Exception {
    Path installed = RUNTIMES.get(build);
    if (installed == null) {
      Path source = TestInputs.runtime();
      Path buildDir = WORK.resolve("runtime-" + build.name().toLowerCase());
      installed = WORK.resolve("runtime-" + build.name().toLowerCase() + "-install");
      List<String> configure = new ArrayList<>(List.of("cmake", "-S", source.toString(), "-B", buildDir.toString(),
          "-G", "Ninja", "-DCF_BUILD_TESTS=OFF", "-DCF_BUILD_BENCH=OFF", "-DCMAKE_INSTALL_PREFIX=" + installed));
      if (!build.sanitize.isEmpty()) {
        configure.add("-DCF_SANITIZE=" + build.sanitize);
      }
      if (build.cross()) {
        configure.add("-DCMAKE_TOOLCHAIN_FILE=" + source.resolve("cmake/toolchains/" + build.triple + ".cmake"));
      }
      if (build == Build.CLANG) {
        configure.add("-DCMAKE_C_COMPILER=clang");
      }
      Files.createDirectories(WORK);
      exec(WORK, 300, configure);
      exec(WORK, 600, List.of("cmake", "--build", buildDir.toString()));
      exec(WORK, 120, List.of("cmake", "--install", buildDir.toString()));
      RUNTIMES.put(build, installed);
    }
    return installed;
  }

  static String exec(Path dir, int seconds, List<String> command) throws Exception {
    Files.createDirectories(dir);
    Path log = Files.createTempFile(dir, "exec", ".log");
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile());
    // ASan's leak checker needs ptrace, which containers often deny; TSan needs a fixed address layout
    builder.environment().put("ASAN_OPTIONS", "detect_leaks=0");
    builder.environment().put("TSAN_OPTIONS", "halt_on_error=1");
    builder.environment().put("UBSAN_OPTIONS", "halt_on_error=1:print_stacktrace=1");
    builder.environment().put("CACHEFLOW_NO_PIN", "1");
    Process process = builder.start();
    boolean done = process.waitFor(seconds, TimeUnit.SECONDS);
    String output = Files.readString(log, StandardCharsets.UTF_8);
    Files.delete(log);
    if (!done) {
      process.destroyForcibly();
      fail(String.join(" ", command) + " did not finish in " + seconds + " s:\n" + tail(output));
    }
    if (process.exitValue() != 0) {
      fail(String.join(" ", command) + " failed with status " + process.exitValue() + ":\n" + tail(output));
    }
    return output;
  }

  private static String tail(String text) {
    return text.length() > 6000 ? "..." + text.substring(text.length() - 6000) : text;
  }

  static boolean available(String program) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
        return true;
      }
    }
    return false;
  }

  private static Path corpusOrNull() {
    String property = System.getProperty("cacheflow.corpus");
    return property != null && Files.isDirectory(Path.of(property)) ? Path.of(property) : null;
  }

  /**
   * The actors' functions start on 64-byte boundaries in every generated program (CACHEFLOW_ALIGN_ACTORS), so their
   * loops sit alike whatever code a strategy generates around them; without the option they fall where the linker
   * puts them (checked too, so the test sees the option's effect and not a lucky layout).
   */
  @Test
  void actorFunctionsStartOnCacheLineBoundariesInEveryProgram() throws Exception {
    assumeBuildTools("actor alignment");
    Assumptions.assumeTrue(available("nm"), "no nm: skipped");
    List<String> actors = List.of("genInit", "genFrame", "scale", "accumulate", "collect");
    Srdag srdag = TestInputs.srdag(TestInputs.TINY.resolve("Algo/tiny.pi"), null);
    Set<Long> unaligned = new TreeSet<>();
    for (String strategy : List.of("baseline", "auto")) {
      for (boolean align : new boolean[] {true, false}) {
        Path dir = WORK.resolve("align-" + strategy + "-" + align);
        CodeProject project = TestInputs.model(TestInputs.TINY.resolve("Algo/tiny.pi"), srdag, 2, strategy, false);
        Path program = writeAndBuild(project, new ActorSources(dir.relativize(TestInputs.TINY.resolve("Code/src"))
            .toString(), List.of(dir.relativize(TestInputs.TINY.resolve("Code/include")).toString())), dir, "Release",
            "-DCACHEFLOW_ALIGN_ACTORS=" + (align ? "ON" : "OFF"));
        Map<String, Long> addresses = new HashMap<>();
        for (String line : exec(dir, 60, List.of("nm", program.toString())).lines().toList()) {
          String[] fields = line.trim().split("\\s+");
          if (fields.length == 3 && fields[1].equalsIgnoreCase("t") && actors.contains(fields[2])) {
            addresses.put(fields[2], Long.parseUnsignedLong(fields[0], 16));
          }
        }
        assertEquals(new TreeSet<>(actors), new TreeSet<>(addresses.keySet()), dir.toString());
        for (Map.Entry<String, Long> actor : addresses.entrySet()) {
          if (align) {
            assertEquals(0, actor.getValue() % 64, strategy + ": " + actor.getKey() + " at " + Long.toHexString(
                actor.getValue()));
          } else {
            unaligned.add(actor.getValue() % 64);
          }
        }
      }
    }
    assertTrue(unaligned.size() > 1, "without the option the actors fell on 64-byte boundaries only by chance: "
        + unaligned);
  }

  @Test
  void onlyKeepsTheCasesWhoseNameContainsAMatch() {
    List<String> names = List.of("squeezenet-baseline-2-asan", "squeezenet-auto-2-asan", "stereo-cow-4-tsan",
        "tiny-auto-2-aarch64");
    assertEquals(names, selected(names, n -> n, ""));
    assertEquals(names.subList(0, 2), selected(names, n -> n, "squeezenet"));
    assertEquals(List.of("stereo-cow-4-tsan", "tiny-auto-2-aarch64"), selected(names, n -> n, "-(tsan|aarch64)$"));
  }

  @Test
  void onlyMatchingNoCaseOrNotARegularExpressionIsAnError() {
    List<String> names = List.of("tiny-auto-2-plain");
    IllegalArgumentException none = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> selected(names, n -> n, "squeezenet"));
    assertTrue(none.getMessage().contains("'squeezenet' matches none of the 1 cases"), none.getMessage());
    IllegalArgumentException invalid = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> selected(names, n -> n, "tiny("));
    assertTrue(invalid.getMessage().contains("'tiny(' is not a regular expression"), invalid.getMessage());
  }

  @Test
  void buildTimeLimitGrowsWithTheGeneratedCOnly() throws Exception {
    Path project = Files.createTempDirectory("e2e-limit");
    try {
      assertEquals(BUILD_SECONDS, buildSeconds(project));
      Files.write(project.resolve("core_0.c"), new byte[3_000_000]);
      Files.write(project.resolve("graph.h"), new byte[1_000_000]);
      // the runtime copy and other files do not count
      Files.createDirectories(project.resolve("cacheflow-runtime"));
      Files.write(project.resolve("cacheflow-runtime/big.c"), new byte[5_000_000]);
      Files.write(project.resolve("CMakeLists.txt"), new byte[1_000_000]);
      assertEquals(BUILD_SECONDS + 4 * BUILD_SECONDS_PER_MB, buildSeconds(project));
    } finally {
      try (Stream<Path> files = Files.walk(project)) {
        files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
  }

  /** The runtime's MD5 (the support of generated programs, cacheflow/support.h) against Java's, on lengths around the
   * 64-byte block and padding boundaries. */
  @Test
  void generatedMd5AgreesWithJava() throws Exception {
    Assumptions.assumeFalse(MODE.equals("none"), "end-to-end tests disabled (cacheflow.e2e=none)");
    Assumptions.assumeTrue(available("cc"), "no C compiler: skipped");
    Path dir = WORK.resolve("md5");
    CodeProject project = TestInputs.model(TestInputs.srdag(TestInputs.TINY.resolve("Algo/tiny.pi"), null), 1,
        "baseline", true);
    ProjectWriter.write(project, ActorSources.NONE, TestInputs.runtime(), dir);
    Files.writeString(dir.resolve("md5_check.c"), """
        #include <stdio.h>
        #include <cacheflow/support.h>
        int main(void) {
            static unsigned char data[300];
            for (int i = 0; i < 300; i++) data[i] = (unsigned char)(i * 7 + 3);
            const int lengths[] = {0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 300};
            for (unsigned k = 0; k < sizeof lengths / sizeof lengths[0]; k++) {
                cf_md5 md5;
                uint8_t digest[16];
                cf_md5_init(&md5);
                cf_md5_update(&md5, data, (size_t)lengths[k] / 3);
                cf_md5_update(&md5, data + lengths[k] / 3, (size_t)(lengths[k] - lengths[k] / 3));
                cf_md5_final(&md5, digest);
                for (int i = 0; i < 16; i++) printf("%02x", digest[i]);
                printf("\\n");
            }
            return 0;
        }
        """);
    Path library;
    try (Stream<Path> files = Files.walk(runtime(Build.PLAIN))) {
      library = files.filter(f -> f.getFileName().toString().equals("libcacheflow.a")).findFirst().orElseThrow();
    }
    exec(dir, 120, List.of("cc", "-O2", "-Wall", "-Wextra", "-Werror", "-I", dir.toString(), "-I",
        dir.resolve("cacheflow-runtime/include").toString(), "-o", "md5_check", "md5_check.c",
        library.toString(), "-pthread"));
    List<String> printed = exec(dir, 60, List.of(dir.resolve("md5_check").toString())).lines().toList();
    byte[] data = new byte[300];
    for (int i = 0; i < 300; i++) {
      data[i] = (byte) (i * 7 + 3);
    }
    int[] lengths = {0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 300};
    List<String> expected = new ArrayList<>();
    for (int length : lengths) {
      MessageDigest md5 = MessageDigest.getInstance("MD5");
      md5.update(data, 0, length);
      expected.add(HexFormat.of().formatHex(md5.digest()));
    }
    assertEquals(expected, printed);
  }
}
