package org.cacheflow.scripts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.cacheflow.model.MemoryAnnotation;
import org.cacheflow.scripts.lang.AstBuilder;
import org.junit.jupiter.api.Test;

/** Every kind of script error names file, line, column and says what is wrong. */
class ScriptErrorTest {

  private static final String FILE = "Code/Scripts/bad.bsh";

  private static ScriptEnvironment environment() {
    return ScriptEnvironment.builder("Split_0").parameter("n", 4)
        .input(new BufferSpec("in", "f1", 16, 1, MemoryAnnotation.NONE))
        .input(new BufferSpec("words", "f3", 4, 4, MemoryAnnotation.NONE))
        .output(new BufferSpec("out", "f2", 16, 1, MemoryAnnotation.NONE)).build();
  }

  private static ScriptException failure(String source) {
    return assertThrows(ScriptException.class, () -> MemoryScript.parse(source, FILE).evaluate(environment(), 100_000));
  }

  private static void assertError(String source, int line, int column, String message) {
    ScriptException error = failure(source);
    assertEquals(FILE + ":" + line + ":" + column, error.location().toString(), error.describe());
    assertEquals(message, error.getMessage());
  }

  @Test
  void syntaxErrorsNameTheOffendingToken() {
    assertError("x = 1;\ny = (2 + ;\n", 2, 10, "syntax error: mismatched input ';' expecting {'(', '{', '++', '--', "
        + "'+', '-', '!', '~', 'new', 'true', 'false', 'null', INTEGER_LITERAL, FLOATING_LITERAL, STRING_LITERAL, "
        + "CHAR_LITERAL, IDENTIFIER}");
    assertError("x = 1 # 2;", 1, 7, "syntax error: unexpected character '#'");
    assertError("o_out.matchWith(0, i_in, 0, 4)\nx = 2;", 2, 1, "syntax error: missing ';' at 'x'");
  }

  @Test
  void constructsOutsideTheSubsetAreNamed() {
    assertError("x = 1;\n  switch (x) { case 1: break; }", 2, 3,
        "a 'switch' statement is outside the memory-script subset");
    assertError("void helper() { }", 1, 1, "the declaration of method 'helper' is outside the memory-script subset");
    assertError("l = new java.util.ArrayList();", 1, 5,
        "creating objects ('new java.util.ArrayList') is outside the memory-script subset");
    assertError("print(\"hello\");", 1, 1, "the call of function 'print' (scripts may call methods of buffers,"
        + " lists, maps and Math only) is outside the memory-script subset");
    assertError("c = 'a';", 1, 5, "the character literal 'a' (use a string) is outside the memory-script subset");
    assertError("x = inputs[0];", 1, 5, "array access 'inputs[0]' is outside the memory-script subset");
    assertError("x = System.out;", 1, 5, "the field access 'System.out' is outside the memory-script subset");
    assertError("Class.forName(\"x\");", 1, 1,
        "undefined variable or class 'Class' (the only class scripts may use is Math)");
  }

  @Test
  void unknownMethodsAndWrongArgumentCounts() {
    assertError("i_in.matchAll(o_out);", 1, 6, "unknown method Buffer.matchAll() (known: bitMatchWith, "
        + "byteMatchWith, getBufferSize, getBufferSizeInBit, getBufferSizeInByte, getNbTokens, getTokenSize, "
        + "getVertexName, markPrivate, markReadMostly, markWriteMostly, matchWith)");
    assertError("\ni_in.matchWith(0, o_out, 0);", 2, 6,
        "Buffer.matchWith() takes 4 arguments (localIndex, remoteBuffer, remoteIndex, size), got 3");
    assertError("n = inputs.size(1);", 1, 12, "List.size() takes 0 arguments, got 1");
    assertError("x = Math.cube(2);", 1, 10, "unknown method 'Math.cube' (supported: abs, addExact, ceil, exp, "
        + "floor, floorDiv, floorMod, log, log10, max, min, multiplyExact, pow, round, signum, sqrt, "
        + "subtractExact, toIntExact)");
    assertError("b = inputs.get(1L);", 1, 12, "List.get() takes an int index, got a long (cast it with (int))");
    assertError("y = undefinedThing + 1;", 1, 5, "undefined variable 'undefinedThing'");
  }

  @Test
  void outOfRangeMatches() {
    assertError("o_out.matchWith(0, i_in, 16, 4);", 1, 7,
        "cannot match Split_0.o_out[0..4) with Split_0.i_in[16..20) (tokens): no real token of Split_0.i_in "
            + "[0..16) is matched");
    assertError("o_out.matchWith(-2, i_in, -2, 4);", 1, 7,
        "cannot match Split_0.o_out[-2..2) with Split_0.i_in[-2..2) (tokens): virtual tokens (outside [0..size))"
            + " would be matched on both sides; sizes are 16 and 16 tokens");
    assertError("o_out.matchWith(0, i_in, 0, 0);", 1, 7,
        "cannot match Split_0.o_out[0..0) with Split_0.i_in[0..0) tokens: the size must be positive");
    assertError("o_out.matchWith(0, i_words, 0, 4);", 1, 7, "cannot match Split_0.o_out with Split_0.i_words: "
        + "token sizes differ (8 bits != 32 bits); use byteMatchWith()");
    assertError("o_out.matchWith(0, n, 0, 4);", 1, 7, "Buffer.matchWith(): argument 2 must be a buffer, got a long");
    assertError("o_out.matchWith(0.5, i_in, 0, 4);", 1, 7,
        "Buffer.matchWith(): argument 1 must be an int or long, got a double");
  }

