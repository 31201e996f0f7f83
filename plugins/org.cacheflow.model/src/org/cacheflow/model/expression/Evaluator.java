package org.cacheflow.model.expression;

import java.util.function.Function;

/**
 * Evaluates a {@link Node} tree in doubles, as JEP does. Every operation whose result is not a finite
 * number (a division by zero, sqrt of a negative number, an overflow) is an error naming the operation,
 * rather than JEP's silent infinity or NaN.
 */
final class Evaluator {

  private final Expression expression;
  private final Function<String, Double> values;

  /** values answers null for a name it does not know. */
  Evaluator(Expression expression, Function<String, Double> values) {
    this.expression = expression;
    this.values = values;
  }

  double evaluate(Node node) {
    if (node instanceof Node.Literal literal) {
      return literal.value();
    }
    if (node instanceof Node.Variable variable) {
      return variable(variable);
    }
    if (node instanceof Node.Unary unary) {
      double operand = evaluate(unary.operand());
      return switch (unary.op()) {
        case "-" -> -operand;
        case "+" -> operand;
        default -> operand == 0 ? 1 : 0;
      };
    }
    if (node instanceof Node.Binary binary) {
      return binary(binary);
    }
    return call((Node.Call) node);
  }

  private double variable(Node.Variable variable) {
    Double value = values.apply(variable.name());
    if (value != null) {
      return value;
    }
    Double constant = Expression.CONSTANTS.get(variable.name());
    if (constant != null) {
      return constant;
    }
    throw expression.error(variable.start(), "undefined parameter '" + variable.name() + "' in expression '"
        + expression.text() + "'");
  }

  private double binary(Node.Binary binary) {
    // && and || look at their right side only when needed, so "n != 0 && w / n > 2" is safe
    if (binary.op().equals("&&")) {
      return evaluate(binary.left()) != 0 && evaluate(binary.right()) != 0 ? 1 : 0;
    }
    if (binary.op().equals("||")) {
      return evaluate(binary.left()) != 0 || evaluate(binary.right()) != 0 ? 1 : 0;
    }
    double left = evaluate(binary.left());
    double right = evaluate(binary.right());
    double result;
    try {
      result = switch (binary.op()) {
        case "+" -> left + right;
        case "-" -> left - right;
        case "*" -> left * right;
        case "/" -> divide(left, right);
        case "%" -> remainder(left, right, "%");
        case "^" -> Math.pow(left, right);
        case "<" -> truth(left < right);
        case "<=" -> truth(left <= right);
        case ">" -> truth(left > right);
        case ">=" -> truth(left >= right);
        case "==" -> truth(left == right);
        case "!=" -> truth(left != right);
        default -> throw new IllegalStateException("operator " + binary.op() + " missing from the evaluator");
      };
    } catch (ArithmeticException e) {
      throw expression.error(binary.opOffset(), e.getMessage() + " in '" + expression.span(binary)
          + "'" + context(binary));
    }
    return finite(result, binary, binary.opOffset());
  }

  private double call(Node.Call call) {
    if (call.function().name().equals("if")) {
      double condition = evaluate(call.arguments().get(0));
      return evaluate(call.arguments().get(condition != 0 ? 1 : 2));
    }
    double[] arguments = new double[call.arguments().size()];
    for (int i = 0; i < arguments.length; i++) {
      arguments[i] = evaluate(call.arguments().get(i));
    }
    double result;
    try {
      result = call.function().body().apply(arguments);
    } catch (ArithmeticException e) {
      throw expression.error(call.start(), e.getMessage() + " in '" + expression.span(call) + "'"
          + context(call));
    }
    return finite(result, call, call.start());
  }

  private double finite(double result, Node node, int offset) {
    if (Double.isNaN(result)) {
      throw expression.error(offset, "'" + expression.span(node) + "' is not a number" + context(node));
    }
    if (Double.isInfinite(result)) {
      throw expression.error(offset, "'" + expression.span(node) + "' overflows" + context(node));
    }
    return result;
  }

  /** Names the whole expression too when the failing part is only a piece of it. */
  private String context(Node node) {
    return node.start() == 0 && node.end() == expression.text().length() ? ""
        : " (expression '" + expression.text() + "')";
  }

  private static double divide(double left, double right) {
    if (right == 0) {
      throw new ArithmeticException("division by zero");
    }
    return left / right;
  }

  /** JEP's % and mod: Java's floating-point remainder, with the sign of the dividend. */
  static double remainder(double left, double right, String operator) {
    if (right == 0) {
      throw new ArithmeticException("modulo by zero (" + operator + ")");
    }
    return left % right;
  }

  private static double truth(boolean value) {
    return value ? 1 : 0;
  }
}
