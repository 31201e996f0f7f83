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
import java.util.function.IntUnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.cacheflow.codegen.model.CodeProject;
import org.cacheflow.codegen.model.StaticBuffer;
import org.cacheflow.codegen.model.VariantProgram;
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
  /** The resolution change with state kept from frame to frame through persistent delays of 16 bytes. */
  private static final Path ACCUMULATE = PROJECT.resolve("Algo/dynacc.pi");
  /** The bytes of dynacc's delays. */
  private static final int HISTORY = 16;
  /**
   * dynacc on 2 cores with Acc on core 0 and Mix on core 1: the final tokens of the delay between them are written
   * on core 0 and its initial tokens read on core 1.
   */
  private static final Path SPLIT = PROJECT.resolve("Scenarios/acc2core.scenario");
  /**
   * A broadcast of a frame of width x COW_HEIGHT bytes to an actor that writes a byte of every page and one that
   * only reads.
   */
  private static final Path BROADCAST = PROJECT.resolve("Algo/dyncow.pi");
  private static final int COW_HEIGHT = 1024;
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
  void aProgramOfSeveralVariantsRefusesAPersistentDelayWhoseSizeDependsOnADynamicParameterAtItsFifo() {
    Path graph = PROJECT.resolve("Algo/dyndelay.pi");
    Path out = dir.resolve("never");
    InputException error = assertThrows(InputException.class, () -> new Pipeline().generate(GenerateOptions.of(
        new Input(graph, null, Map.of("width", "8,16")), out, RUNTIME)));
    assertEquals(graph.toString(), error.location().file());
    assertEquals(46, error.location().line(), "the line of the FIFO's <edge>");
    assertTrue(error.getMessage().startsWith("FIFO Src.out -> Snk.in has a persistent delay of 32 tokens (32 bytes) "
        + "with width=8 but 64 tokens (64 bytes) with width=16: a program switching between the variants of dynamic "
        + "parameter width keeps one state for each persistent delay"), error.getMessage());
    assertFalse(Files.exists(out), "nothing written");
  }

  /**
   * A delay that starts afresh at every iteration (persistence none) carries nothing from one iteration to the next:
   * each variant keeps it as its own program does, even where its size depends on the width, and no state is shared;
   * the program prints the delay's zeros of each iteration's width (with {@code -Dcacheflow.e2e=full}: built and run
   * on 2 cores).
   */
  @Test
  void aDelayThatStartsAfreshIsEachVariantsOwnWhateverItsSize() throws Exception {
    Path graph = PROJECT.resolve("Algo/dynnone.pi");
    GenerateResult result = new Pipeline().generate(GenerateOptions.of(new Input(graph, null, Map.of("width",
        "8,16,32")), dir.resolve("dynnone-states"), RUNTIME).withPlatform(new PlatformOptions(null, 2)));
    assertTrue(result.project().buffers().stream().noneMatch(VariantProgram::isDelayState), result.project()
        .buffers().toString());
    assertTrue(result.diagnostics().stream().noneMatch(d -> d.message().contains("persistent delay")),
        result.diagnostics().toString());
    if (FULL) {
      assumeProgramsBuild();
      List<Integer> widths = List.of(16, 8, 32, 32, 8, 16, 16, 8, 32);
      checkVariants(graph, "dynnone", "width", List.of(8, 16, 32), "DYNRES_WIDTHS", widths, 12,
          frame -> widths.get(frame % widths.size()) * HEIGHT + " " + fnv(new int[widths.get(frame % widths.size())
              * HEIGHT]), 2, StrategyPreset.AUTO, "");
    }
  }

  /**
   * The persistent delays of a program holding every variant, of a size no dynamic parameter changes, are one state
   * each that every variant shares: allocated once (two copies) outside the region the variants' buffers share, so
   * the program's memory is the region plus the states; the variants' code names them as each variant alone does and
   * takes the copy of the program's iteration.
   */
  @Test
  void persistentDelaysAreOneStateEveryVariantShares() throws IOException {
    Path out = dir.resolve("dynacc-states");
    GenerateResult result = new Pipeline().generate(GenerateOptions.of(new Input(ACCUMULATE, null, Map.of("width",
        "8,16,32")), out, RUNTIME).withPlatform(new PlatformOptions(null, 2)));
    List<StaticBuffer> states = result.project().buffers().stream().filter(VariantProgram::isDelayState).toList();
    assertEquals(2, states.size(), result.project().buffers().toString());
    for (StaticBuffer state : states) {
      assertEquals(HISTORY, state.bytes(), state.toString());
      assertTrue(state.allocated() && state.copies() == 2, state.toString());
    }
    long regions = result.project().buffers().stream().filter(b -> b.name().startsWith("cf_variant_buffers"))
        .mapToLong(CodeProject::alignedBytes).sum();
    long stateBytes = states.stream().mapToLong(CodeProject::alignedBytes).sum();
    long own = result.project().channels().stream().mapToLong(c -> c.bytes() * c.slots()).sum()
        + result.project().cowBuffers().stream().mapToLong(c -> c.bytes()).sum();
    assertEquals(regions + stateBytes + own, result.project().memory().totalBytes(), "the regions, the states and "
        + "the variants' channel slots and copy-on-write buffers");
    assertTrue(result.diagnostics().stream().anyMatch(d -> d.message().contains("share memory sized for the largest "
        + "variant (" + MemoryText.size(regions) + ")")), result.diagnostics().toString());
    assertTrue(result.diagnostics().stream().anyMatch(d -> d.message().startsWith("2 persistent delays keep their "
        + "states from one iteration to the next whichever variant runs it, one state every variant shares, outside "
        + "the variants' shared memory (" + MemoryText.size(stateBytes) + ", counted in the program's memory above): "
        + "[persistent delay of Acc.next -> Acc.previous, persistent delay of Acc.copy -> Mix.previous]")),
        result.diagnostics().toString());
    String text = Files.readString(out.resolve("core_0.c")) + Files.readString(out.resolve("core_1.c"));
    for (StaticBuffer state : states) {
      assertTrue(text.contains("(" + state.name() + " + (cf_program_iteration & 1) * 16u)"), state.name());
      assertFalse(text.contains("cf_v1_" + state.name()) || text.contains("(" + state.name() + " + (iteration"),
          state.name());
    }
    assertTrue(text.contains("if (cf_program_iteration == 0) {"), "initHistory in the program's first iteration");
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
   * 32) on 2 cores with rdy-ack channels (their slots shared between the variants, reset on entering one); with
   * {@code -Dcacheflow.e2e=full} the switch too, on 1 and 2 cores under auto, each under ASan+UBSan and TSan too, and
   * on 2 cores with the baseline's semaphores and barrier and with rdy-ack channels (under the sanitizers too).
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
            : FULL && cores == 2 ? List.of(StrategyPreset.AUTO, StrategyPreset.CHANNELS)
            : FULL ? List.of(StrategyPreset.AUTO) : List.of(StrategyPreset.CHANNELS);
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
   * Under {@code channels} the variants' channel slots share memory as their buffers do: per receiving core the
   * largest variant's, so that the program's memory (generate's note, the program's check, plan's table and JSON) is
   * below what the variants' programs add up to even counting only their channel slots; each core resets the
   * channels it receives on entering a variant, then the cores meet before any sends.
   */
  @Test
  void theVariantsChannelSlotsShareTheLargestVariantsMemory() throws IOException {
    Map<String, String> widths = Map.of("width", "8,16,32");
    PlanResult planned = new Pipeline().plan(new PlanOptions(new Input(RESOLUTION, null, widths), new PlatformOptions(
        null, 2), StrategyPreset.CHANNELS, null, List.of(), "generic", null));
    List<VariantReport.Row> rows = planned.variants();
    assertTrue(rows.stream().allMatch(r -> r.channelBytes().stream().mapToLong(Long::longValue).sum() > 0),
        "every variant has channels under channels");
    long slotsSum = 0;
    long[] largestSlots = new long[2];
    long[] largestBuffers = new long[2];
    long others = 0;
    for (VariantReport.Row row : rows) {
      for (int c = 0; c < 2; c++) {
        slotsSum += row.channelBytes().get(c);
        largestSlots[c] = Math.max(largestSlots[c], row.channelBytes().get(c));
        largestBuffers[c] = Math.max(largestBuffers[c], row.bufferBytes().get(c));
        others += -row.channelBytes().get(c) - row.bufferBytes().get(c);
      }
      others += row.memory().totalBytes();
    }
    long shared = others + largestSlots[0] + largestSlots[1] + largestBuffers[0] + largestBuffers[1];
    long summedSlots = shared - largestSlots[0] - largestSlots[1] + slotsSum;
    assertTrue(shared < summedSlots, "channel slots summed would be more: " + shared + " against " + summedSlots);
    assertEquals(shared, VariantReport.programBytes(rows), "plan's table");
    assertEquals(shared, ((Number) VariantReport.document(rows, false).get("programBytes")).longValue(),
        "plan --json");
    long largest = rows.stream().mapToLong(r -> r.memory().totalBytes()).max().orElseThrow();
    assertEquals(largest, shared, "here the largest variant is the largest on every core");
    Path out = dir.resolve("dynres-channels-memory");
    GenerateResult result = new Pipeline().generate(GenerateOptions.of(new Input(RESOLUTION, null, widths), out,
        RUNTIME).withPlatform(new PlatformOptions(null, 2)).withStrategy(StrategyPreset.CHANNELS));
    assertFalse(result.project().channels().isEmpty(), "the frame holds every variant's channels");
    String memory = MemoryText.size(shared);
    assertTrue(result.diagnostics().stream().anyMatch(d -> d.message().contains("and so do their channel slots (")
        && d.message().contains(memory + " in all (each variant alone: width=8 ")), result.diagnostics().toString());
    String main = Files.readString(out.resolve("main.c"));
    assertTrue(main.contains("/* what plan reports as the program's memory: " + memory.replace("*/", "* /") + " */"),
        "the program checks " + memory);
    assertTrue(main.contains("cf_channel_create_in(") && !main.contains("cf_channel_create(&"),
        "every channel in the shared slots");
    for (String core : List.of("core_0.c", "core_1.c")) {
      String text = Files.readString(out.resolve(core));
      int reset = text.indexOf("cf_channel_reset(");
      int iteration = text.indexOf("\n        switch (cf_this_variant) {\n        case 0: {");
      assertTrue(reset < 0 || reset < iteration, core + ": resets before the variant's iteration");
      // entering a variant: the barrier after the variant left, then one after the init calls and resets
      int change = text.indexOf("if (cf_this_variant != cf_previous_variant) {");
      String entering = text.substring(change, text.indexOf("cf_previous_variant = cf_this_variant;", change));
      assertEquals(2, entering.split("cf_barrier_wait\\(&cf_variant_change\\);", -1).length - 1,
          core + ": " + entering);
    }
    assertTrue(Files.readString(out.resolve("core_0.c")).contains("cf_channel_reset(")
        || Files.readString(out.resolve("core_1.c")).contains("cf_channel_reset("), "a receiving core resets");
  }

  /**
   * One program for every planned width of dynacc.pi, whose two persistent delays carry a history of 16 bytes from
   * frame to frame whatever the width: over a sequence of widths that changes the variant several times, every frame
   * is the Java model's, whose history runs through every frame (the last iteration of one variant leaves what the
   * first iteration of the next reads), started by the delay's init refinement in the program's first iteration. By
   * default on 2 cores under auto with Acc on core 0 and Mix on core 1: the delay between them is written on one core
   * and read on the other, each variant's channel carrying it within the variant and handing it over to the state
   * every variant shares where the variant changes. With {@code -Dcacheflow.e2e=full} that under TSan and ASan+UBSan
   * too, and the same mapping under the baseline (the state in memory, the barrier ordering its uses), without the
   * scenario on 1 and 2 cores under auto and the baseline (each state used by one core, which may differ between
   * variants), and the program of one width giving that width's frames.
   */
  @Test
  void aProgramOfEveryVariantCarriesPersistentDelaysAcrossChangesOfVariant() throws Exception {
    assumeProgramsBuild();
    List<Integer> widths = List.of(16, 8, 32, 32, 32, 32, 8, 16, 16, 16, 8, 32, 16);
    List<String> frames = expectedAccumulated(f -> widths.get(f % widths.size()), ITERATIONS);
    for (String sanitize : FULL ? List.of("", "thread", "address,undefined") : List.of("")) {
      for (StrategyPreset strategy : FULL ? List.of(StrategyPreset.AUTO, StrategyPreset.BASELINE)
          : List.of(StrategyPreset.AUTO)) {
        Path split = checkVariants(ACCUMULATE, SPLIT, "dynacc", "width", List.of(8, 16, 32), "DYNRES_WIDTHS",
            widths, 12, frames::get, 2, strategy, sanitize);
        String core0 = Files.readString(split.resolve("core_0.c"));
        String core1 = Files.readString(split.resolve("core_1.c"));
        if (strategy == StrategyPreset.AUTO) {
          for (String variant : List.of("cf_v1_", "cf_v2_", "cf_v3_")) {
            String channel = variant + "ch_delay1";
            assertTrue(core0.contains("cf_gen_reserve(" + channel + ", \"reserve " + channel + "\");\n")
                && core1.contains("cf_gen_acquire(" + channel + ", \"acquire " + channel + "\");\n"),
                "lastFrame carried by " + channel + " from core 0 to core 1, handed over where the variant changes");
          }
        } else {
          assertTrue(core0.contains("/* Acc_end_copy */") && !core1.contains("/* Acc_end_copy */")
              && core1.contains("(cf_program_iteration & 1) * 16u), 16u); /* Mix_init_previous */")
              && !core0.contains("/* Mix_init_previous */"), "lastFrame's end on core 0, its init on core 1");
        }
      }
      if (FULL) {
        for (int cores : List.of(1, 2)) {
          for (StrategyPreset strategy : List.of(StrategyPreset.AUTO, StrategyPreset.BASELINE)) {
            checkVariants(ACCUMULATE, null, "dynacc", "width", List.of(8, 16, 32), "DYNRES_WIDTHS", widths, 12,
                frames::get, cores, strategy, sanitize);
          }
        }
        for (int width : List.of(8, 32)) {
          List<String> own = expectedAccumulated(f -> width, 4);
          checkProgram(ACCUMULATE, "dynacc", "width", width, 16, "DYNRES_WIDTHS", own::get, sanitize);
        }
      }
    }
  }

  /**
   * The variants' copy-on-write buffers lie in one memory file as large as the largest variant's: dyncow.pi at widths
   * 64 and 128 (frames of 64 and 128 KiB, each a copy-on-write source whose views A and B read, A writing a byte of
   * every page of its view). The program's memory (generate's note, the program's check, plan's table and JSON) is
   * the largest variant's, below what the variants' programs add up to; main.c creates every variant's buffers in
   * the file; and over widths that change the variant several times every frame is the Java model's, with pages
   * faulted and re-shared (--validate's statistics). By default on 2 cores under auto; with
   * {@code -Dcacheflow.e2e=full} also under cow on 1 and 2 cores, and under TSan and ASan+UBSan.
   */
  @Test
  void theVariantsCopyOnWriteBuffersShareOneFileSizedForTheLargestVariant() throws Exception {
    Map<String, String> widths = Map.of("width", "64,128");
    // the target generate takes (null: the default), whose caches decide the merge groups' slots
    PlanResult planned = new Pipeline().plan(new PlanOptions(new Input(BROADCAST, null, widths), new PlatformOptions(
        null, 2), null, null, List.of(), null, null));
    List<VariantReport.Row> rows = planned.variants();
    assertTrue(rows.stream().allMatch(r -> r.memory().copyOnWriteBytes() > 0), "copy-on-write in every variant");
    long largest = rows.stream().mapToLong(r -> r.memory().totalBytes()).max().orElseThrow();
    long largestCow = rows.stream().mapToLong(r -> r.memory().copyOnWriteBytes()).max().orElseThrow();
    long summedCow = rows.stream().mapToLong(r -> r.memory().copyOnWriteBytes()).sum();
    assertEquals(largest, VariantReport.programBytes(rows), "plan's table: the largest variant's");
    assertEquals(largest, ((Number) VariantReport.document(rows, false).get("programBytes")).longValue(),
        "plan --json");
    assertTrue(summedCow > largestCow, "summed they would be more: " + summedCow + " against " + largestCow);
    List<Integer> sequence = List.of(64, 64, 128, 64, 128, 128, 128, 64);
    IntFunction<String> model = f -> expectedBroadcast(f, sequence.get(f % sequence.size()));
    for (String sanitize : FULL ? List.of("", "thread", "address,undefined") : List.of("")) {
      for (int cores : FULL ? List.of(1, 2) : List.of(2)) {
        for (StrategyPreset strategy : FULL ? List.of(StrategyPreset.AUTO, StrategyPreset.COW)
            : List.of(StrategyPreset.AUTO)) {
          Path out = checkVariants(BROADCAST, "dyncow", "width", List.of(64, 128), "DYNRES_WIDTHS", sequence, 96,
              model, cores, strategy, sanitize);
          GenerateResult result = variants(BROADCAST, "dyncow", "width", "64,128", cores, strategy, sanitize)
              .result();
          assertFalse(result.project().cowBuffers().isEmpty(), "copy-on-write buffers under " + strategy.label);
          String main = Files.readString(out.resolve("main.c"));
          assertTrue(main.contains("cf_cow_file_create(&cf_variant_cow_file, largest)")
              && !main.contains("cf_cow_create(&cf_v1_cow0[s], 65536u, NULL)")
              && main.contains(".file = cf_variant_cow_file, .file_offset = cf_variant_cow_offset};"),
              "every variant's buffers in the shared file:\n" + main);
          if (cores == 2 && sanitize.isEmpty()) {
            String memory = MemoryText.size(largest);
            assertTrue(result.diagnostics().stream().anyMatch(d -> d.message().contains("and their copy-on-write "
                + "buffers in one memory file (" + MemoryText.size(largestCow) + ")") && d.message().contains(memory
                + " in all (each variant alone: width=64 ")), memory + ", " + MemoryText.size(largestCow) + ": "
                + result.diagnostics());
            assertTrue(main.contains("/* what plan reports as the program's memory: " + memory.replace("*/", "* /")
                + " */"), "the program checks " + memory);
          }
          Result validated = run(out, 60, List.of("DYNRES_WIDTHS=64,128,128,64"), out.resolve("build")
              .resolve("dyncow").toString(), "--iterations", "8", "--validate");
          assertEquals(0, validated.status(), validated.text());
          Matcher stats = Pattern.compile("cow pages shared (\\d+), faulted (\\d+), re-shared (\\d+)")
              .matcher(validated.text());
          assertTrue(stats.find() && Long.parseLong(stats.group(2)) > 0 && stats.group(2).equals(stats.group(3)),
              "A's written pages faulted and re-shared:\n" + validated.text());
        }
      }
    }
  }

  /**
   * Generates one program for the {@code planned} values of a dynamic parameter, builds it and runs it with the
   * configuration actor setting {@code sequence} (one value per iteration): the frames {@code expected} gives; then
   * with {@code outside} set at iteration 2: the message, and no frame of that iteration.
   */
  private Path checkVariants(Path graph, String program, String parameter, List<Integer> planned, String variable,
      List<Integer> sequence, int outside, IntFunction<String> expected, int cores, StrategyPreset strategy,
      String sanitize) throws Exception {
    return checkVariants(graph, null, program, parameter, planned, variable, sequence, outside, expected, cores,
        strategy, sanitize);
  }

  /**
   * {@link #checkVariants(Path, String, String, List, String, List, int, IntFunction, int, StrategyPreset, String)}
   * with a scenario (null: none); returns the program's folder.
   */
  private Path checkVariants(Path graph, Path scenario, String program, String parameter, List<Integer> planned,
      String variable, List<Integer> sequence, int outside, IntFunction<String> expected, int cores,
      StrategyPreset strategy, String sanitize) throws Exception {
    String name = program + "-variants-" + cores + "-" + strategy.label + sanitize.replace(',', '-')
        + (scenario == null ? "" : "-scenario");
    String values = String.join(",", planned.stream().map(String::valueOf).toList());
    Built built = variants(graph, scenario, program, parameter, values, cores, strategy, sanitize);
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
    return out;
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
  static Built variants(Path graph, String program, String parameter, String values, int cores,
      StrategyPreset strategy, String sanitize) throws Exception {
    return variants(graph, null, program, parameter, values, cores, strategy, sanitize);
  }

  /** {@link #variants(Path, String, String, String, int, StrategyPreset, String)} with a scenario (null: none). */
  static synchronized Built variants(Path graph, Path scenario, String program, String parameter, String values,
      int cores, StrategyPreset strategy, String sanitize) throws Exception {
    String name = program + "-" + parameter + "-" + values.replace(',', '_') + "-" + cores + "-" + strategy.label
        + sanitize.replace(',', '-') + (scenario == null ? "" : "-" + scenario.getFileName().toString()
        .replaceFirst("\\.scenario$", ""));
    Built built = BUILT.get(name);
    if (built == null) {
      Path out = Path.of("target/dynparam-programs").toAbsolutePath().resolve(name);
      deleteTree(out);
      Files.createDirectories(out.getParent());
      GenerateResult result = new Pipeline().generate(GenerateOptions.of(new Input(graph, scenario, Map.of(parameter,
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

  /**
   * The frames dynacc.pi prints ({@code size hash}) for the width of each frame: Src's frame, Acc's history (from
   * initHistory, then 3 x history + 1 + the frame's bytes at each position modulo 16), Mix's frame mixed with the
   * previous frame's history (zeros before the first), as dynparam.c computes them.
   */
  private static List<String> expectedAccumulated(IntUnaryOperator widthOf, int count) {
    int[] history = new int[HISTORY];
    for (int k = 0; k < HISTORY; k++) {
      history[k] = (7 * k + 1) & 0xff;
    }
    int[] last = new int[HISTORY];
    List<String> frames = new ArrayList<>();
    for (int frame = 0; frame < count; frame++) {
      int size = widthOf.applyAsInt(frame) * HEIGHT;
      int[] in = new int[size];
      for (int i = 0; i < size; i++) {
        in[i] = (i * 13 + frame * 5) & 0xff;
      }
      int[] next = new int[HISTORY];
      for (int k = 0; k < HISTORY; k++) {
        int sum = 3 * history[k] + 1;
        for (int i = k; i < size; i += HISTORY) {
          sum += in[i];
        }
        next[k] = sum & 0xff;
      }
      int[] out = new int[size];
      for (int x = 0; x < size; x++) {
        out[x] = in[x] ^ last[x % HISTORY];
      }
      frames.add(size + " " + fnv(out));
      history = next;
      last = next.clone();
    }
    return frames;
  }

  /**
   * What dyncow.pi prints for a frame ({@code size hash}, size both outputs): Src's frame through A (a byte of every
   * 4096 xor 0xa5, then + 1) and B (rotated by one, xor 0x5a), one after the other (dynparam.c).
   */
  private static String expectedBroadcast(int frame, int width) {
    int size = width * COW_HEIGHT;
    int[] in = new int[size];
    for (int i = 0; i < size; i++) {
      in[i] = (i * 13 + frame * 5) & 0xff;
    }
    int[] out = new int[2 * size];
    for (int i = 0; i < size; i++) {
      out[i] = ((i % 4096 == 0 ? in[i] ^ 0xa5 : in[i]) + 1) & 0xff;
      out[size + i] = in[(i + 1) % size] ^ 0x5a;
    }
    return 2 * size + " " + fnv(out);
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
