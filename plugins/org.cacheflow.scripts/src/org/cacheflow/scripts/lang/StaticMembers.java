package org.cacheflow.scripts.lang;

import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The static members scripts may use: a pure subset of {@code Math} and the integer limits. Overloads follow
 * Java: the int version when every argument is an int, else long, float or double.
 */
final class StaticMembers {

  private static final Map<String, List<String>> METHODS = Map.of("Math",
      List.of("min", "max", "abs", "floorDiv", "floorMod", "ceil", "floor", "round", "sqrt", "pow", "log", "log10",
          "exp", "signum", "toIntExact", "addExact", "multiplyExact", "subtractExact"));

  private static final Map<String, Map<String, Object>> FIELDS = Map.of("Integer",
      Map.of("MAX_VALUE", Integer.MAX_VALUE, "MIN_VALUE", Integer.MIN_VALUE), "Long",
      Map.of("MAX_VALUE", Long.MAX_VALUE, "MIN_VALUE", Long.MIN_VALUE), "Math", Map.of("PI", Math.PI, "E", Math.E));

  private StaticMembers() {
  }

  static boolean isClass(String name) {
    return METHODS.containsKey(name) || name.equals("java.lang.Math");
  }

  static boolean hasMethod(String className, String method) {
    return METHODS.getOrDefault(simple(className), List.of()).contains(method);
  }

  static String methodNames(String className) {
    return String.join(", ", new TreeSet<>(METHODS.getOrDefault(simple(className), List.of())));
  }

  /** The value of a static field, or null when scripts may not use it. */
  static Object field(String className, String field) {
    return FIELDS.getOrDefault(simple(className), Map.of()).get(field);
  }

  private static String simple(String className) {
    return className.substring(className.lastIndexOf('.') + 1);
  }
}
