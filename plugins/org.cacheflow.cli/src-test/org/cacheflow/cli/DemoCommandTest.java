package org.cacheflow.cli;

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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
    int status = new DemoCommand(ROOT).run(List.of("--quick", "--no-cachegrind", "--out", work.toString()),
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    String printed = out.toString(StandardCharsets.UTF_8);
    assertEquals(Main.OK, status, printed + err.toString(StandardCharsets.UTF_8));
    assertTrue(printed.contains("outputs: identical (MD5 "), printed);
    for (String strategy : DemoCommand.QUICK_STRATEGIES) {
      assertTrue(printed.lines().anyMatch(line -> line.trim().startsWith(strategy + " ")), strategy + " row in\n"
          + printed);
    }
    // The baseline copies the broadcasts' data; copy-on-write and auto must copy less.
    List<String> csv = Files.readAllLines(work.resolve("demo.csv"));
    assertEquals(1 + DemoCommand.QUICK_STRATEGIES.size(), csv.size(), String.join("\n", csv));
    Map<String, Long> copied = new LinkedHashMap<>();
    for (String line : csv.subList(1, csv.size())) {
      String[] cells = line.split(",");
      copied.put(cells[0], Long.parseLong(cells[5]));
      assertTrue(Double.parseDouble(cells[1]) > 0, line);
    }
    assertTrue(copied.get("cow") < copied.get("baseline"), copied.toString());
    assertTrue(copied.get("auto") < copied.get("baseline"), copied.toString());
    String svg = Files.readString(work.resolve("comparison.svg"));
    assertTrue(svg.startsWith("<svg") && svg.contains(">auto<"), svg);
    // A binary PGM of the 512x384 map: header then one byte per pixel.
    byte[] pgm = Files.readAllBytes(work.resolve("disparity.pgm"));
    String header = new String(pgm, 0, 15, StandardCharsets.US_ASCII);
    assertTrue(header.startsWith("P5"), header);
    assertTrue(pgm.length > 512 * 384, "PGM of " + pgm.length + " bytes");
  }

  @Test
  void differentDigestsFailNamingTheFifoAndStrategies() {
    Map<String, DemoCommand.Result> results = new LinkedHashMap<>();
    DemoCommand.Result baseline = new DemoCommand.Result("baseline");
    baseline.digests = Map.of("Median.slice -> Evaluate.disparity", "0".repeat(32));
    DemoCommand.Result cow = new DemoCommand.Result("cow");
    cow.digests = Map.of("Median.slice -> Evaluate.disparity", "1".repeat(32));
    results.put("baseline", baseline);
    results.put("cow", cow);
    DemoCommand.DemoFailure failure = assertThrows(DemoCommand.DemoFailure.class,
        () -> DemoCommand.checkDigests(results));
    assertTrue(failure.getMessage().contains("Median.slice -> Evaluate.disparity: baseline 000"), failure.getMessage());
    assertTrue(failure.getMessage().contains("cow 111"), failure.getMessage());
    cow.digests = baseline.digests;
    DemoCommand.checkDigests(results);
  }

  @Test
  void parsesTheValidateOutput() {
    DemoCommand.Result result = new DemoCommand.Result("auto");
    String quality = DemoCommand.parseRun("""
        stereo: 0.13% bad pixels (error > 1 px), mean absolute error 0.017 px
        Median.slice -> Evaluate.disparity : 24e7dbdc4bbcc78f48c1c63bfdcdae91
        stats: bytes copied 600, non-temporal 0, cow pages faulted 12, re-shared 0, pre-stores 9 (90 lines), \
        channel waits 0 (sleeps 0)
        time: 1.5 s for 3 iterations
        """, result, Path.of("run.log"));
    assertTrue(quality.startsWith("stereo: 0.13%"), quality);
    assertEquals(600, result.bytesCopied);
    assertEquals(12, result.cowPages);
    assertEquals(9, result.prestores);
    assertEquals(3, result.iterations);
    assertEquals(500.0, result.median(), 1e-9);
    assertEquals("24e7dbdc4bbcc78f48c1c63bfdcdae91", result.digests.get("Median.slice -> Evaluate.disparity"));
    assertThrows(DemoCommand.DemoFailure.class,
        () -> DemoCommand.parseRun("time: 1 s for 1 iterations\n", new DemoCommand.Result("x"), Path.of("l")));
  }

  @Test
  void unknownStrategyIsAUsageError() {
    assertThrows(UsageException.class,
        () -> new DemoCommand(ROOT).run(List.of("--strategies", "baseline,nope"), System.out, System.err));
  }
}
