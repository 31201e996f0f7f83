package org.cacheflow.model.expression;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.DoubleBinaryOperator;
import java.util.function.DoubleUnaryOperator;

/**
 * The functions an expression may call: those PREESM makes available to JEP (JEP's standard functions
 * plus PREESM's floor, ceil, min, max, geo_sum and pow_div_max), all computed in doubles as JEP does.
 * {@code log} is base 10 and {@code ln} natural, as in JEP. {@code if(c, a, b)} is evaluated lazily
 * (see {@link Evaluator}), so only the chosen branch can fail.
 */
final class Functions {

  /** A function body over already evaluated arguments; throws {@link ArithmeticException} with a reason. */
  @FunctionalInterface
  interface Body {
    double apply(double[] args);
  }

  /** Name, accepted argument counts and body. */
  record Function(String name, int minArgs, int maxArgs, Body body) {
    boolean accepts(int count) {
      return count >= minArgs && count <= maxArgs;
    }

    String arity() {
      if (minArgs == maxArgs) {
        return minArgs + (minArgs == 1 ? " argument" : " arguments");
      }
      return minArgs + " to " + maxArgs + " arguments";
    }
  }

  private static final Map<String, Function> TABLE = new TreeMap<>();

  static {
    unary("floor", Math::floor);
    unary("ceil", Math::ceil);
    add("round", 1, 2, Functions::round);
    binary("min", Math::min);
    binary("max", Math::max);
    unary("abs", Math::abs);
    unary("sqrt", Math::sqrt);
    binary("pow", Math::pow);
    unary("exp", Math::exp);
    unary("ln", Math::log);
    unary("log", Math::log10);
    add("mod", 2, 2, args -> Evaluator.remainder(args[0], args[1], "mod"));
    // Evaluator handles "if" itself (lazily); the body is only used when called directly.
    add("if", 3, 3, args -> args[0] != 0 ? args[1] : args[2]);
    add("geo_sum", 3, 3, Functions::geometricSum);
    add("pow_div_max", 2, 2, Functions::maxPowerDividing);
    unary("sin", Math::sin);
    unary("cos", Math::cos);
    unary("tan", Math::tan);
    unary("asin", Math::asin);
    unary("acos", Math::acos);
    unary("atan", Math::atan);
    binary("atan2", Math::atan2);
  }

  private Functions() {
  }

  static Function lookup(String name) {
    return TABLE.get(name);
  }

  static Map<String, Function> all() {
    return Collections.unmodifiableMap(TABLE);
  }

  private static void add(String name, int minArgs, int maxArgs, Body body) {
    TABLE.put(name, new Function(name, minArgs, maxArgs, body));
  }

  private static void unary(String name, DoubleUnaryOperator operator) {
    add(name, 1, 1, args -> operator.applyAsDouble(args[0]));
  }

  private static void binary(String name, DoubleBinaryOperator operator) {
    add(name, 2, 2, args -> operator.applyAsDouble(args[0], args[1]));
  }

  /** JEP: round(x) is the closest integer (halves up); round(x, n) keeps n decimals (halves to even). */
  private static double round(double[] args) {
    if (args.length == 1) {
      return Math.round(args[0]);
    }
    double scale = Math.pow(10, (int) args[1]);
    return Math.rint(args[0] * scale) / scale;
  }

  /** PREESM's geo_sum(a, r, n) = a + a*r + ... + a*r^(n-1), n a strictly positive integer. */
  private static double geometricSum(double[] args) {
    double first = args[0];
    double ratio = args[1];
    long terms = (long) args[2];
    if (terms < 1) {
      throw new ArithmeticException("third argument of geo_sum must be a strictly positive integer");
    }
    if (ratio == -1) {
      return terms % 2 == 0 ? 0 : first;
    }
    if (ratio == 1) {
      return first * terms;
    }
    if (ratio == 0) {
      // PREESM returns 0 here (not the first term); keep its answer
      return 0;
    }
    if (ratio > 1 || ratio < -1) {
      return (first - first * Math.pow(ratio, terms)) / (1 - ratio);
    }
    // summed term by term below |r| < 1, as PREESM does, to limit rounding
    double sum = first;
    double term = first * ratio;
    for (long i = terms; i > 1; i--, term *= ratio) {
      sum += term;
    }
    return sum;
  }

  /** PREESM's pow_div_max(x, y): the largest p such that x^p divides y. */
  private static double maxPowerDividing(double[] args) {
    if (args[0] < 2) {
      throw new ArithmeticException("first argument of pow_div_max must be an integer greater than 1");
    }
    long base = (long) args[0];
    long value = (long) args[1];
    if (value == 0) {
      throw new ArithmeticException("second argument of pow_div_max must not be 0");
    }
    long power = 0;
    while (value % base == 0) {
      value /= base;
      power++;
    }
    return power;
  }
}
