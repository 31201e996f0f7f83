package org.cacheflow.scripts.lang;

import org.cacheflow.scripts.lang.Ast.Position;
import org.cacheflow.scripts.lang.Values.Kind;

/** Binary and unary operators with Java's semantics (as BeanShell evaluates them). */
final class Operators {

  private Operators() {
  }

  static Object binary(Interpreter interpreter, Position at, String operator, Object left, Object right) {
    if (operator.equals("+") && (left instanceof String || right instanceof String)) {
      return Values.text(left) + Values.text(right);
    }
    if (operator.equals("==") || operator.equals("!=")) {
      boolean equal = equality(interpreter, at, operator, left, right);
      return operator.equals("==") == equal;
    }
    Kind leftKind = Values.kind(left);
    Kind rightKind = Values.kind(right);
    if (leftKind == null || rightKind == null) {
      if (left instanceof Boolean && right instanceof Boolean
          && (operator.equals("&") || operator.equals("|") || operator.equals("^"))) {
        // BeanShell 2.0b6 has no non-short-circuit boolean operators ("unimplemented binary operator")
        throw interpreter.error(at, "operator '" + operator + "' on booleans is not supported; use '"
            + (operator.equals("^") ? "!=" : operator + operator) + "'");
      }
      throw interpreter.error(at, "operator '" + operator + "' cannot be applied to a " + Values.typeName(left)
          + " and a " + Values.typeName(right));
    }
    switch (operator) {
      case "<<", ">>", ">>>":
        return shift(interpreter, at, operator, left, leftKind, right, rightKind);
      default:
        break;
    }
    Kind kind = Values.promote(leftKind, rightKind);
    switch (kind) {
      case INT: {
        int a = ((Number) left).intValue();
        int b = ((Number) right).intValue();
        switch (operator) {
          case "+": return a + b;
          case "-": return a - b;
          case "*": return a * b;
          case "/":
            checkDivisor(interpreter, at, b == 0);
            return a / b;
          case "%":
            checkDivisor(interpreter, at, b == 0);
            return a % b;
          case "<": return a < b;
          case "<=": return a <= b;
          case ">": return a > b;
          case ">=": return a >= b;
          case "&": return a & b;
          case "|": return a | b;
          case "^": return a ^ b;
          default: break;
        }
        break;
      }
      case LONG: {
        long a = ((Number) left).longValue();
        long b = ((Number) right).longValue();
        switch (operator) {
          case "+": return a + b;
          case "-": return a - b;
          case "*": return a * b;
          case "/":
            checkDivisor(interpreter, at, b == 0);
            return a / b;
          case "%":
            checkDivisor(interpreter, at, b == 0);
            return a % b;
          case "<": return a < b;
          case "<=": return a <= b;
          case ">": return a > b;
          case ">=": return a >= b;
          case "&": return a & b;
          case "|": return a | b;
          case "^": return a ^ b;
          default: break;
        }
        break;
      }
      case FLOAT: {
        float a = ((Number) left).floatValue();
        float b = ((Number) right).floatValue();
        switch (operator) {
          case "+": return a + b;
          case "-": return a - b;
          case "*": return a * b;
          case "/": return a / b;
          case "%": return a % b;
          case "<": return a < b;
          case "<=": return a <= b;
          case ">": return a > b;
          case ">=": return a >= b;
          default: break;
        }
        break;
      }
      case DOUBLE: {
        double a = ((Number) left).doubleValue();
        double b = ((Number) right).doubleValue();
        switch (operator) {
          case "+": return a + b;
          case "-": return a - b;
          case "*": return a * b;
          case "/": return a / b;
          case "%": return a % b;
          case "<": return a < b;
          case "<=": return a <= b;
          case ">": return a > b;
          case ">=": return a >= b;
          default: break;
        }
        break;
      }
      default:
        break;
    }
    throw interpreter.error(at, "operator '" + operator + "' cannot be applied to a " + Values.typeName(left)
        + " and a " + Values.typeName(right));
  }

  private static void checkDivisor(Interpreter interpreter, Position at, boolean zero) {
    if (zero) {
      throw interpreter.error(at, "division by zero");
    }
  }

  private static Object shift(Interpreter interpreter, Position at, String operator, Object left, Kind leftKind,
      Object right, Kind rightKind) {
    if (leftKind.ordinal() > Kind.LONG.ordinal() || rightKind.ordinal() > Kind.LONG.ordinal()) {
      throw interpreter.error(at, "operator '" + operator + "' needs integers, got a " + Values.typeName(left)
          + " and a " + Values.typeName(right));
    }
    long distance = ((Number) right).longValue();
    if (leftKind == Kind.INT) {
      int value = (Integer) left;
      int d = (int) distance;
      return switch (operator) {
        case "<<" -> value << d;
        case ">>" -> value >> d;
        default -> value >>> d;
      };
    }
    long value = (Long) left;
    int d = (int) distance;
    return switch (operator) {
      case "<<" -> value << d;
      case ">>" -> value >> d;
      default -> value >>> d;
    };
  }

  private static boolean equality(Interpreter interpreter, Position at, String operator, Object left,
      Object right) {
    Kind leftKind = Values.kind(left);
    Kind rightKind = Values.kind(right);
    if (leftKind != null && rightKind != null) {
      Kind kind = Values.promote(leftKind, rightKind);
      return switch (kind) {
        case INT -> ((Number) left).intValue() == ((Number) right).intValue();
        case LONG -> ((Number) left).longValue() == ((Number) right).longValue();
        case FLOAT -> ((Number) left).floatValue() == ((Number) right).floatValue();
        case DOUBLE -> ((Number) left).doubleValue() == ((Number) right).doubleValue();
      };
    }
    if (left instanceof Boolean && right instanceof Boolean) {
      return left.equals(right);
    }
    if (left instanceof String && right instanceof String) {
      // Java compares references here, a trap for script writers: refuse rather than guess
      throw interpreter.error(at, "operator '" + operator + "' on strings compares references; use equals()");
    }
    if (left == null || right == null || (leftKind == null && rightKind == null && !(left instanceof Boolean)
        && !(right instanceof Boolean))) {
      return left == right;
    }
    throw interpreter.error(at, "operator '" + operator + "' cannot compare a " + Values.typeName(left) + " and a "
        + Values.typeName(right));
  }

  static Object unary(Interpreter interpreter, Position at, String operator, Object operand) {
    if (operator.equals("!")) {
      if (operand instanceof Boolean b) {
        return !b;
      }
      throw interpreter.error(at, "operator '!' needs a boolean, got a " + Values.typeName(operand));
    }
    Kind kind = Values.kind(operand);
    if (kind == null || (operator.equals("~") && kind.ordinal() > Kind.LONG.ordinal())) {
      throw interpreter.error(at, "operator '" + operator + "' cannot be applied to a " + Values.typeName(operand));
    }
    if (operator.equals("+")) {
      return operand;
    }
    if (operator.equals("~")) {
      return kind == Kind.INT ? (Object) ~(Integer) operand : (Object) ~(Long) operand;
    }
    return switch (kind) {
      case INT -> -(Integer) operand;
      case LONG -> -(Long) operand;
      case FLOAT -> -(Float) operand;
      case DOUBLE -> -(Double) operand;
    };
  }
}
