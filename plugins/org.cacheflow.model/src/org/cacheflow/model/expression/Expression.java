package org.cacheflow.model.expression;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * A PREESM parameter, rate or delay expression, such as {@code nbSlice*width*(height/nbSlice+2)}.
 *
 * <h2>Syntax</h2> That of JEP 2.4, the evaluator PREESM uses (PREESM's {@code JEPWrapper}): decimal
 * numbers ({@code 3}, {@code 1920.0}, {@code 1e3}); identifiers {@code [A-Za-z_][A-Za-z0-9_]*};
 * {@code + - * / %}; {@code ^} for powers (right-associative and tighter than unary minus, so
 * {@code -2^2 = -4}); unary {@code - + !}; comparisons {@code < <= > >= == !=} and {@code && ||}, which
 * give 1 or 0; parentheses; the constants {@code pi} and {@code e}; and the functions JEP and PREESM
 * register: floor, ceil, round (1 or 2 arguments), min, max, abs, sqrt, pow, exp, ln, log (base 10),
 * mod, if(c, a, b), geo_sum(a, r, n), pow_div_max(x, y), sin, cos, tan, asin, acos, atan, atan2.
 *
 * <h2>Semantics</h2> As in PREESM: every operation is done in doubles ({@code /} is real division, so
 * {@code 7/2*2 = 7}), and only the final result becomes an integer, by {@link Math#round(double)} —
 * the nearest long, halves rounded up ({@code 10/4 = 2.5 -> 3}, {@code -2.5 -> -2}). PREESM's
 * {@code JEPWrapper.parse} does exactly this, and since PREESM stores every parameter as a long, a
 * parameter used in another expression has already been rounded. Where JEP would silently give
 * infinity or NaN (a division by zero, {@code sqrt(-1)}), evaluation fails instead, naming the
 * operation; PREESM also rejects an infinite result. {@link #evaluateExact(Map)} is the stricter variant
 * that refuses a non-integral result. Values are doubles inside, so integers above 2^53 lose precision.
 *
 * <h2>Errors</h2> Every error is an {@link InputException} at the expression's location. When that
 * location has a column (the column of the expression's first character in its file), the column is
 * moved to the offending character: the unexpected token, the undefined variable, the operator that
 * divided by zero.
 */
public final class Expression {

  /**
   * How deep parentheses and runs of unary operators may nest: far beyond any real expression, and shallow
   * enough that parsing and evaluating never overflow the stack.
   */
  public static final int MAX_NESTING = 256;

  /** JEP's standard constants; a value given for the same name takes precedence. */
  static final Map<String, Double> CONSTANTS = Map.of("pi", Math.PI, "e", Math.E);

  private final String text;
  private final SourceLocation location;
  private Node root;
  private Set<String> variables;

  private Expression(String text, SourceLocation location) {
    this.text = text;
    this.location = location;
  }

  /**
   * Parses an expression.
   *
   * @param text the expression as written
   * @param location where the expression's first character is; a column of 0 means unknown
   * @throws InputException for a syntax error, an unknown function or a wrong argument count
   */
  public static Expression parse(String text, SourceLocation location) {
    Expression expression = new Expression(text == null ? "" : text, location);
    expression.build();
    return expression;
  }

  private void build() {
    if (text.isBlank()) {
      throw new InputException(location, "empty expression");
    }
    checkNesting();
    BaseErrorListener failFast = new BaseErrorListener() {
      @Override
      public void syntaxError(Recognizer<?, ?> recognizer, Object offendingSymbol, int line, int charPosition,
          String message, RecognitionException cause) {
        int offset = offsetOf(line, charPosition);
        if (offendingSymbol instanceof Token token) {
          if (token.getType() == Token.EOF) {
            throw error(text.length(), "expression '" + text + "' is incomplete");
          }
          throw error(token.getStartIndex(), "unexpected '" + token.getText() + "' in expression '" + text + "'");
        }
        String character = offset < text.length() ? String.valueOf(text.charAt(offset)) : "";
        throw error(offset, "unexpected character '" + character + "' in expression '" + text + "'");
      }
    };
    ExpressionLexer lexer = new ExpressionLexer(CharStreams.fromString(text));
    lexer.removeErrorListeners();
    lexer.addErrorListener(failFast);
    ExpressionParser parser = new ExpressionParser(new CommonTokenStream(lexer));
    parser.removeErrorListeners();
    parser.addErrorListener(failFast);
    Set<String> names = new LinkedHashSet<>();
    try {
      root = new TreeBuilder(this).visit(parser.formula().expr());
      collectVariables(root, names);
    } catch (StackOverflowError deep) {
      // a long chain of binary operators, nested within the limit yet too deep for this thread's stack
      throw error(0, "expression nested too deeply to read (" + text.length() + " characters)");
    }
    variables = Collections.unmodifiableSet(names);
  }

  /** Refuses parentheses or unary operators nested deeper than {@link #MAX_NESTING}, at the first one too deep. */
  private void checkNesting() {
    int parentheses = 0;
    int unary = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '(') {
        parentheses++;
      } else if (c == ')') {
        parentheses = Math.max(0, parentheses - 1);
      }
      if (c == '-' || c == '+' || c == '!') {
        unary++;
      } else if (!Character.isWhitespace(c)) {
        unary = 0;
      }
      if (parentheses + unary > MAX_NESTING) {
        throw error(i, "expression nested more than " + MAX_NESTING + " levels deep (parentheses and unary operators)");
      }
    }
  }

  private static void collectVariables(Node node, Set<String> names) {
    if (node instanceof Node.Variable variable) {
      names.add(variable.name());
    } else if (node instanceof Node.Unary unary) {
      collectVariables(unary.operand(), names);
    } else if (node instanceof Node.Binary binary) {
      collectVariables(binary.left(), names);
      collectVariables(binary.right(), names);
    } else if (node instanceof Node.Call call) {
      call.arguments().forEach(argument -> collectVariables(argument, names));
    }
  }

  /** The expression as written. */
  public String text() {
    return text;
  }

  /** Where the expression was read from, as given to {@link #parse}. */
  public SourceLocation location() {
    return location;
  }

  /**
   * The names the expression reads, in order of first use. Includes {@code pi} and {@code e} when
   * written: they need no value (see {@link #isConstant(String)}), but a value given for them wins.
   */
  public Set<String> variables() {
    return variables;
  }

  /** Whether a name is one of JEP's standard constants ({@code pi}, {@code e}), usable without a value. */
  public static boolean isConstant(String name) {
    return CONSTANTS.containsKey(name);
  }

  /** The function names expressions may call. */
  public static Set<String> functionNames() {
    return Functions.all().keySet();
  }

  /**
   * Evaluates as PREESM does: in doubles, the result rounded to the nearest long (halves up).
   *
   * @param values a value for every variable (constants excepted)
   * @throws InputException for an undefined variable, a division by zero, a non-finite result or a result
   *     outside the range of a long
   */
  public long evaluate(Map<String, Long> values) {
    return toLong(evaluateNumber(values), false);
  }

  /**
   * Like {@link #evaluate(Map)}, but a result that is not an integer is an error instead of being
   * rounded: for callers that must not silently accept e.g. a fractional token rate.
   */
  public long evaluateExact(Map<String, Long> values) {
    return toLong(evaluateNumber(values), true);
  }

  /** Evaluates in doubles without rounding the result. Same errors as {@link #evaluate(Map)}. */
  public double evaluateDouble(Map<String, Double> values) {
    return new Evaluator(this, values::get).evaluate(root);
  }

  private double evaluateNumber(Map<String, Long> values) {
    return new Evaluator(this, name -> {
      Long value = values.get(name);
      return value == null ? null : value.doubleValue();
    }).evaluate(root);
  }

  private long toLong(double result, boolean exact) {
    // Math.round saturates silently; a value beyond the long range is a user error here
    if (result >= 0x1p63 || result < -0x1p63) {
      throw error(0, "expression '" + text + "' = " + result + " is out of the range of a 64-bit integer");
    }
    if (exact && result != Math.rint(result)) {
      throw error(0, "expression '" + text + "' = " + result + " is not an integer");
    }
    return Math.round(result);
  }

  /** Where a variable is first read in the text, to point at it; 0 when it is not read. */
  int firstUse(String name) {
    int[] found = {-1};
    findFirstUse(root, name, found);
    return Math.max(found[0], 0);
  }

  private static void findFirstUse(Node node, String name, int[] found) {
    if (found[0] >= 0) {
      return;
    }
    if (node instanceof Node.Variable variable && variable.name().equals(name)) {
      found[0] = variable.start();
    } else if (node instanceof Node.Unary unary) {
      findFirstUse(unary.operand(), name, found);
    } else if (node instanceof Node.Binary binary) {
      findFirstUse(binary.left(), name, found);
      findFirstUse(binary.right(), name, found);
    } else if (node instanceof Node.Call call) {
      call.arguments().forEach(argument -> findFirstUse(argument, name, found));
    }
  }

  /** The part of the text a node was read from. */
  String span(Node node) {
    return text.substring(node.start(), node.end());
  }

  /** An error at a character of the text (its column is added to the location's when that is known). */
  InputException error(int offset, String message) {
    return new InputException(locate(offset), message);
  }

  private SourceLocation locate(int offset) {
    if (location == null || location.column() <= 0) {
      return location;
    }
    int line = location.line();
    int column = location.column();
    for (int i = 0; i < offset && i < text.length(); i++) {
      if (text.charAt(i) == '\n') {
        line++;
        column = 1;
      } else {
        column++;
      }
    }
    return new SourceLocation(location.file(), line, column);
  }

  private int offsetOf(int line, int charPosition) {
    int offset = 0;
    for (int current = 1; current < line && offset < text.length(); offset++) {
      if (text.charAt(offset) == '\n') {
        current++;
      }
    }
    return Math.min(offset + charPosition, text.length());
  }

  @Override
  public String toString() {
    return text;
  }
}
