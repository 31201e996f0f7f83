package org.cacheflow.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.stream.Stream;

import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.plan.memoryplan.FifoPlan;
import org.cacheflow.plan.memoryplan.MemoryPlan;
import org.cacheflow.plan.strategy.StrategyPreset;
import org.cacheflow.report.MemoryText;
import org.cacheflow.report.VariantReport;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dynamic parameters (set at run time by a configuration actor's config output port): never planned silently with the
 * graph's default; the values given (command line, scenario value set) are each planned as a variant; a program
 * generated for one value runs the configuration actor and stops when it sets another. The test project's graphs
 * (src-test/resources/dynparam) switch a frame to one of two branches (dynswitch) and change a frame's width
 * (dynres).
 */
class DynamicParametersTest {

  /** The test project: its scenario is the switch's. */
  private static final Path PROJECT = Path.of("src-test/resources/dynparam").toAbsolutePath();
  private static final Path GRAPH = PROJECT.resolve("Algo/dynswitch.pi");
  /** The resolution change: a frame of width x HEIGHT pixels, width chosen per frame. */
  static final Path RESOLUTION = PROJECT.resolve("Algo/dynres.pi");
  static final int HEIGHT = 4;
  static final Path RUNTIME = Path.of("../../runtime-c").toAbsolutePath();
  /** The frame size (the graph's parameter size). */
  private static final int SIZE = 256;
  private static final boolean FULL = "full".equals(System.getProperty("cacheflow.e2e"));
  /**
   * The iterations a program of every variant runs: several times the configuration actor's sequence, and more than
   * the iterations whose variant the configuration core may choose ahead of the other cores (64).
   */
  private static final int ITERATIONS = 150;

  @TempDir
  Path dir;

  private static PlanResult plan(Input input) {
    return new Pipeline().plan(new PlanOptions(input, new PlatformOptions(null, 1), null, null, List.of(), "generic",
        null));
  }

  private static Input graph(Map<String, String> params) {
    return new Input(GRAPH, null, params);
  }

  @Test
  void aDynamicParameterWithoutValuesIsAnErrorAtItsLineNamingItsConfigurationActor() {
    InputException error = assertThrows(InputException.class, () -> plan(graph(Map.of())));
    assertEquals(GRAPH.toString(), error.location().file());
    assertEquals(14, error.location().line(), "the line of <node id=\"branch\" kind=\"param\">");
    assertTrue(error.getMessage().startsWith("dynamic parameter 'branch' is set at run time by configuration actor "
        + "Cfg.branch"), error.getMessage());
    assertTrue(error.getMessage().contains("--param branch=V1,V2,..."), error.getMessage());
    Path out = dir.resolve("never");
    assertThrows(InputException.class, () -> new Pipeline().generate(GenerateOptions.of(graph(Map.of()), out,
        RUNTIME)));
    assertFalse(Files.exists(out), "nothing written");
  }

  @Test
  void everyGivenValueIsPlannedAsAVariantOfItsOwn() {
    PlanResult result = plan(graph(Map.of("branch", "0, 1")));
    assertEquals(2, result.variants().size());
    for (int branch = 0; branch < 2; branch++) {
      VariantReport.Row row = result.variants().get(branch);
      assertEquals(Map.of("branch", Integer.toString(branch)), row.values());
      // the chosen branch carries the frame, the other one nothing
      assertEquals(SIZE, bytes(row.plan(), "Switch.out" + branch));
      assertEquals(0, bytes(row.plan(), "Switch.out" + (1 - branch)));
      assertEquals(SIZE, bytes(row.plan(), "Select.out"));
    }
    assertEquals(result.variants().get(0).plan(), result.plan());
    List<String> lines = VariantReport.lines(result.variants());
    assertTrue(lines.get(0).startsWith("2 variants"), lines.toString());
    assertTrue(lines.stream().anyMatch(l -> l.contains("branch=1")), lines.toString());
    // one value: a plan of that value alone, as for a graph without dynamic parameters
    PlanResult one = plan(graph(Map.of("branch", "1")));
    assertTrue(one.variants().isEmpty());
    assertEquals(0, bytes(one.plan(), "Switch.out0"));
  }

  @Test
  void theScenariosValueSetIsPlannedAndTheCommandLineWins() {
    PlanResult result = plan(Input.of(PROJECT));
    assertEquals(List.of(Map.of("branch", "0"), Map.of("branch", "1")), result.variants().stream()
        .map(VariantReport.Row::values).toList());
    assertTrue(plan(new Input(PROJECT, null, Map.of("branch", "1"))).variants().isEmpty());
  }

  @Test
  void aListForAParameterNoActorSetsAndTooManyCombinationsAreErrors() {
    OptionException list = assertThrows(OptionException.class, () -> plan(graph(Map.of("branch", "0",
        "size", "8,16"))));
    assertTrue(list.getMessage().startsWith("parameter 'size' is given several values (8,16), but no configuration "
        + "actor sets it"), list.getMessage());
    List<String> values = new ArrayList<>();
    for (int v = 0; v <= DynamicParameters.MAX_VARIANTS; v++) {
      values.add(Integer.toString(v));
    }
    InputException many = assertThrows(InputException.class, () -> plan(graph(Map.of("branch", String.join(",",
        values)))));
    assertTrue(many.getMessage().startsWith("too many combinations of dynamic parameter values: branch (65 values) = 65"
        + " variants to plan, at most 64"), many.getMessage());
    assertEquals(GRAPH.toString(), many.location().file());
  }

  @Test
  void inspectLooksAtOneValueAndSaysWhenItTakesTheDefault() {
    Inspection defaulted = new Pipeline().inspect(graph(Map.of()));
    assertTrue(defaulted.diagnostics().stream().anyMatch(d -> d.severity() == Diagnostic.Severity.WARNING
        && d.location().line() == 14 && d.message().startsWith("dynamic parameter 'branch' (set at run time by "
        + "Cfg.branch) taken as its expression '0'")), defaulted.diagnostics().toString());
    Inspection one = new Pipeline().inspect(graph(Map.of("branch", "1")));
    assertTrue(one.diagnostics().stream().noneMatch(d -> d.message().contains("dynamic parameter")));
    OptionException several = assertThrows(OptionException.class, () -> new Pipeline().inspect(graph(Map.of(
        "branch", "0,1"))));
    assertTrue(several.getMessage().startsWith("inspect looks at one value of each dynamic parameter (2 combinations"),
        several.getMessage());
  }

  @Test
  void valuesAreSplitAtCommasOutsideParentheses() {
    assertEquals(List.of("1", "max(2,3)", "4"), DynamicParameters.split(" [1, max(2,3) ,4] "));
    assertEquals(List.of("7"), DynamicParameters.split("7"));
  }

  @Test
  void aProgramOfSeveralVariantsRefusesWhatItCannotHoldAndPlanWritesAReportPerVariant() throws IOException {
    Path out = dir.resolve("never");
    OptionException synthetic = assertThrows(OptionException.class, () -> new Pipeline().generate(GenerateOptions
        .of(Input.of(PROJECT), out, RUNTIME).withSyntheticActors(true)));
    assertTrue(synthetic.getMessage().contains("a program switching between the variants of dynamic parameters "
        + "(2 combinations given: branch=0; branch=1) is generated with a static schedule, real actors"),
        synthetic.getMessage());
    assertFalse(Files.exists(out), "nothing written");
    Path report = dir.resolve("report");
    PlanResult result = new Pipeline().plan(new PlanOptions(Input.of(PROJECT), new PlatformOptions(null, 1), null,
        null, List.of(), "generic", report));
    assertTrue(result.reportFiles().contains(report.resolve("variant-2/plan.md")), result.reportFiles().toString());
    String table = Files.readString(report.resolve("plan.md"));
    assertTrue(table.contains("| [2](variant-2/plan.md) | branch=1 | 7 |"), table);
    assertTrue(Files.readString(report.resolve("plan.json")).contains("\"branch\": \"1\""));
  }

  @Test
  void aProgramOfSeveralVariantsRefusesInitialTokensAtTheirFifo() {
    Path graph = PROJECT.resolve("Algo/dyndelay.pi");
    Path out = dir.resolve("never");
    InputException error = assertThrows(InputException.class, () -> new Pipeline().generate(GenerateOptions.of(
        new Input(graph, null, Map.of("width", "8,16")), out, RUNTIME)));
    assertEquals(graph.toString(), error.location().file());
    assertEquals(46, error.location().line(), "the line of the FIFO's <edge>");
    assertTrue(error.getMessage().startsWith("a program switching between the variants of dynamic parameters carries "
        + "nothing from one iteration to the next, and FIFO Src.out -> Snk.in has initial tokens (width=8)"),
        error.getMessage());
    assertFalse(Files.exists(out), "nothing written");
  }

  @Test
  void aResolutionChangeIsPlannedPerWidth() {
    PlanResult result = plan(new Input(RESOLUTION, null, Map.of("width", "8,16,32")));
    assertEquals(3, result.variants().size());
    for (VariantReport.Row row : result.variants()) {
      long width = Long.parseLong(row.values().get("width"));
      assertEquals(width * HEIGHT, bytes(row.plan(), "Src.out"), row.label());
      assertEquals(width * HEIGHT, bytes(row.plan(), "Row.out"), row.label());
    }
    assertTrue(result.variants().get(2).plan().totals().footprintBytes()
        > result.variants().get(0).plan().totals().footprintBytes(), "larger frames, more buffer memory");
  }

  /**
   * A program generated for one value runs the configuration actor and prints the frames that value gives (a Java
   * model of the actors of dynparam.c computes them); when the actor sets another value it stops with a message
   * naming the actor, the parameter, the value and the iteration (actors on the other cores, which do not wait for
   * the configuration actor, run with the planned value until then). With {@code -Dcacheflow.e2e=full}: both
   * branches, the resolution graph, and each under ASan+UBSan too.
   */
  @Test
  void aProgramForOneValueRunsItsFramesAndStopsAtAnotherValue() throws Exception {
    assumeProgramsBuild();
    for (String sanitize : FULL ? List.of("", "address,undefined") : List.of("")) {
      for (int branch : FULL ? List.of(0, 1) : List.of(1)) {
        int value = branch;
        checkProgram(GRAPH, "dynswitch", "branch", value, 1 - value, "DYNSWITCH_BRANCHES",
            frame -> expectedSwitchHash(frame, value), sanitize);
      }
      if (FULL) {
        for (int width : List.of(8, 32)) {
          checkProgram(RESOLUTION, "dynres", "width", width, 16, "DYNRES_WIDTHS",
              frame -> width * HEIGHT + " " + expectedResolutionHash(frame, width), sanitize);
        }
      }
    }
  }

  /**
   * One program for every planned value: the configuration actor's value of each iteration (a sequence the test
   * gives, repeated over 150 iterations: it changes the variant several times and stays on one for several
   * iterations) selects the variant the cores run, and every frame is the one that value gives (the Java model of the
   * actors); Row's init prototype takes the width and stops the program when Row fires with another, so the init
   * must run again where the width changes; a value outside the planned set stops the program at that iteration,
   * with a message, before any other actor of the iteration fires. By default the resolution change (widths 8, 16,
   * 32) on 2 cores; with {@code -Dcacheflow.e2e=full} the switch too, on 1 and 2 cores, each under ASan+UBSan and
   * TSan too, and on 2 cores with the baseline's semaphores and barrier and with rdy-ack channels.
   */
  @Test
  void aProgramOfEveryVariantSwitchesPerIterationAndStopsAtAValueOutsideThem() throws Exception {
    assumeProgramsBuild();
    List<Integer> branches = List.of(0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 1);
    List<Integer> widths = List.of(16, 8, 32, 32, 32, 32, 8, 16, 16, 16, 8, 32, 16);
    for (String sanitize : FULL ? List.of("", "address,undefined", "thread") : List.of("")) {
      for (int cores : FULL ? List.of(1, 2) : List.of(2)) {
        List<StrategyPreset> strategies = FULL && cores == 2 && sanitize.isEmpty()
            ? List.of(StrategyPreset.AUTO, StrategyPreset.BASELINE, StrategyPreset.CHANNELS)
            : List.of(StrategyPreset.AUTO);
        for (StrategyPreset strategy : strategies) {
          if (FULL) {
            checkVariants(GRAPH, "dynswitch", "branch", List.of(0, 1), "DYNSWITCH_BRANCHES", branches, 7,
                frame -> expectedSwitchHash(frame, branches.get(frame % branches.size())), cores, strategy,
                sanitize);
          }
          checkVariants(RESOLUTION, "dynres", "width", List.of(8, 16, 32), "DYNRES_WIDTHS", widths, 12,
              frame -> widths.get(frame % widths.size()) * HEIGHT + " " + expectedResolutionHash(frame,
                  widths.get(frame % widths.size())), cores, strategy, sanitize);
        }
      }
    }
  }

  /**
   * The variants of a program holding them all share their buffers' memory: on each core the largest variant's,
   * so that the program's memory (what generate prints and the program checks) is the largest variant's when, as
   * here, no variant has channels or copy-on-write buffers, and plan's table says the same; the cores meet at a
   * barrier only where the variant changes (under auto: no barrier in the code of a variant's iteration).
   */
  @Test
  void theVariantsShareTheLargestVariantsMemoryAndMeetOnlyWhereTheVariantChanges() throws IOException {
    Map<String, String> widths = Map.of("width", "8,16,32");
    PlanResult planned = new Pipeline().plan(new PlanOptions(new Input(RESOLUTION, null, widths), new PlatformOptions(
        null, 2), null, null, List.of(), "generic", null));
    long largest = planned.variants().stream().mapToLong(r -> r.memory().totalBytes()).max().orElseThrow();
    long sum = planned.variants().stream().mapToLong(r -> r.memory().totalBytes()).sum();
    assertTrue(sum > largest, "the variants' programs add up to more than the largest");
    assertEquals(largest, VariantReport.programBytes(planned.variants()), "plan's table");
    Path out = dir.resolve("dynres-memory");
    GenerateResult result = new Pipeline().generate(GenerateOptions.of(new Input(RESOLUTION, null, widths), out,
        RUNTIME).withPlatform(new PlatformOptions(null, 2)));
    assertTrue(result.project().channels().isEmpty() && result.project().cowBuffers().isEmpty(),
        "no channels nor copy-on-write buffers under auto");
    assertEquals(largest, result.project().memory().totalBytes(), "the program's memory");
    String memory = MemoryText.size(largest);
    assertTrue(result.diagnostics().stream().anyMatch(d -> d.message().contains(memory + " in all (each variant "
        + "alone: width=8 ")), result.diagnostics().toString());
    assertTrue(Files.readString(out.resolve("main.c")).contains("/* what plan reports as the program's memory: "
        + memory.replace("*/", "* /") + " */"), "the program checks " + memory);
    for (String core : List.of("core_0.c", "core_1.c")) {
      String text = Files.readString(out.resolve(core));
      int iteration = text.indexOf("\n        switch (cf_this_variant) {");
      assertTrue(iteration > 0 && text.indexOf("if (cf_this_variant != cf_previous_variant)") < iteration, core);
      String variants = text.substring(iteration, text.indexOf("cf_gen_check_stop();", iteration));
      assertFalse(variants.contains("barrier"), core + ": " + variants);
    }
  }

  /**
   * Generates one program for the {@code planned} values of a dynamic parameter, builds it and runs it with the
   * configuration actor setting {@code sequence} (one value per iteration): the frames {@code expected} gives; then
   * with {@code outside} set at iteration 2: the message, and no frame of that iteration.
   */
  private void checkVariants(Path graph, String program, String parameter, List<Integer> planned, String variable,
      List<Integer> sequence, int outside, IntFunction<String> expected, int cores, StrategyPreset strategy,
      String sanitize) throws Exception {
    String name = program + "-variants-" + cores + "-" + strategy.label + sanitize.replace(',', '-');
    String values = String.join(",", planned.stream().map(String::valueOf).toList());
    Built built = variants(graph, program, parameter, values, cores, strategy, sanitize);
    GenerateResult result = built.result();
    Path out = result.outputDirectory();
    assertTrue(result.diagnostics().stream().anyMatch(d -> d.message().startsWith("one program for " + planned.size()
        + " variants: every iteration, configuration actor Cfg fires first on core ")
        && d.message().contains("cores meet at a barrier only where the variant changes")), result.diagnostics()
        .toString());
    String binary = built.binary().toString();
    String given = String.join(",", sequence.stream().map(String::valueOf).toList());
    Result switched = run(out, 60, List.of(variable + "=" + given), binary, "--iterations",
        Integer.toString(ITERATIONS));
    assertEquals(0, switched.status(), switched.text());
    List<String> frames = new ArrayList<>();
    for (int frame = 0; frame < ITERATIONS; frame++) {
      frames.add("frame " + frame + ": " + expected.apply(frame));
    }
    assertEquals(frames, switched.text().lines().filter(l -> l.startsWith("frame ")).toList(), name);
    Result stopped = run(out, 60, List.of(variable + "=" + sequence.get(0) + "," + sequence.get(1) + "," + outside),
        binary, "--iterations", "4");
    assertEquals(1, stopped.status(), stopped.text());
    String listed = String.join(", ", planned.stream().map(String::valueOf).toList());
    assertTrue(stopped.text().contains("error: iteration 2: configuration actor Cfg set dynamic parameter '" + parameter
        + "' to " + outside + ", which this program was not generated for (planned: " + listed + "); generate it with "
        + "that value planned too, --param " + parameter + "=" + values + "," + outside), stopped.text());
    // iterations 0 and 1 ran (their frames may be cut short by the stop); nothing of iteration 2
    for (String line : stopped.text().lines().filter(l -> l.startsWith("frame ")).toList()) {
      assertTrue(frames.subList(0, 2).contains(line), line + "\n" + stopped.text());
    }
  }

  /** A program generated and built: the generation's result and the executable. */
  record Built(GenerateResult result, Path binary) {
  }

  /** The programs of every variant built in this JVM, by name: a test class needing one built before reuses it. */
  private static final Map<String, Built> BUILT = new HashMap<>();

  /**
   * The program of the graph for every value of {@code values} (comma-separated) of the dynamic parameter, generated
   * and built (in target/dynparam-programs) once per JVM.
   */
  static synchronized Built variants(Path graph, String program, String parameter, String values, int cores,
      StrategyPreset strategy, String sanitize) throws Exception {
    String name = program + "-" + parameter + "-" + values.replace(',', '_') + "-" + cores + "-" + strategy.label
        + sanitize.replace(',', '-');
    Built built = BUILT.get(name);
    if (built == null) {
      Path out = Path.of("target/dynparam-programs").toAbsolutePath().resolve(name);
      deleteTree(out);
      Files.createDirectories(out.getParent());
      GenerateResult result = new Pipeline().generate(GenerateOptions.of(new Input(graph, null, Map.of(parameter,
          values)), out, RUNTIME).withPlatform(new PlatformOptions(null, cores)).withStrategy(strategy));
      run(out, 300, List.of(), "cmake", "-S", out.toString(), "-B", out.resolve("build").toString(), "-G", "Ninja",
          "-DCACHEFLOW_WERROR=ON", "-DCACHEFLOW_BUNDLED_RUNTIME=ON", "-DCACHEFLOW_SANITIZE=" + sanitize);
      run(out, 600, List.of(), "cmake", "--build", out.resolve("build").toString());
      built = new Built(result, out.resolve("build").resolve(program));
      BUILT.put(name, built);
    }
    return built;
  }

  private static void deleteTree(Path root) throws IOException {
    if (Files.exists(root)) {
      try (Stream<Path> paths = Files.walk(root)) {
        for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(path);
        }
      }
    }
  }

  /** Skips a test that builds and runs generated programs when it cannot or should not. */
  static void assumeProgramsBuild() {
    Assumptions.assumeTrue(available("cmake") && available("ninja") && available("cc"),
        "cmake, ninja or cc missing: generated program not built");
    Assumptions.assumeFalse("none".equals(System.getProperty("cacheflow.e2e")), "end-to-end tests disabled");
  }

  /**
   * Generates the project for one value of a dynamic parameter, builds it and runs it: with the configuration actor
   * setting that value, the frames {@code expected} gives; setting {@code other} at iteration 2, the message.
   */
  private void checkProgram(Path graph, String program, String parameter, int value, int other, String variable,
      IntFunction<String> expected, String sanitize) throws Exception {
    Path out = dir.resolve(program + value + sanitize.replace(',', '-'));
    new Pipeline().generate(GenerateOptions.of(new Input(graph, null, Map.of(parameter, Integer.toString(value))),
        out, RUNTIME).withPlatform(new PlatformOptions(null, 2)));
    run(out, 300, List.of(), "cmake", "-S", out.toString(), "-B", out.resolve("build").toString(), "-G", "Ninja",
        "-DCACHEFLOW_WERROR=ON", "-DCACHEFLOW_BUNDLED_RUNTIME=ON", "-DCACHEFLOW_SANITIZE=" + sanitize);
    run(out, 600, List.of(), "cmake", "--build", out.resolve("build").toString());
    String binary = out.resolve("build").resolve(program).toString();
    Result planned = run(out, 60, List.of(variable + "=" + value), binary, "--iterations", "4");
    assertEquals(0, planned.status(), planned.text());
    List<String> frames = new ArrayList<>();
    for (int frame = 0; frame < 4; frame++) {
      frames.add("frame " + frame + ": " + expected.apply(frame));
    }
    assertEquals(frames, planned.text().lines().filter(l -> l.startsWith("frame ")).toList(), sanitize);
    Result stopped = run(out, 60, List.of(variable + "=" + value + "," + value + "," + other), binary,
        "--iterations", "4");
    assertEquals(1, stopped.status(), stopped.text());
    assertTrue(stopped.text().contains("error: iteration 2: configuration actor Cfg set dynamic parameter '" + parameter
        + "' to " + other + ", which this program was not generated for (planned: " + value + "); generate it for that"
        + " value with --param " + parameter + "=" + other), stopped.text());
    // the other cores' actors run with the planned value until the program stops: every frame printed is its
    for (String line : stopped.text().lines().filter(l -> l.startsWith("frame ")).toList()) {
      assertTrue(frames.contains(line), line + "\n" + stopped.text());
    }
  }

  /** The FNV-1a hash the sink prints for a frame: the source's frame through the branch's actor (dynparam.c). */
  private static String expectedSwitchHash(int frame, int branch) {
    int[] in = new int[SIZE];
    for (int i = 0; i < SIZE; i++) {
      in[i] = (i * 31 + frame * 7) & 0xff;
    }
    int[] out = new int[SIZE];
    for (int i = 0; i < SIZE; i++) {
      out[i] = branch == 0 ? 255 - in[i] : in[(i + 1) % SIZE] ^ 0x5a;
    }
    return fnv(out);
  }

  /** The hash of a frame of the resolution graph: each row through the 3-tap filter (dynparam.c). */
  static String expectedResolutionHash(int frame, int width) {
    int[] in = new int[width * HEIGHT];
    for (int i = 0; i < in.length; i++) {
      in[i] = (i * 13 + frame * 5) & 0xff;
    }
    int[] out = new int[in.length];
    for (int row = 0; row < HEIGHT; row++) {
      for (int x = 0; x < width; x++) {
        int at = row * width;
        out[at + x] = (in[at + Math.max(x - 1, 0)] + 2 * in[at + x] + in[at + Math.min(x + 1, width - 1)]) / 4;
      }
    }
    return fnv(out);
  }

  private static String fnv(int[] bytes) {
    int hash = 0x811c9dc5;
    for (int value : bytes) {
      hash = (hash ^ value) * 16777619;
    }
    return String.format(Locale.ROOT, "%08x", hash);
  }

  private static long bytes(MemoryPlan plan, String source) {
    return plan.fifos().stream().filter(f -> f.source().equals(source)).mapToLong(FifoPlan::bytes).sum();
  }

  record Result(int status, String text) {
  }

  static Result run(Path dir, int seconds, List<String> environment, String... command) throws Exception {
    Path log = Files.createTempFile(dir.getParent(), "run", ".log");
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile());
    for (String variable : environment) {
      int equals = variable.indexOf('=');
      builder.environment().put(variable.substring(0, equals), variable.substring(equals + 1));
    }
    Process process = builder.start();
    if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(String.join(" ", command) + " took more than " + seconds + " s");
    }
    String text = Files.readString(log, StandardCharsets.UTF_8);
    if (command[0].equals("cmake") && process.exitValue() != 0) {
      throw new AssertionError(String.join(" ", command) + " failed:\n" + text);
    }
    return new Result(process.exitValue(), text);
  }

  private static boolean available(String tool) {
    for (String folder : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (Files.isExecutable(Path.of(folder, tool))) {
        return true;
      }
    }
    return false;
  }
}
