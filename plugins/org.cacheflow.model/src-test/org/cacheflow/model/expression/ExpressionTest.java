package org.cacheflow.model.expression;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.junit.jupiter.api.Test;

class ExpressionTest {

  /** The expression's first character is at column 10 of line 4. */
  private static final SourceLocation AT = new SourceLocation("g.pi", 4, 10);

  private static long eval(String text, Map<String, Long> values) {
    return Expression.parse(text, AT).evaluate(values);
  }

  private static long eval(String text) {
    return eval(text, Map.of());
  }

  @Test
  void evaluatesCorpusStyleRates() {
    Map<String, Long> values = Map.of("nbSlice", 4L, "width", 10L, "height", 16L, "overlap", 1L);
    assertEquals(4 * 10 * (16 / 4 + 2), eval("nbSlice*width*(height/nbSlice+2)", values));
    assertEquals(16 / 4 + 2 * 1, eval("height/nbSlice+2*overlap", values));
    assertEquals(1920, eval("1920.0"));
    assertEquals(3, eval("sqrt(size)", Map.of("size", 9L)));
    assertEquals(6, eval("floor(height/blockHeight)*floor(width/blockWidth)",
        Map.of("height", 10L, "blockHeight", 4L, "width", 7L, "blockWidth", 2L)));
  }

  @Test
  void variablesAreListedInOrderOfFirstUseWithoutFunctionNames() {
    Expression expression = Expression.parse("floor(h/b)*w + h - max(w, 2)", AT);
    assertEquals(List.of("h", "b", "w"), List.copyOf(expression.variables()));
    assertEquals(Set.of(), Expression.parse("2*3", AT).variables());
    assertEquals("floor(h/b)*w + h - max(w, 2)", expression.text());
  }

  @Test
  void precedenceAndAssociativityFollowJep() {
    assertEquals(7, eval("1+2*3"));
    assertEquals(-4, eval("-2^2"), "^ binds tighter than unary minus");
    assertEquals(512, eval("2^3^2"), "^ is right-associative");
    assertEquals(1, eval("8/2/4"), "/ is left-associative");
    assertEquals(2, eval("7-3-2"));
    assertEquals(1, eval("2^-1*2"), "a unary minus may follow ^");
    assertEquals(-6, eval("-2*3"));
    assertEquals(1, eval("1+1 == 2 && 3 > 2"));
    assertEquals(0, eval("!(1 < 2) || 0"));
    assertEquals(1, eval("-7 % 3 == -1"), "% keeps the dividend's sign, like Java and JEP");
  }

  @Test
  void computesInDoublesAndRoundsOnlyTheResultLikePreesm() {
    assertEquals(7, eval("7/2*2"), "real division, not integer division");
    assertEquals(3, eval("10/4"), "2.5 rounds half up");
    assertEquals(-2, eval("-5/2"), "-2.5 rounds half up too, as Math.round does");
    assertEquals(2, eval("h/n", Map.of("h", 10L, "n", 6L)));
    assertEquals(2.5, Expression.parse("10/4", AT).evaluateDouble(Map.of()));
    assertEquals(2, Expression.parse("10/5", AT).evaluateExact(Map.of()));
  }

  @Test
  void knowsJepAndPreesmFunctionsAndConstants() {
    assertEquals(3, eval("ceil(2.1)"));
    assertEquals(2, eval("floor(2.9)"));
    assertEquals(3, eval("round(2.5)"));
    assertEquals(2, eval("min(2, 5)"));
    assertEquals(5, eval("max(2, 5)"));
    assertEquals(4, eval("abs(-4)"));
    assertEquals(1024, eval("pow(2, 10)"));
    assertEquals(3, eval("log(1000)"), "log is base 10 in JEP");
    assertEquals(1, eval("ln(e)"));
    assertEquals(2, eval("mod(17, 5)"));
    assertEquals(3, eval("pi"));
    assertEquals(7, eval("geo_sum(4, 1/2, 2) + 1"), "4 + 2 + 1");
    assertEquals(3, eval("pow_div_max(2, 72)"), "72 = 2^3 * 9");
    assertEquals(10, eval("if(n == 0, 10, 100 / n)", Map.of("n", 0L)), "only the chosen branch is evaluated");
    assertEquals(5, eval("e", Map.of("e", 5L)), "a given value wins over a constant");
  }

  @Test
  void syntaxErrorPointsAtTheOffendingCharacter() {
    InputException error = assertThrows(InputException.class, () -> Expression.parse("a + * b", AT));
    assertEquals(new SourceLocation("g.pi", 4, 14), error.location());
    assertTrue(error.getMessage().contains("unexpected '*'"), error.getMessage());
    assertTrue(error.getMessage().contains("'a + * b'"), error.getMessage());
  }

  @Test
  void syntaxErrorWithoutKnownColumnKeepsTheExpressionLocation() {
    SourceLocation lineOnly = new SourceLocation("g.pi", 4, 0);
    InputException error = assertThrows(InputException.class, () -> Expression.parse("a +", lineOnly));
    assertEquals(lineOnly, error.location());
    assertTrue(error.getMessage().contains("incomplete"), error.getMessage());
  }

