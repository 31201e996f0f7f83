package org.cacheflow.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;

import org.junit.jupiter.api.Test;

/**
 * The analysis of the benchmarks' rounds (bench/home-forwarding/measure.py, which bench/stereo-cores/run.sh also
 * uses): its Python unit tests, bench/home-forwarding/test_measure.py, run here so that {@code ./mvnw verify} runs
 * them. Skipped where no python3 is installed (the benchmarks themselves need it).
 */
class MeasureScriptTest {

  @Test
  void theRoundClassificationTestsPass() throws IOException, InterruptedException {
    String output = RepositoryScript.passes("python3", "bench/home-forwarding/test_measure.py", 60, "-v");
    assertTrue(output.contains("\nOK"), output);
  }
}
