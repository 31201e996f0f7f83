package org.cacheflow.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.cacheflow.cli.Main;
import org.cacheflow.cli.UsageException;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cacheflow demo}: the quick run end to end, and the checks that make it fail. */
class DemoCommandTest {

  /** The repository, from the bundle directory (tests run with it as working directory). */
  private static final Path ROOT = Path.of("../..");

  @TempDir
  Path dir;

  private static boolean onPath(String program) {
    for (String folder : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!folder.isEmpty() && Files.isExecutable(Path.of(folder, program))) {
        return true;
      }
    }
    return false;
  }

  @Test
  void quickDemoBuildsRunsAndAgrees() throws IOException {
    Assumptions.assumeTrue(onPath("cmake") && onPath("ninja") && (onPath("cc") || onPath("gcc")),
        "skipped: the demo needs cmake, ninja and a C compiler");
    Assumptions.assumeTrue(Files.isDirectory(ROOT.resolve("examples/stereo")), "skipped: no examples/stereo");
    Path work = dir.resolve("demo");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    // A quarter of the demo's frame keeps the test quick; the misses of two strategies are simulated on a
    // frame half as wide and high again when valgrind is there (perf has no counters on this project's VMs).
    boolean simulate = onPath("valgrind");
    List<String> args = new ArrayList<>(List.of("--quick", "--param", "width=256", "--param", "height=192", "--out",
        work.toString()));
    args.addAll(simulate ? List.of("--miss-strategies", "baseline,cow", "--miss-scale", "2")
        : List.of("--no-cachegrind"));
    int status = Main.run(new DemoCommand(ROOT), args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    String printed = out.toString(StandardCharsets.UTF_8);
    assertEquals(Main.OK, status, printed + err.toString(StandardCharsets.UTF_8));
    assertTrue(printed.startsWith("stereo matching, 256x192, 32 disparities"), printed);
    assertTrue(printed.contains("outputs: identical (MD5 "), printed);
    for (String strategy : DemoCommand.QUICK_STRATEGIES) {
      assertTrue(printed.lines().anyMatch(line -> line.trim().startsWith(strategy + " ")), strategy + " row in\n"
          + printed);
    }
    // The baseline copies the broadcasts' data; copy-on-write and auto must copy less.
    List<String> csv = Files.readAllLines(work.resolve("demo.csv"));
    assertEquals(1 + DemoCommand.QUICK_STRATEGIES.size(), csv.size(), String.join("\n", csv));
    Map<String, String[]> rows = new LinkedHashMap<>();
    for (String line : csv.subList(1, csv.size())) {
      String[] cells = line.split(",", -1);
      rows.put(cells[0], cells);
      assertTrue(Double.parseDouble(cells[1]) > 0, line);
    }
    assertTrue(Long.parseLong(rows.get("cow")[5]) < Long.parseLong(rows.get("baseline")[5]), String.join("\n", csv));
    assertTrue(Long.parseLong(rows.get("auto")[5]) < Long.parseLong(rows.get("baseline")[5]), String.join("\n", csv));
    // preesm, the reference: its memory scripts' merges copy less than the plain copies; speed-ups against it
    assertTrue(Long.parseLong(rows.get("preesm")[5]) < Long.parseLong(rows.get("baseline")[5]), String.join("\n", csv));
    double preesm = Double.parseDouble(rows.get("preesm")[1]);
    for (String[] row : rows.values()) {
      assertEquals(preesm / Double.parseDouble(row[1]), Double.parseDouble(row[13]), 0.01, String.join(",", row));
    }
    if (simulate) {
      assertTrue(printed.contains("cachegrind") && printed.contains("on a 128x96 frame"), printed);
      // Sharing the broadcasts instead of copying them must save L1D misses, as in the paper.
      assertTrue(Long.parseLong(rows.get("cow")[9]) < Long.parseLong(rows.get("baseline")[9]), String.join("\n", csv));
      assertEquals("", rows.get("channels")[9], "channels is not simulated: " + String.join("\n", csv));
    }
    assertEquals(1 + DemoCommand.QUICK_STRATEGIES.size(), Files.readAllLines(work.resolve("runs.csv")).size());
    String svg = Files.readString(work.resolve("comparison.svg"));
    assertTrue(svg.startsWith("<svg") && svg.contains(">auto<"), svg);
    assertTrue(svg.contains("speed-up against preesm"), svg);
    // A binary PGM of the 256x192 map: header then one byte per pixel.
    byte[] pgm = Files.readAllBytes(work.resolve("disparity.pgm"));
    String header = new String(pgm, 0, 15, StandardCharsets.US_ASCII);
    assertTrue(header.startsWith("P5\n256 192"), header);
    assertTrue(pgm.length > 256 * 192, "PGM of " + pgm.length + " bytes");
  }

  @Test
  void cachesMustHaveAPowerOfTwoSetsAndShrinkBySets() {
    DemoCache l1 = DemoCache.parse("D1=49152,12,64");
    assertEquals("--D1=49152,12,64", l1.option());
    assertEquals("48 KiB 12-way", l1.describe());
    assertEquals("--D1=12288,12,64", l1.shrunk(4).option());
    // This machine's L3 (105 MiB, 15 ways) has 114688 sets: cachegrind cannot simulate it.
    UsageException l3 = assertThrows(UsageException.class, () -> DemoCache.parse("LL=110100480,15,64"));
    assertTrue(l3.getMessage().contains("power-of-two"), l3.getMessage());
    assertThrows(UsageException.class, () -> DemoCache.parse("L2=2097152,16,64"));
    assertThrows(UsageException.class, () -> l1.shrunk(128));
  }

  @Test
  void framesComeFromTheGraphAndTheParamsAndShrinkExactly() throws IOException {
    Path pi = ROOT.resolve("examples/stereo/Algo/stereo.pi");
    Assumptions.assumeTrue(Files.isRegularFile(pi), "skipped: no examples/stereo");
    DemoFrame frame = DemoFrame.of(pi, Map.of());
    assertEquals("512x384", frame.toString());
    assertEquals(32, frame.disparities());
    DemoFrame large = DemoFrame.of(pi, Map.of("width", "1024", "height", "768"));
    assertEquals("256x192", large.reduced(4).toString());
    assertThrows(UsageException.class, () -> frame.reduced(5));
    // 388 rows make 4 slices, but 388 / 2 = 194 rows do not.
    UsageException slices = assertThrows(UsageException.class,
        () -> DemoFrame.of(pi, Map.of("height", "388")).reduced(2));
    assertTrue(slices.getMessage().contains("nbSlices = 4"), slices.getMessage());
    assertThrows(UsageException.class, () -> DemoFrame.of(pi, Map.of("width", "wide")));
  }

  @Test
  void differentDigestsFailNamingTheFifoAndStrategies() {
    Map<String, DemoResult> results = new LinkedHashMap<>();
    DemoResult baseline = new DemoResult("baseline");
    baseline.digests = Map.of("Median.slice -> Evaluate.disparity", "0".repeat(32));
    DemoResult cow = new DemoResult("cow");
    cow.digests = Map.of("Median.slice -> Evaluate.disparity", "1".repeat(32));
    results.put("baseline", baseline);
    results.put("cow", cow);
    DemoFailure failure = assertThrows(DemoFailure.class,
        () -> DemoOutputs.checkDigests(results));
    assertTrue(failure.getMessage().contains("Median.slice -> Evaluate.disparity: baseline 000"), failure.getMessage());
    assertTrue(failure.getMessage().contains("cow 111"), failure.getMessage());
    cow.digests = baseline.digests;
    DemoOutputs.checkDigests(results);
  }

  @Test
  void theUnannotatedCopyDropsReadOnlyAnnotationsAndReadMostlyMarksOnly() throws IOException {
    Path stereo = ROOT.resolve("examples/stereo").toAbsolutePath().normalize();
    Path copy = DemoBuild.unannotatedCopy(stereo, Files.createDirectories(dir.resolve("unannotated")));
    assertEquals("stereo", copy.getFileName().toString(), "the scenarios name the project folder");
    String pi = Files.readString(copy.resolve("Algo/disparity_costs.pi"));
    assertTrue(Files.readString(stereo.resolve("Algo/disparity_costs.pi")).contains("annotation=\"READ_ONLY\""));
    assertTrue(!pi.contains("READ_ONLY") && pi.contains("annotation=\"NONE\""), pi);
    String script = Files.readString(copy.resolve("Code/Scripts/matchingCost.bsh"));
    assertTrue(!script.contains("markReadMostly") && script.contains("markWriteMostly"), script);
    assertEquals(Files.readString(stereo.resolve("Code/src/census.c")), Files.readString(copy.resolve(
        "Code/src/census.c")));
    // a second derivation replaces the first
    DemoBuild.unannotatedCopy(stereo, dir.resolve("unannotated"));
    assertEquals(List.of("cow", "cow"), List.of(DemoCommand.preset("cow-unannotated"), DemoCommand.preset("cow")));
  }

  @Test
  void parsesTheValidateOutput() {
    DemoResult result = new DemoResult("auto");
    String quality = DemoOutputs.parseRun("""
        stereo: 0.13% bad pixels (error > 1 px), mean absolute error 0.017 px
        Median.slice -> Evaluate.disparity : 24e7dbdc4bbcc78f48c1c63bfdcdae91
        stats: bytes copied 600, non-temporal 0, cow pages shared 480, faulted 12, re-shared 11, pre-stores 9 \
        (90 lines), \
        channel waits 0 (sleeps 0)
        time: 1.5 s for 3 iterations
        """, result, Path.of("run.log"));
    assertTrue(quality.startsWith("stereo: 0.13%"), quality);
    assertEquals(600, result.bytesCopied);
    assertEquals(480, result.cowShared);
    assertEquals(12, result.cowPages);
    assertEquals(11, result.cowReshared);
    assertEquals(9, result.prestores);
    assertEquals(3, result.iterations);
    assertEquals(500.0, result.median(), 1e-9);
    assertEquals("24e7dbdc4bbcc78f48c1c63bfdcdae91", result.digests.get("Median.slice -> Evaluate.disparity"));
    assertThrows(DemoFailure.class,
        () -> DemoOutputs.parseRun("time: 1 s for 1 iterations\n", new DemoResult("x"), Path.of("l")));
  }

  @Test
  void unknownStrategyIsAUsageError() {
    assertThrows(UsageException.class, () -> call("--strategies", "baseline,nope"));
    UsageException outside = assertThrows(UsageException.class, () -> call("--strategies", "baseline,cow",
        "--miss-strategies", "ntm"));
    assertTrue(outside.getMessage().contains("'ntm'"), outside.getMessage());
  }

  /** The demo's options parsed as the command line parses them, then the demo called (its exceptions thrown). */
  private static int call(String... args) {
    DemoCommand command = new DemoCommand(ROOT);
    new picocli.CommandLine(command).parseArgs(args);
    command.streams(System.out, System.err);
    return command.call();
  }
}
