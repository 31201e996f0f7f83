package org.cacheflow.io.workflow;

import org.cacheflow.io.fuzz.FuzzedFile;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of {@link WorkflowReader}: any bytes as Workflows/fuzz.workflow give a model or a located
 * error. Seeds and regression inputs:
 * {@code fuzz-inputs/org/cacheflow/io/workflow/WorkflowReaderFuzzTestInputs/fuzz/}; docs/reliability.md.
 */
class WorkflowReaderFuzzTest {

  private static final FuzzedFile FILE = new FuzzedFile("Workflows/fuzz.workflow",
      file -> WorkflowReader.read(file, new Diagnostics()));

  @FuzzTest
  void fuzz(byte[] input) {
    FILE.read(input);
  }

  @Test
  void theSeedsAreValidFiles() {
    FILE.assertSeedsRead(WorkflowReaderFuzzTest.class);
  }

  @AfterAll
  static void summary() {
    System.out.println(FILE.summary("WorkflowReaderFuzzTest"));
  }
}
