package org.cacheflow.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The analysis of the benchmarks' rounds (bench/home-forwarding/measure.py, which bench/stereo-cores/run.sh also
 * uses): its Python unit tests, bench/home-forwarding/test_measure.py, run here so that {@code ./mvnw verify} runs
 * them. Skipped where no python3 is installed (the benchmarks themselves need it).
 */
class MeasureScriptTest {

  /** The repository, from the bundle directory (tests run with it as working directory). */
  private static final Path ROOT = Path.of("../..");

  @Test
  void theRoundClassificationTestsPass() throws IOException, InterruptedException {
    Path tests = ROOT.resolve("bench/home-forwarding/test_measure.py");
    assertTrue(Files.isRegularFile(tests), tests + " is missing");
    Process process;
    try {
      process = new ProcessBuilder("python3", tests.toAbsolutePath().normalize().toString(), "-v")
          .redirectErrorStream(true).start();
    } catch (IOException noPython) {
      Assumptions.abort("python3 is not installed: " + noPython.getMessage());
      return;
    }
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "python3 did not finish");
    assertEquals(0, process.exitValue(), output);
    assertTrue(output.contains("\nOK"), output);
  }
}
