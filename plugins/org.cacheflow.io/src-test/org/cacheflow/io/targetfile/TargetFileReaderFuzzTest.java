package org.cacheflow.io.targetfile;

import org.cacheflow.io.fuzz.FuzzedFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of {@link TargetFileReader} (key = value lines or JSON): any bytes as fuzz.target give a
 * model or a located error. Seeds and regression inputs:
 * {@code fuzz-inputs/org/cacheflow/io/targetfile/TargetFileReaderFuzzTestInputs/fuzz/}; docs/reliability.md.
 */
class TargetFileReaderFuzzTest {

  private static final FuzzedFile FILE = new FuzzedFile("fuzz.target",
      file -> TargetFileReader.read(file));

  @FuzzTest
  void fuzz(byte[] input) {
    FILE.read(input);
  }

  @Test
  void theSeedsAreValidFiles() {
    FILE.assertSeedsRead(TargetFileReaderFuzzTest.class);
  }

  @AfterAll
  static void summary() {
    System.out.println(FILE.summary("TargetFileReaderFuzzTest"));
  }
}
