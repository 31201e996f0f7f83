package org.cacheflow.io.slam;

import org.cacheflow.io.fuzz.FuzzedFile;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of {@link SlamReader}: any bytes as Archi/fuzz.slam give a model or a located error. Seeds
 * and regression inputs: {@code fuzz-inputs/org/cacheflow/io/slam/SlamReaderFuzzTestInputs/fuzz/};
 * docs/reliability.md.
 */
class SlamReaderFuzzTest {

  private static final FuzzedFile FILE = new FuzzedFile("Archi/fuzz.slam",
      file -> SlamReader.read(file, new Diagnostics()));

  @FuzzTest
  void fuzz(byte[] input) {
    FILE.read(input);
  }

  @Test
  void theSeedsAreValidFiles() {
    FILE.assertSeedsRead(SlamReaderFuzzTest.class);
  }

  @AfterAll
  static void summary() {
    System.out.println(FILE.summary("SlamReaderFuzzTest"));
  }
}
