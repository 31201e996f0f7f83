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
 * The benchmark scripts' command lines (bench/lib.sh's bench_options and bench_help): bench/test_scripts.sh runs every
 * script under bench/ with --help, with an unknown option and with each option of its usage line, without running a
 * benchmark (a few seconds). Skipped where no bash is installed.
 */
class BenchScriptsTest {

  /** The repository, from the bundle directory (tests run with it as working directory). */
  private static final Path ROOT = Path.of("../..");

  @Test
  void everyScriptPrintsItsHelpAndRefusesAnUnknownOption() throws IOException, InterruptedException {
    Path test = ROOT.resolve("bench/test_scripts.sh");
    assertTrue(Files.isRegularFile(test), test + " is missing");
    Process process;
    try {
      process = new ProcessBuilder("bash", test.toAbsolutePath().normalize().toString()).redirectErrorStream(true)
          .start();
    } catch (IOException noBash) {
      Assumptions.abort("bash is not installed: " + noBash.getMessage());
      return;
    }
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(120, TimeUnit.SECONDS), "bench/test_scripts.sh did not finish");
    assertEquals(0, process.exitValue(), output);
    assertTrue(output.matches("(?s).*\\d+ runs of \\d+ scripts, 0 failed\\s*"), output);
  }
}
