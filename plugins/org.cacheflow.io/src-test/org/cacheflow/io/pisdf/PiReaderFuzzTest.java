package org.cacheflow.io.pisdf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.cacheflow.io.fuzz.FuzzedFile;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.model.expression.Expression;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of {@link PiReader} (a PiSDF graph in a project): any bytes as Algo/top.pi give a model or
 * a located error. Seeds and regression inputs:
 * {@code fuzz-inputs/org/cacheflow/io/pisdf/PiReaderFuzzTestInputs/fuzz/}; docs/reliability.md.
 */
class PiReaderFuzzTest {

  private static final FuzzedFile FILE = new FuzzedFile("Algo/top.pi",
      file -> PiReader.read(file, new Diagnostics()));

  static {
    // the sub-graph the hierarchical seed refines an actor with, so that fuzzing reaches the hierarchy
    FILE.provide("Algo/sub.pi", PiReaderFuzzTest.class, "PiReaderFuzzTestInputs/fuzz/seed-subgraph.pi");
  }

  @FuzzTest
  void fuzz(byte[] input) {
    FILE.read(input);
  }

  @Test
  void theSeedsAreValidFiles() {
    FILE.assertSeedsRead(PiReaderFuzzTest.class);
  }

  /** Finding: parentheses nested thousands deep overflowed the expression parser's stack. */
  @Test
  void deeplyNestedParenthesesAreAnErrorAtTheFirstTooDeep() {
    InputException error = FILE.rejection(PiReaderFuzzTest.class, "regression-nested-parentheses.pi");
    assertEquals(SourceLocation.of(FILE.file(), 8, 21 + Expression.MAX_NESTING), error.location());
    assertEquals("expression nested more than 256 levels deep (parentheses and unary operators)", error.getMessage());
  }

  @AfterAll
  static void summary() {
    System.out.println(FILE.summary("PiReaderFuzzTest"));
  }
}
