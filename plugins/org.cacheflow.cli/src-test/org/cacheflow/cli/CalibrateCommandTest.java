package org.cacheflow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.cacheflow.cli.Examples.Run;
import org.cacheflow.io.targetfile.TargetFile;
import org.cacheflow.io.targetfile.TargetFileReader;
import org.cacheflow.io.targetfile.TargetSetting;
import org.cacheflow.plan.strategy.TargetCache;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code cacheflow calibrate}: a native run writes a target file {@code plan --target} reads; {@code --emulate} does
 * for each cross target; a board that cannot be reached or cannot run the program is a clear error and no file.
 */
@ExtendWith(RepositoryRuntime.class)
class CalibrateCommandTest {

  /** Keys every calibration on two CPUs or more writes. */
  private static final List<String> KEYS = List.of("name", "measured.on", "measured.at", "l1d", "l2", "llc", "line",
      "page", "cores", "memory.gbs", "ntm.min", "cow.readonly.min", "cow.readmostly.min", "prestore.max",
      "handoff.ns", "transfer.ns");

  @TempDir
  Path dir;

  @Test
  void aNativeRunWritesATargetFileThatPlanReads() {
    assumeTrue(onPath("cmake"), "cmake is not installed");
    Path target = dir.resolve("here.target");
    Run run = Examples.run("calibrate", "--out", target.toString(), "--quick");
    assertEquals(Main.OK, run.status(), run.err());
    Map<String, TargetSetting> settings = complete(target);
    Instant at = Instant.parse(settings.get("measured.at").value());
    assertTrue(Duration.between(at, Instant.now()).abs().toMinutes() < 10, "measured.at " + at);
    TargetCache cache = TargetCache.of(TargetFileReader.read(target));
    assertEquals(Runtime.getRuntime().availableProcessors(), cache.cores());
    assertTrue(cache.l1dBytes() <= cache.l2Bytes() && cache.l2Bytes() <= cache.llcBytes(), cache.describe());
    assertTrue(run.out().contains("wrote " + target), run.out());
    assertTrue(run.err().contains("load average"), run.err());

    Run plan = Examples.run("plan", "../../examples/filter-bank", "--target", target.toString());
    assertEquals(Main.OK, plan.status(), plan.err());
    assertTrue(plan.out().contains("target " + cache.name() + ":"), plan.out());
  }

  @Test
  void aBoardCommandGetsTheProgramOnItsInputAndRunsIt() {
    assumeTrue(onPath("cmake"), "cmake is not installed");
    Path target = dir.resolve("board.target");
    Run run = Examples.run("calibrate", "--out", target.toString(), "--quick", "--run-with", "sh -c");
    assertEquals(Main.OK, run.status(), run.err());
    complete(target);
  }

  @Test
  void aBoardThatCannotBeReachedIsAnErrorAndWritesNothing() throws IOException {
    assumeTrue(onPath("cmake"), "cmake is not installed");
    Path target = dir.resolve("board.target");
    Files.writeString(target, "name = kept\n");
    Run run = Examples.run("calibrate", "--out", target.toString(), "--quick", "--run-with",
        "sh -c 'echo \"ssh: connect to host board port 22: No route to host\" >&2; exit 255'");
    assertEquals(CalibrateCommand.FAILED, run.status(), run.err());
    assertTrue(run.err().contains("the board cannot be reached"), run.err());
    assertTrue(run.err().contains("No route to host"), run.err());
    assertFalse(run.err().contains("Exception"), run.err());
    assertEquals("name = kept\n", Files.readString(target));
  }

  /** Found before anything is built: the board's {@code uname -m} is not one the toolchain's programs run on. */
  @Test
  void aBoardOfAnotherArchitectureIsAnErrorBeforeAnythingIsBuilt() {
    assumeTrue(!System.getProperty("os.arch").equals("aarch64"), "this machine is an aarch64 board");
    Path target = dir.resolve("wrong.target");
    Run run = Examples.run("calibrate", "--out", target.toString(), "--toolchain", "aarch64", "--run-with",
        "sh -c");
    assertEquals(CalibrateCommand.FAILED, run.status(), run.err());
    assertTrue(run.err().contains("built for aarch64 cannot run on it"), run.err());
    assertFalse(Files.exists(target));
  }

  @ParameterizedTest
  @CsvSource({"aarch64, aarch64-linux-gnu, qemu-aarch64", "armhf, arm-linux-gnueabihf, qemu-arm",
      "riscv64, riscv64-linux-gnu, qemu-riscv64"})
  void emulatedCrossTargetsWriteACompleteAcceptedFile(String toolchain, String triple, String qemu) {
    // one emulated calibration in the default run (each takes seconds under qemu); the full run does all three
    assumeTrue(toolchain.equals("aarch64") || System.getProperty("cacheflow.e2e", "default").equals("full"),
        toolchain + " is calibrated under qemu in the full run (-Dcacheflow.e2e=full)");
    assumeTrue(onPath("cmake") && onPath(triple + "-gcc") && onPath(qemu), triple + " cross tools or " + qemu
        + " missing");
    Path target = dir.resolve(toolchain + ".target");
    Run run = Examples.run("calibrate", "--out", target.toString(), "--toolchain", toolchain, "--emulate");
    assertEquals(Main.OK, run.status(), run.err());
    Map<String, TargetSetting> settings = complete(target);
    String machine = Map.of("aarch64", "aarch64", "armhf", "armv7l", "riscv64", "riscv64").get(toolchain);
    assertTrue(settings.get("measured.on").value().endsWith(machine), settings.get("measured.on").value());
    TargetCache.of(TargetFileReader.read(target));
  }

  @Test
  void optionsThatCannotGoTogetherAreUsageErrors() {
    assertEquals(Main.USAGE, Examples.run("calibrate", "--toolchain", "native").status());
    Run emulateNative = Examples.run("calibrate", "--out", dir.resolve("x").toString(), "--emulate");
    assertEquals(Main.USAGE, emulateNative.status());
    assertTrue(emulateNative.err().contains("--toolchain aarch64, armhf or riscv64"), emulateNative.err());
    Run crossHere = Examples.run("calibrate", "--out", dir.resolve("x").toString(), "--toolchain", "armhf");
    assertEquals(Main.USAGE, crossHere.status());
    assertTrue(crossHere.err().contains("--run-with"), crossHere.err());
    Run unknown = Examples.run("calibrate", "--out", dir.resolve("x").toString(), "--toolchain", "mips");
    assertTrue(unknown.err().contains("unknown toolchain 'mips'"), unknown.err());
    assertFalse(Files.exists(dir.resolve("x")));
  }

  /** The file's settings, after checking that every key a calibration writes is there. */
  private static Map<String, TargetSetting> complete(Path target) {
    TargetFile file = TargetFileReader.read(target);
    for (String key : KEYS) {
      assertTrue(file.settings().containsKey(key), key + " missing from " + target);
    }
    return file.settings();
  }

  private static boolean onPath(String program) {
    for (String folder : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (Files.isExecutable(Path.of(folder, program))) {
        return true;
      }
    }
    return false;
  }
}
