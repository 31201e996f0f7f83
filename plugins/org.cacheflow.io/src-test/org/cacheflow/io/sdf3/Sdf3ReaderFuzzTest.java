package org.cacheflow.io.sdf3;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.cacheflow.io.fuzz.FuzzedFile;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
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

  /**
   * Finding: bytes that are not UTF-8 in a file without another declared encoding made the JDK's XML parser print
   * {@code [Fatal Error] :-1:-1: Invalid byte 1 of 1-byte UTF-8 sequence.} on standard error besides the error.
   */
  @Test
  void bytesThatAreNotUtf8AreAnErrorAtTheFirstWithNothingPrinted() {
    PrintStream standardError = System.err;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    InputException error;
    System.setErr(new PrintStream(printed, true, StandardCharsets.UTF_8));
    try {
      error = FILE.rejection(Sdf3ReaderFuzzTest.class, "regression-not-utf8.xml");
    } finally {
      System.setErr(standardError);
    }
    assertEquals(SourceLocation.of(FILE.file(), 5, 14), error.location());
    assertEquals("malformed XML: byte 0xE9 is not UTF-8 (the file's encoding, as it declares no other)",
        error.getMessage());
    assertEquals("", printed.toString(StandardCharsets.UTF_8));
  }

  @AfterAll
  static void summary() {
    System.out.println(FILE.summary("Sdf3ReaderFuzzTest"));
  }
}
