package org.cacheflow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@code cacheflow scripts} on the bundled stereo example, whose scripts mark FIFOs and match in place. */
class ScriptsCommandTest {

  @Test
  void stereoScriptsEvaluateWithMarksAndMatches() {
    InspectCommandTest.Run run = InspectCommandTest.run("scripts", "../../examples/stereo");
    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().contains("graph stereo"), run.out());
    assertTrue(run.out().toLowerCase().contains("read-mostly") || run.out().contains("readMostly"), run.out());
  }

  @Test
  void missingGraphIsBadInput() {
    assertEquals(Main.BAD_INPUT, InspectCommandTest.run("scripts", "no/such.pi").status());
  }
}