  @Test
  void contradictoryMarksInOneScript() {
    assertError("i_in.markReadMostly();\no_out.markPrivate();\ni_in.markPrivate();", 3, 6,
        "contradictory marks on FIFO f1: Split_0.i_in.markPrivate() here, but Split_0.i_in.markReadMostly() at "
            + FILE + ":1:6 (read-mostly and private cannot both hold)");
  }

  @Test
  void contradictoryMarksFromBothEndsOfAFifo() {
    ScriptEnvironment producer = ScriptEnvironment.builder("A").output(new BufferSpec("y", "A.y->B.x", 8, 4,
        MemoryAnnotation.NONE)).build();
    ScriptEnvironment consumer = ScriptEnvironment.builder("B").input(new BufferSpec("x", "A.y->B.x", 8, 4,
        MemoryAnnotation.NONE)).build();
    ScriptRun produced = MemoryScript.parse("o_y.markWriteMostly();", "a.bsh").evaluate(producer);
    ScriptRun consumed = MemoryScript.parse("\n  i_x.markReadMostly();", "b.bsh").evaluate(consumer);
    FifoMarks marks = new FifoMarks();
    marks.add(produced.marks().get(0));
    ScriptException error = assertThrows(ScriptException.class, () -> marks.add(consumed.marks().get(0)));
    assertEquals("b.bsh:2:7", error.location().toString());
    assertEquals("contradictory marks on FIFO A.y->B.x: B.i_x.markReadMostly() here, but A.o_y.markWriteMostly() "
        + "at a.bsh:1:5 (write-mostly and read-mostly cannot both hold)", error.getMessage());
  }

  @Test
  void compatibleMarksAreKept() {
    ScriptRun run = MemoryScript.parse("o_out.markPrivate(); o_out.markWriteMostly(); o_out.markPrivate();", FILE)
        .evaluate(environment());
    FifoMarks marks = new FifoMarks();
    run.marks().forEach(marks::add);
    assertEquals("[PRIVATE, WRITE_MOSTLY]", marks.marksOf("f2").toString());
  }

  @Test
  void stepBudgetExhaustion() {
    assertError("i = 0;\nwhile (true) {\n  i++;\n}", 2, 8,
        "step budget of 100000 exhausted: the script does not terminate (endless loop?)");
  }

  @Test
  void divisionByZero() {
    assertError("x = n - 4;\ny = 10 / x;", 2, 8, "division by zero");
    assertError("y = n % 0;", 1, 7, "division by zero");
    assertError("y = Math.floorMod(n, 0);", 1, 10, "division by zero");
  }

  @Test
  void throwBecomesAUserFacingError() {
    assertError("if (n > 2) {\n  throw new Exception(\"n too large: \" + n);\n}", 2, 3, "script error: n too large: 4");
  }

  @Test
  void typeErrorsAreExplained() {
    assertError("int t = 10;\nt -= n;", 2, 3, "cannot assign a long to int variable 't'");
    assertError("if (n) { }", 1, 5, "a condition must be a boolean, got a long");
    assertError("b = true & false;", 1, 10, "operator '&' on booleans is not supported; use '&&'");
    assertError("s = \"a\"; t = s == \"a\";", 1, 16, "operator '==' on strings compares references; use equals()");
    assertError("d = 1.5; d++;", 1, 10, "'++' applies to int and long variables, 'd' is a double");
  }

  @Test
  void errorsNeverLeakJavaExceptions() {
    for (String source : new String[] { "x = null; x.getNbTokens();", "for (b : 5) { }", "x = (int) \"s\";",
        "x = -true;", "break;", "x = 99999999999;" }) {
      ScriptException error = failure(source);
      assertTrue(error.location().line() >= 1 && error.location().column() >= 1, source);
    }
  }

  @Test
  void nestingBeyondTheLimitIsAnErrorAtTheFirstTooDeepBracket() {
    int limit = AstBuilder.MAX_NESTING;
    MemoryScript.parse("x = " + "(".repeat(limit) + "1" + ")".repeat(limit) + ";", FILE).evaluate(environment(), 1000);
    assertError("x = 1;\ny = " + "(".repeat(4000) + "1" + ")".repeat(4000) + ";", 2, 5 + limit,
        "nested more than 256 levels deep (brackets and unary operators)");
    assertError("if (n > 0) " + "{ ".repeat(300) + "x = 1;" + " }".repeat(300), 1, 12 + 2 * limit,
        "nested more than 256 levels deep (brackets and unary operators)");
    assertError("x = " + "- ".repeat(5000) + "1;", 1, 5 + 2 * limit,
        "nested more than 256 levels deep (brackets and unary operators)");
  }
}