  @Test
  void unknownCharacterUnbalancedParenthesisAndEmptyTextAreSyntaxErrors() {
    InputException character = assertThrows(InputException.class, () -> Expression.parse("w $ 2", AT));
    assertEquals(12, character.location().column());
    assertTrue(character.getMessage().contains("unexpected character '$'"), character.getMessage());
    InputException parenthesis = assertThrows(InputException.class, () -> Expression.parse("(w+2", AT));
    assertEquals(14, parenthesis.location().column(), "at the end, where ')' is missing");
    InputException extra = assertThrows(InputException.class, () -> Expression.parse("w 2", AT));
    assertEquals(12, extra.location().column());
    InputException empty = assertThrows(InputException.class, () -> Expression.parse("  ", AT));
    assertEquals("empty expression", empty.getMessage());
  }

  @Test
  void nestingBeyondTheLimitIsAnErrorAtTheFirstTooDeepCharacter() {
    int limit = Expression.MAX_NESTING;
    assertEquals(1, eval("(".repeat(limit) + "1" + ")".repeat(limit)), "the limit itself is fine");
    assertEquals(1, eval("-".repeat(limit - 2) + "(1)"), "so are unary operators within it");
    InputException parentheses = assertThrows(InputException.class,
        () -> Expression.parse("(".repeat(4000) + "1" + ")".repeat(4000), AT));
    assertEquals(new SourceLocation("g.pi", 4, 10 + limit), parentheses.location(), "at the 257th '('");
    assertEquals("expression nested more than 256 levels deep (parentheses and unary operators)",
        parentheses.getMessage());
    InputException unary = assertThrows(InputException.class, () -> Expression.parse("2 " + "- ".repeat(5000) + "1",
        AT));
    assertEquals(new SourceLocation("g.pi", 4, 12 + 2 * limit), unary.location(), "at the 257th '-'");
  }

  @Test
  void unknownFunctionAndWrongArgumentCountAreReportedAtTheCall() {
    InputException unknown = assertThrows(InputException.class, () -> Expression.parse("1 + foo(2)", AT));
    assertEquals(14, unknown.location().column());
    assertTrue(unknown.getMessage().startsWith("unknown function 'foo'"), unknown.getMessage());
    InputException arity = assertThrows(InputException.class, () -> Expression.parse("min(1, 2, 3)", AT));
    assertTrue(arity.getMessage().contains("'min' takes 2 arguments, not 3"), arity.getMessage());
  }

  @Test
  void undefinedVariableIsNamedAtItsColumn() {
    InputException error = assertThrows(InputException.class, () -> eval("w * height", Map.of("w", 2L)));
    assertEquals(new SourceLocation("g.pi", 4, 14), error.location());
    assertEquals("undefined parameter 'height' in expression 'w * height'", error.getMessage());
  }

  @Test
  void divisionAndModuloByZeroNameTheOperation() {
    InputException division = assertThrows(InputException.class,
        () -> eval("1 + height/nbSlice", Map.of("height", 8L, "nbSlice", 0L)));
    assertEquals(20, division.location().column(), "at the '/'");
    assertEquals("division by zero in 'height/nbSlice' (expression '1 + height/nbSlice')", division.getMessage());
    InputException modulo = assertThrows(InputException.class, () -> eval("5 % 0"));
    assertTrue(modulo.getMessage().startsWith("modulo by zero"), modulo.getMessage());
    assertThrows(InputException.class, () -> eval("mod(5, 0)"));
  }

  @Test
  void nonFiniteAndOutOfRangeResultsAreErrors() {
    InputException nan = assertThrows(InputException.class, () -> eval("sqrt(0-1)"));
    assertTrue(nan.getMessage().contains("'sqrt(0-1)' is not a number"), nan.getMessage());
    InputException overflow = assertThrows(InputException.class, () -> eval("10^400"));
    assertTrue(overflow.getMessage().contains("overflows"), overflow.getMessage());
    InputException range = assertThrows(InputException.class, () -> eval("2^63"));
    assertTrue(range.getMessage().contains("out of the range"), range.getMessage());
    assertEquals(Long.MIN_VALUE, eval("-2^63"));
  }

  @Test
  void exactEvaluationRefusesFractions() {
    InputException error = assertThrows(InputException.class,
        () -> Expression.parse("h/n", AT).evaluateExact(Map.of("h", 10L, "n", 4L)));
    assertEquals("expression 'h/n' = 2.5 is not an integer", error.getMessage());
    assertEquals(AT, error.location());
  }

  @Test
  void multiLineExpressionsLocateErrorsOnTheirLine() {
    InputException error = assertThrows(InputException.class, () -> Expression.parse("a +\n  ) b", AT));
    assertEquals(new SourceLocation("g.pi", 5, 3), error.location());
  }
}
