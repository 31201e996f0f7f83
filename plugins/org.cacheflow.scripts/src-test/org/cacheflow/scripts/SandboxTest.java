package org.cacheflow.scripts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.cacheflow.model.MemoryAnnotation;
import org.cacheflow.scripts.testing.ScriptRecords;
import org.junit.jupiter.api.Test;

/**
 * The evaluator is closed: the usual ways out of a BeanShell script (reflection, class loading, processes,
 * files, time, randomness, BeanShell's own eval/source) are refused before or when they are reached, with
 * file, line and column; and a run depends on nothing but its script and environment.
 */
class SandboxTest {

  private static final String FILE = "sandbox.bsh";

  private static ScriptEnvironment environment() {
    return ScriptEnvironment.builder("A_0").parameter("n", 4)
        .input(new BufferSpec("in", "f1", 16, 1, MemoryAnnotation.NONE))
        .output(new BufferSpec("out", "f2", 16, 1, MemoryAnnotation.NONE)).build();
  }

  private static void refused(String source, String location, String message) {
    ScriptException error = assertThrows(ScriptException.class,
        () -> MemoryScript.parse(source, FILE).evaluate(environment(), 1000), source);
    assertEquals(FILE + ":" + location, error.location().toString(), source);
    assertEquals(message, error.getMessage(), source);
  }

  @Test
  void reflectionIsUnreachable() {
    refused("i_in.getClass();", "1:6", "unknown method Buffer.getClass() (known: bitMatchWith, byteMatchWith, "
        + "getBufferSize, getBufferSizeInBit, getBufferSizeInByte, getNbTokens, getTokenSize, getVertexName, "
        + "markPrivate, markReadMostly, markWriteMostly, matchWith)");
    refused("c = inputs.getClass();", "1:12", "unknown method List.getClass() (known: get, isEmpty, size)");
    refused("s = \"x\".getClass();", "1:9", "unknown method String.getClass() (known: equals, isEmpty, length)");
    refused("parameters.getClass();", "1:12", "unknown method Map.getClass() (known: containsKey, get, isEmpty, size)");
    refused("n.getClass();", "1:3", "unknown method long.getClass() (known: doubleValue, intValue, longValue)");
    refused("Class c = Integer.class;", "1:19", "syntax error: no viable alternative at input '.class'");
    refused("this.interpreter;", "1:1", "the field access 'this.interpreter' is outside the memory-script subset");
  }

  @Test
  void classesProcessesAndFilesAreUnreachable() {
    refused("java.lang.Runtime.getRuntime();", "1:1",
        "the field access 'java.lang.Runtime' is outside the memory-script subset");
    refused("Runtime.getRuntime().exec(\"ls\");", "1:1",
        "undefined variable or class 'Runtime' (the only class scripts may use is Math)");
    refused("System.exit(1);", "1:1", "undefined variable or class 'System' (the only class scripts may use is Math)");
    refused("import java.io.*;\nf = new File(\"x\");", "2:5",
        "creating objects ('new File') is outside the memory-script subset");
    refused("eval(\"1\");", "1:1", "the call of function 'eval' (scripts may call methods of buffers, lists, maps"
        + " and Math only) is outside the memory-script subset");
    refused("source(\"f.bsh\");", "1:1", "the call of function 'source' (scripts may call methods of buffers, lists,"
        + " maps and Math only) is outside the memory-script subset");
  }

  @Test
  void timeAndRandomnessAreUnreachable() {
    refused("Thread.sleep(10);", "1:1",
        "undefined variable or class 'Thread' (the only class scripts may use is Math)");
    refused("t = System.currentTimeMillis();", "1:5",
        "undefined variable or class 'System' (the only class scripts may use is Math)");
    refused("r = Math.random();", "1:10", "unknown method 'Math.random' (supported: abs, addExact, ceil, exp, floor, "
        + "floorDiv, floorMod, log, log10, max, min, multiplyExact, pow, round, signum, sqrt, subtractExact, "
        + "toIntExact)");
  }

  /** A default script plus a loop of marks, run twice: the same matches, marks and step counts. */
  @Test
  void runsAreDeterministic() {
    String source = DefaultScripts.source(DefaultScripts.Kind.BROADCAST)
        + "\nfor (int k = 0; k < n; k++) { i_in.markReadMostly(); }\n";
    ScriptEnvironment environment = ScriptEnvironment.builder("B_1").parameter("n", 3)
        .input(new BufferSpec("in", "f1", 5, 4, MemoryAnnotation.NONE))
        .output(new BufferSpec("a", "f2", 12, 4, MemoryAnnotation.NONE))
        .output(new BufferSpec("b", "f3", 3, 4, MemoryAnnotation.NONE)).build();
    ScriptRun first = MemoryScript.parse(source, FILE).evaluate(environment);
    ScriptRun second = MemoryScript.parse(source, FILE).evaluate(environment);
    assertEquals(ScriptRecords.matches(first), ScriptRecords.matches(second));
    assertEquals(ScriptRecords.marks(first), ScriptRecords.marks(second));
    assertEquals(first.steps(), second.steps());
    // output a (12 tokens) repeats the 5-token input: 5 + 5 + 2; output b takes its first 3 tokens
    assertEquals(List.of("i_in[0+160]=o_a[0]", "i_in[0+160]=o_a[160]", "i_in[0+64]=o_a[320]",
        "i_in[0+96]=o_b[0]"), ScriptRecords.matches(first));
  }
}
