package org.cacheflow.io.sdf3;

import org.cacheflow.io.fuzz.FuzzedFile;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of {@link Sdf3Reader}: any bytes as graph.xml give a model or a located error. Seeds and
 * regression inputs: {@code fuzz-inputs/org/cacheflow/io/sdf3/Sdf3ReaderFuzzTestInputs/fuzz/}; docs/reliability.md.
 */
class Sdf3ReaderFuzzTest {

  private static final FuzzedFile FILE = new FuzzedFile("graph.xml",
      file -> Sdf3Reader.read(file, new Diagnostics()));

  @FuzzTest
  void fuzz(byte[] input) {
    FILE.read(input);
  }

  @Test
  void theSeedsAreValidFiles() {
    FILE.assertSeedsRead(Sdf3ReaderFuzzTest.class);
  }

  @AfterAll
  static void summary() {
    System.out.println(FILE.summary("Sdf3ReaderFuzzTest"));
  }
}
