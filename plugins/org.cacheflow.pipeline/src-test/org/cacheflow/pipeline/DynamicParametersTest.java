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
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.plan.memoryplan.FifoPlan;
import org.cacheflow.plan.memoryplan.MemoryPlan;
import org.cacheflow.report.VariantReport;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dynamic parameters (set at run time by a configuration actor's config output port): never planned silently with the
 * graph's default; the values given (command line, scenario value set) are each planned as a variant; a program
 * generated for one value runs the configuration actor and stops when it sets another. The test project
 * (src-test/resources/dynswitch) switches a frame to one of two branches.
 */
class DynamicParametersTest {

  private static final Path PROJECT = Path.of("src-test/resources/dynswitch").toAbsolutePath();
  private static final Path GRAPH = PROJECT.resolve("Algo/dynswitch.pi");
  private static final Path RUNTIME = Path.of("../../runtime-c").toAbsolutePath();
  /** The frame size (the graph's parameter size). */
  private static final int SIZE = 256;
  private static final boolean FULL = "full".equals(System.getProperty("cacheflow.e2e"));

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
  void valuesAreSplitAtCommasOutsideParentheses() {
    assertEquals(List.of("1", "max(2,3)", "4"), DynamicParameters.split(" [1, max(2,3) ,4] "));
    assertEquals(List.of("7"), DynamicParameters.split("7"));
  }

  @Test
  void generateTakesOneValueAndPlanWritesAReportPerVariant() throws IOException {
    Path out = dir.resolve("never");
    OptionException several = assertThrows(OptionException.class, () -> new Pipeline().generate(GenerateOptions
        .of(Input.of(PROJECT), out, RUNTIME)));
    assertTrue(several.getMessage().contains("2 combinations given: branch=0; branch=1"), several.getMessage());
    assertFalse(Files.exists(out), "nothing written");
    Path report = dir.resolve("report");
    PlanResult result = new Pipeline().plan(new PlanOptions(Input.of(PROJECT), new PlatformOptions(null, 1), null,
        null, List.of(), "generic", report));
    assertTrue(result.reportFiles().contains(report.resolve("variant-2/plan.md")), result.reportFiles().toString());
    String table = Files.readString(report.resolve("plan.md"));
    assertTrue(table.contains("| [2](variant-2/plan.md) | branch=1 | 7 |"), table);
    assertTrue(Files.readString(report.resolve("plan.json")).contains("\"branch\": \"1\""));
  }

  /**
   * A program generated for one value runs the configuration actor and prints the frames that value gives (a Java
   * model of the actors computes them); when the actor sets another value it stops with a message naming the actor,
   * the parameter, the value and the iteration (actors on the other cores, which do not wait for the configuration
   * actor, run with the planned value until then). Also under ASan+UBSan with {@code -Dcacheflow.e2e=full}.
   */
  @Test
  void aProgramForOneValueRunsItsFramesAndStopsAtAnotherValue() throws Exception {
    Assumptions.assumeTrue(available("cmake") && available("ninja") && available("cc"),
        "cmake, ninja or cc missing: generated program not built");
    Assumptions.assumeFalse("none".equals(System.getProperty("cacheflow.e2e")), "end-to-end tests disabled");
    for (String sanitize : FULL ? List.of("", "address,undefined") : List.of("")) {
      for (int branch : FULL ? List.of(0, 1) : List.of(1)) {
        Path out = dir.resolve("branch" + branch + sanitize.replace(',', '-'));
        new Pipeline().generate(GenerateOptions.of(new Input(PROJECT, null, Map.of("branch",
            Integer.toString(branch))), out, RUNTIME).withPlatform(new PlatformOptions(null, 2)));
        run(out, 300, List.of(), "cmake", "-S", out.toString(), "-B", out.resolve("build").toString(), "-G", "Ninja",
            "-DCACHEFLOW_WERROR=ON", "-DCACHEFLOW_BUNDLED_RUNTIME=ON", "-DCACHEFLOW_SANITIZE=" + sanitize);
        run(out, 600, List.of(), "cmake", "--build", out.resolve("build").toString());
        String program = out.resolve("build/dynswitch").toString();
        Result planned = run(out, 60, List.of("DYNSWITCH_BRANCHES=" + branch), program, "--iterations", "4");
        assertEquals(0, planned.status(), planned.text());
        List<String> frames = new ArrayList<>();
        for (int frame = 0; frame < 4; frame++) {
          frames.add("frame " + frame + ": " + expectedHash(frame, branch));
        }
        assertEquals(frames, planned.text().lines().filter(l -> l.startsWith("frame ")).toList(), sanitize);
        Result other = run(out, 60, List.of("DYNSWITCH_BRANCHES=" + branch + "," + branch + "," + (1 - branch)),
            program, "--iterations", "4");
        assertEquals(1, other.status(), other.text());
        assertTrue(other.text().contains("error: iteration 2: configuration actor Cfg set dynamic parameter 'branch' "
            + "to " + (1 - branch) + ", which this program was not generated for (planned: " + branch + ")"),
            other.text());
        // the other cores' actors run with the planned value until the program stops: every frame printed is its
        for (String line : other.text().lines().filter(l -> l.startsWith("frame ")).toList()) {
          assertTrue(frames.contains(line), line + "\n" + other.text());
        }
      }
    }
  }

  /** The FNV-1a hash the sink prints for a frame: the source's frame through the branch's actor (dynswitch.c). */
  private static String expectedHash(int frame, int branch) {
    int[] in = new int[SIZE];
    for (int i = 0; i < SIZE; i++) {
      in[i] = (i * 31 + frame * 7) & 0xff;
    }
    int hash = 0x811c9dc5;
    for (int i = 0; i < SIZE; i++) {
      int value = branch == 0 ? 255 - in[i] : in[(i + 1) % SIZE] ^ 0x5a;
      hash = (hash ^ value) * 16777619;
    }
    return String.format(Locale.ROOT, "%08x", hash);
  }

  private static long bytes(MemoryPlan plan, String source) {
    return plan.fifos().stream().filter(f -> f.source().equals(source)).mapToLong(FifoPlan::bytes).sum();
  }

  private record Result(int status, String text) {
  }

  private static Result run(Path dir, int seconds, List<String> environment, String... command) throws Exception {
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
