package org.cacheflow.io.project;

import org.cacheflow.io.fuzz.FuzzedFile;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of a project's {@code .ci.yaml} ({@link PreesmProject#ciRuns}, which parses it with
 * {@link CiConfigParser}): any bytes give runs or a located error. Seeds and regression inputs:
 * {@code fuzz-inputs/org/cacheflow/io/project/CiConfigFuzzTestInputs/fuzz/}; docs/reliability.md.
 */
class CiConfigFuzzTest {

  private static final FuzzedFile FILE = new FuzzedFile(".ci.yaml", file -> {
    Diagnostics diagnostics = new Diagnostics();
    PreesmProject.open(file.getParent(), diagnostics).ciRuns(diagnostics);
  });

  @FuzzTest
  void fuzz(byte[] input) {
    FILE.read(input);
  }

  @Test
  void theSeedsAreValidFiles() {
    FILE.assertSeedsRead(CiConfigFuzzTest.class);
  }

  @AfterAll
  static void summary() {
    System.out.println(FILE.summary("CiConfigFuzzTest"));
  }
}
