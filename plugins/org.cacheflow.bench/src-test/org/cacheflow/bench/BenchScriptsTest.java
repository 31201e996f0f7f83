package org.cacheflow.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;

import org.junit.jupiter.api.Test;

/**
 * The benchmark scripts' command lines (bench/lib.sh's bench_options and bench_help): bench/test_scripts.sh runs every
 * script under bench/ with --help, with an unknown option and with each option of its usage line, without running a
 * benchmark (a few seconds). Skipped where no bash is installed.
 */
class BenchScriptsTest {

  @Test
  void everyScriptPrintsItsHelpAndRefusesAnUnknownOption() throws IOException, InterruptedException {
    String output = RepositoryScript.passes("bash", "bench/test_scripts.sh", 120);
    assertTrue(output.matches("(?s).*\\d+ runs of \\d+ scripts, 0 failed\\s*"), output);
  }
}
