package org.cacheflow.scripts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.cacheflow.model.MemoryAnnotation;
import org.junit.jupiter.api.Test;

class MatchCheckerTest {

  private static ScriptEnvironment environment() {
    return ScriptEnvironment.builder("A").input(new BufferSpec("a", "fa", 8, 1, MemoryAnnotation.READ_ONLY))
        .input(new BufferSpec("b", "fb", 8, 1, MemoryAnnotation.NONE))
        .output(new BufferSpec("x", "fx", 8, 1, MemoryAnnotation.UNUSED))
        .output(new BufferSpec("y", "fy", 8, 1, MemoryAnnotation.NONE)).build();
  }

  private static ScriptRun run(String source) {
    return MemoryScript.parse(source, "t.bsh").evaluate(environment());
  }

  @Test
  void validResultsPassEveryPolicy() {
    ScriptRun run = run("i_a.matchWith(0, o_x, 0, 8); i_a.matchWith(0, o_y, 0, 8);");
    for (CheckPolicy policy : CheckPolicy.values()) {
      assertEquals(List.of(), MatchChecker.check(run, policy), policy.name());
    }
  }

  @Test
  void siblingMatchesAreRefused() {
    ScriptRun run = run("i_a.matchWith(0, i_b, 0, 4); o_x.matchWith(0, o_y, 4, 4);");
    assertEquals(List.of(), MatchChecker.check(run, CheckPolicy.NONE));
    assertEquals(List.of("one or more matches link an input to another input or an output to another output;"
        + " match only inputs with outputs"), MatchChecker.check(run, CheckPolicy.FAST));
    assertEquals(List.of("match i_a[0..4) <-> i_b[0..4) bytes links an input to another input; match only inputs"
        + " with outputs", "match o_x[0..4) <-> o_y[4..8) bytes links an output to another output; match only "
        + "inputs with outputs"), MatchChecker.check(run, CheckPolicy.THOROUGH));
  }

  @Test
  void outputRangesMatchedTwiceAreRefusedButInputRangesMayBe() {
    ScriptRun twiceOnInput = run("o_x.matchWith(0, i_a, 0, 8); o_y.matchWith(0, i_a, 0, 8);");
    assertEquals(List.of(), MatchChecker.check(twiceOnInput, CheckPolicy.THOROUGH));
    ScriptRun twiceOnOutput = run("o_x.matchWith(0, i_a, 0, 6); o_x.matchWith(4, i_b, 0, 4);");
    assertEquals(List.of("matching a range of an output buffer more than once is not allowed"),
        MatchChecker.check(twiceOnOutput, CheckPolicy.FAST));
    assertEquals(List.of("range [4..6) bytes of output A.o_x is matched more than once"),
        MatchChecker.check(twiceOnOutput, CheckPolicy.THOROUGH));
  }

  @Test
  void matchesAreAlwaysRecordedReciprocally() {
    ScriptRun run = run("o_x.bitMatchWith(3, i_a, 5, 9);");
    assertTrue(MatchChecker.tables(run).get(run.inputs().get(0)).contains(run.matches().get(0).reciprocal()));
  }

  @Test
  void mergeabilityFollowsTheConsumerPortAnnotation() {
    ScriptRun run = run("");
    assertTrue(run.inputs().get(0).spec().mergeable(), "READ_ONLY input");
    assertFalse(run.inputs().get(1).spec().mergeable(), "NONE input");
    assertTrue(run.outputs().get(0).spec().mergeable(), "output whose consumer port is UNUSED");
    assertFalse(run.outputs().get(1).spec().mergeable(), "output whose consumer port is NONE");
  }
}
