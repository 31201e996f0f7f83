package org.cacheflow.io.scenario;

import org.cacheflow.io.fuzz.FuzzedFile;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of {@link ScenarioReader}: any bytes as Scenarios/fuzz.scenario give a model or a located
 * error. Seeds and regression inputs:
 * {@code fuzz-inputs/org/cacheflow/io/scenario/ScenarioReaderFuzzTestInputs/fuzz/}; docs/reliability.md.
 */
class ScenarioReaderFuzzTest {

  private static final FuzzedFile FILE = new FuzzedFile("Scenarios/fuzz.scenario",
      file -> ScenarioReader.readFile(file, new Diagnostics()));

  @FuzzTest
  void fuzz(byte[] input) {
    FILE.read(input);
  }

  @Test
  void theSeedsAreValidFiles() {
    FILE.assertSeedsRead(ScenarioReaderFuzzTest.class);
  }

  @AfterAll
  static void summary() {
    System.out.println(FILE.summary("ScenarioReaderFuzzTest"));
  }
}
