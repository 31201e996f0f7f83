package org.cacheflow.model.expression;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;

import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.junit.jupiter.api.Test;

/**
 * Random expression trees, printed with as few parentheses as JEP's precedence rules allow, must parse
 * back to the value the tree has when evaluated directly. A wrong precedence level or associativity in
 * the grammar changes the value of many such texts.
 */
class ExpressionPropertyTest {

  private static final int TREES = 3000;
  private static final SourceLocation AT = new SourceLocation("prop", 1, 1);

  /** Precedence levels, loosest first, as in JEP's grammar. */
  private static final int OR = 1;
  private static final int AND = 2;
  private static final int EQUALITY = 3;
  private static final int RELATIONAL = 4;
  private static final int ADDITIVE = 5;
  private static final int MULTIPLICATIVE = 6;
  private static final int UNARY = 7;
  private static final int POWER = 8;
  private static final int ATOM = 9;

  /** A tree of the test's own, evaluated here independently of the parser. */
  private interface Tree {
    double value(Map<String, Double> values);

    int level();

    String print();
  }

  private record Literal(long value) implements Tree {
    public double value(Map<String, Double> values) {
      return value;
    }

    public int level() {
      return ATOM;
    }

    public String print() {
      return Long.toString(value);
    }
  }

  private record Variable(String name) implements Tree {
    public double value(Map<String, Double> values) {
      return values.get(name);
    }

    public int level() {
      return ATOM;
    }

    public String print() {
      return name;
    }
  }

  private record Negate(Tree operand) implements Tree {
    public double value(Map<String, Double> values) {
      return -operand.value(values);
    }

    public int level() {
      return UNARY;
    }

    public String print() {
      return "-" + wrap(operand, operand.level() < UNARY);
    }
  }

  private record Call(String function, Tree left, Tree right) implements Tree {
    public double value(Map<String, Double> values) {
      double a = left.value(values);
      double b = right == null ? 0 : right.value(values);
      if (Double.isNaN(a) || Double.isNaN(b)) {
        return Double.NaN;
      }
      return switch (function) {
        case "floor" -> Math.floor(a);
        case "ceil" -> Math.ceil(a);
        case "abs" -> Math.abs(a);
        case "min" -> Math.min(a, b);
        case "max" -> Math.max(a, b);
        default -> throw new IllegalArgumentException(function);
      };
    }

    public int level() {
      return ATOM;
    }

    public String print() {
      return function + "(" + left.print() + (right == null ? "" : ", " + right.print()) + ")";
    }
  }

  private record Binary(String op, Tree left, Tree right) implements Tree {
    /** NaN stands for "an error": it spreads, except past the side && and || do not look at. */
    public double value(Map<String, Double> values) {
      double a = left.value(values);
      if (Double.isNaN(a) || (op.equals("&&") && a == 0) || (op.equals("||") && a != 0)) {
        return Double.isNaN(a) ? a : op.equals("&&") ? 0 : 1;
      }
      double b = right.value(values);
      if (Double.isNaN(b)) {
        return b;
      }
      return finiteOrNaN(switch (op) {
        case "+" -> a + b;
        case "-" -> a - b;
        case "*" -> a * b;
        case "/" -> b == 0 ? Double.NaN : a / b;
        case "%" -> b == 0 ? Double.NaN : a % b;
        case "^" -> Math.pow(a, b);
        case "<" -> a < b ? 1 : 0;
        case ">=" -> a >= b ? 1 : 0;
        case "==" -> a == b ? 1 : 0;
        case "!=" -> a != b ? 1 : 0;
        case "&&" -> a != 0 && b != 0 ? 1 : 0;
        case "||" -> a != 0 || b != 0 ? 1 : 0;
        default -> throw new IllegalArgumentException(op);
      });
    }

    public int level() {
      return switch (op) {
        case "||" -> OR;
        case "&&" -> AND;
        case "==", "!=" -> EQUALITY;
        case "<", ">=" -> RELATIONAL;
        case "+", "-" -> ADDITIVE;
        case "*", "/", "%" -> MULTIPLICATIVE;
        default -> POWER;
      };
    }

    public String print() {
      int level = level();
      if (level == POWER) {
        // right-associative; a unary minus may stand right of ^ but not left of it
        return wrap(left, left.level() <= POWER) + op + wrap(right, right.level() < UNARY);
      }
      return wrap(left, left.level() < level) + op + wrap(right, right.level() <= level);
    }
  }

  /** The parser's evaluator stops at the first infinite intermediate result, so the reference does too. */
  private static double finiteOrNaN(double value) {
    return Double.isInfinite(value) ? Double.NaN : value;
  }

  private static String wrap(Tree tree, boolean parenthesise) {
    return parenthesise ? "(" + tree.print() + ")" : tree.print();
  }

  private static final String[] OPERATORS = {"+", "-", "*", "/", "%", "^", "<", ">=", "==", "!=", "&&", "||"};
  private static final String[] FUNCTIONS = {"floor", "ceil", "abs", "min", "max"};

  private static Tree randomTree(Random random, int depth) {
    if (depth == 0 || random.nextInt(5) == 0) {
      return random.nextBoolean() ? new Literal(random.nextInt(10)) : new Variable("v" + random.nextInt(3));
    }
    int choice = random.nextInt(10);
    if (choice == 0) {
      return new Negate(randomTree(random, depth - 1));
    }
    if (choice == 1) {
      String function = FUNCTIONS[random.nextInt(FUNCTIONS.length)];
      boolean twoArguments = function.equals("min") || function.equals("max");
      return new Call(function, randomTree(random, depth - 1), twoArguments ? randomTree(random, depth - 1) : null);
    }
    String op = OPERATORS[random.nextInt(OPERATORS.length)];
    // small exponents keep powers finite
    Tree right = op.equals("^") ? smallExponent(random) : randomTree(random, depth - 1);
    return new Binary(op, randomTree(random, depth - 1), right);
  }

  /** Exponents that keep powers finite, yet exercise -x and x^y on the right of ^. */
  private static Tree smallExponent(Random random) {
    return switch (random.nextInt(3)) {
      case 0 -> new Literal(random.nextInt(4));
      case 1 -> new Negate(new Literal(random.nextInt(3)));
      default -> new Binary("^", new Literal(random.nextInt(3)), new Literal(random.nextInt(3)));
    };
  }

  @Test
  void minimallyParenthesisedRandomTreesParseBackToTheirValue() {
    Random random = new Random(20240601);
    int compared = 0;
    int failures = 0;
    for (int i = 0; i < TREES; i++) {
      Tree tree = randomTree(random, 5);
      Map<String, Double> doubles = new HashMap<>();
      Map<String, Long> longs = new HashMap<>();
      for (int v = 0; v < 3; v++) {
        long value = random.nextInt(9) - 2;
        doubles.put("v" + v, (double) value);
        longs.put("v" + v, value);
      }
      double expected = tree.value(doubles);
      String text = tree.print();
      Expression expression = Expression.parse(text, AT);
      if (Double.isNaN(expected) || Double.isInfinite(expected)) {
        // a division by zero or an overflow somewhere in the tree must be an error, never a value
        assertThrows(InputException.class, () -> expression.evaluateDouble(doubles), text);
        failures++;
        continue;
      }
      assertEquals(expected, expression.evaluateDouble(doubles), Math.abs(expected) * 1e-12, text);
      if (Math.abs(expected) < 0x1p53) {
        assertEquals(Math.round(expected), expression.evaluate(longs), text);
      }
      compared++;
    }
    // the generator must exercise both outcomes, or the property says little
    assertTrue(compared > TREES / 2, "compared " + compared);
    assertTrue(failures > 10, "failures " + failures);
  }

  @Test
  void fullyParenthesisedAndMinimalPrintsAgree() {
    Random random = new Random(7);
    for (int i = 0; i < 500; i++) {
      Tree tree = randomTree(random, 4);
      String minimal = tree.print();
      String full = fullyParenthesised(tree);
      Map<String, Double> values = Map.of("v0", 3.0, "v1", -2.0, "v2", 5.0);
      double expected;
      try {
        expected = Expression.parse(full, AT).evaluateDouble(values);
      } catch (InputException e) {
        assertThrows(InputException.class, () -> Expression.parse(minimal, AT).evaluateDouble(values), minimal);
        continue;
      }
      assertEquals(expected, Expression.parse(minimal, AT).evaluateDouble(values), 1e-9, minimal + " vs " + full);
    }
  }

  private static String fullyParenthesised(Tree tree) {
    if (tree instanceof Binary binary) {
      return "(" + fullyParenthesised(binary.left()) + binary.op() + fullyParenthesised(binary.right()) + ")";
    }
    if (tree instanceof Negate negate) {
      return "(-" + fullyParenthesised(negate.operand()) + ")";
    }
    if (tree instanceof Call call) {
      return call.function() + "(" + fullyParenthesised(call.left())
          + (call.right() == null ? "" : "," + fullyParenthesised(call.right())) + ")";
    }
    return tree.print();
  }
}
