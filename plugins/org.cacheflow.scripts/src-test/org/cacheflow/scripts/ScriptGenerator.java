package org.cacheflow.scripts;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Generates random scripts over the supported subset for property tests: declarations (typed and untyped),
 * assignments, compound assignments, int/long/double arithmetic with casts and Math, comparisons and boolean
 * operators, if/else, for, while, break/continue, blocks, string concatenation, list and buffer calls, and
 * matches. Values are sent to {@code probe.record(...)} so both interpreters' results can be compared. The
 * generator tracks scopes so that names are only used where BeanShell defines them; type errors and divisions
 * by zero may still happen and must then happen on both sides.
 */
final class ScriptGenerator {

  enum T {
    INT, LONG, DOUBLE
  }

  private final Random random;
  private final StringBuilder out = new StringBuilder();
  private final Deque<Map<String, T>> scopes = new ArrayDeque<>();
  /** Names of typed variables: assignments to them must widen. */
  private final Deque<Map<String, Boolean>> typed = new ArrayDeque<>();
  /** Loop counters: never assigned in bodies, so every loop ends. */
  private final Set<String> counters = new HashSet<>();
  private int names;
  private int loopDepth;
  private int depth;

  private ScriptGenerator(long seed) {
    this.random = new Random(seed);
  }

  static String generate(long seed) {
    ScriptGenerator generator = new ScriptGenerator(seed);
    generator.scopes.push(new LinkedHashMap<>(Map.of("n", T.LONG, "m", T.LONG)));
    generator.typed.push(new LinkedHashMap<>());
    int statements = 6 + generator.random.nextInt(12);
    for (int i = 0; i < statements; i++) {
      generator.statement("");
    }
    return generator.out.toString();
  }

  private Map<String, T> visible() {
    Map<String, T> all = new LinkedHashMap<>();
    List<Map<String, T>> list = new ArrayList<>(scopes);
    for (int i = list.size() - 1; i >= 0; i--) {
      all.putAll(list.get(i));
    }
    return all;
  }

  private boolean isTyped(String name) {
    for (Map<String, Boolean> scope : typed) {
      if (scope.containsKey(name)) {
        return scope.get(name);
      }
    }
    return false;
  }

  private String fresh() {
    return "v" + names++;
  }

  private void statement(String indent) {
    int choice = random.nextInt(depth > 2 ? 6 : 11);
    switch (choice) {
      case 0, 1 -> {
        T type = anyType();
        String name = fresh();
        out.append(indent).append(javaType(type)).append(' ').append(name).append(" = ")
            .append(expression(anyType(), 0)).append(";\n");
        scopes.peek().put(name, type);
        typed.peek().put(name, true);
      }
      case 2 -> {
        // untyped: an existing untyped variable keeps its type, a new one lives in the current scope
        List<String> candidates = new ArrayList<>();
        visible().forEach((name, type) -> {
          if (!isTyped(name) && !name.equals("n") && !name.equals("m")) {
            candidates.add(name);
          }
        });
        if (!candidates.isEmpty() && random.nextBoolean()) {
          String name = candidates.get(random.nextInt(candidates.size()));
          T type = visible().get(name);
          String operator = random.nextInt(3) == 0 ? " = " : " " + "+-*".charAt(random.nextInt(3)) + "= ";
          out.append(indent).append(name).append(operator).append(expression(type, 0)).append(";\n");
        } else {
          T type = anyType();
          String name = fresh();
          out.append(indent).append(name).append(" = ").append(expression(type, 0)).append(";\n");
          scopes.peek().put(name, type);
          typed.peek().put(name, false);
        }
      }
      case 3 -> {
        List<String> typedNames = new ArrayList<>();
        visible().forEach((name, type) -> {
          if (isTyped(name) && !counters.contains(name)) {
            typedNames.add(name);
          }
        });
        if (typedNames.isEmpty()) {
          record(indent);
          return;
        }
        String name = typedNames.get(random.nextInt(typedNames.size()));
        T type = visible().get(name);
        T value = narrowerOrEqual(type);
        if (type != T.DOUBLE && random.nextInt(4) == 0) {
          out.append(indent).append(name).append(random.nextBoolean() ? "++" : "--").append(";\n");
        } else {
          String operator = random.nextInt(2) == 0 ? " = " : " " + "+-*".charAt(random.nextInt(3)) + "= ";
          out.append(indent).append(name).append(operator).append(expression(value, 0)).append(";\n");
        }
      }
      case 4 -> match(indent);
      case 5 -> record(indent);
      case 6 -> {
        out.append(indent).append("if (").append(condition(0)).append(") ");
        block(indent);
        if (random.nextBoolean()) {
          out.append(indent).append("else ");
          block(indent);
        }
      }
      case 7 -> {
        String index = fresh();
        counters.add(index);
        out.append(indent).append("for (int ").append(index).append(" = 0; ").append(index).append(" < ")
            .append(1 + random.nextInt(4)).append("; ").append(index).append("++) ");
        scopes.push(new LinkedHashMap<>(Map.of(index, T.INT)));
        typed.push(new LinkedHashMap<>(Map.of(index, true)));
        loopDepth++;
        block(indent);
        loopDepth--;
        scopes.pop();
        typed.pop();
      }
      case 8 -> {
        String counter = fresh();
        counters.add(counter);
        out.append(indent).append("long ").append(counter).append(" = 0;\n");
        scopes.peek().put(counter, T.LONG);
        typed.peek().put(counter, true);
        out.append(indent).append("while (").append(counter).append(" < ").append(1 + random.nextInt(4))
            .append(") {\n");
        out.append(indent).append("  ").append(counter).append("++;\n");
        loopDepth++;
        blockBody(indent + "  ");
        loopDepth--;
        out.append(indent).append("}\n");
      }
      case 9 -> {
        if (loopDepth > 0) {
          out.append(indent).append("if (").append(condition(0)).append(") ").append(random.nextBoolean() ? "break"
              : "continue").append(";\n");
        } else {
          record(indent);
        }
      }
      default -> {
        String element = fresh();
        out.append(indent).append("for (").append(element).append(" : inputs) {\n");
        out.append(indent).append("  probe.record(").append(element).append(".getNbTokens() + ")
            .append(expression(anyType(), 1)).append(");\n");
        out.append(indent).append("}\n");
      }
    }
  }

  private void block(String indent) {
    out.append("{\n");
    blockBody(indent + "  ");
    out.append(indent).append("}\n");
  }

  private void blockBody(String indent) {
    scopes.push(new LinkedHashMap<>());
    typed.push(new LinkedHashMap<>());
    depth++;
    int count = 1 + random.nextInt(3);
    for (int i = 0; i < count; i++) {
      statement(indent);
    }
    depth--;
    scopes.pop();
    typed.pop();
  }

  private void record(String indent) {
    if (random.nextInt(4) == 0) {
      out.append(indent).append("probe.record(\"s\" + ").append(expression(anyType(), 1)).append(" + ':' );\n"
          .replace("':'", "\":\""));
    } else if (random.nextInt(5) == 0) {
      out.append(indent).append("probe.record(").append(condition(0)).append(");\n");
    } else {
      out.append(indent).append("probe.record(").append(expression(anyType(), 0)).append(");\n");
    }
  }

  private void match(String indent) {
    String size = random.nextBoolean() ? "1" : "1 + Math.floorMod(" + expression(T.INT, 2) + ", 4)";
    String method = random.nextInt(3) == 0 ? "byteMatchWith" : "matchWith";
    out.append(indent).append("o_out.").append(method).append("(Math.floorMod(").append(expression(T.LONG, 1))
        .append(", 9), i_in, Math.floorMod(").append(expression(T.INT, 1)).append(", 9), ").append(size)
        .append(");\n");
  }

  private String condition(int level) {
    int choice = random.nextInt(level > 1 ? 1 : 4);
    return switch (choice) {
      case 0 -> expression(anyType(), level + 1) + " " + new String[] { "<", "<=", ">", ">=", "==", "!=" }[random
          .nextInt(6)] + " " + expression(anyType(), level + 1);
      case 1 -> "(" + condition(level + 1) + " && " + condition(level + 1) + ")";
      case 2 -> "(" + condition(level + 1) + " || " + condition(level + 1) + ")";
      default -> "!(" + condition(level + 1) + ")";
    };
  }

  /** An expression whose static type is {@code type}. */
  private String expression(T type, int level) {
    int choice = random.nextInt(level > 3 ? 2 : 9);
    switch (choice) {
      case 0:
        return literal(type);
      case 1: {
        List<String> names = new ArrayList<>();
        visible().forEach((name, t) -> {
          if (t == type) {
            names.add(name);
          }
        });
        return names.isEmpty() ? literal(type) : names.get(random.nextInt(names.size()));
      }
      case 2:
      case 3: {
        // both operands of the result type, or one narrower: promotion
        T left = random.nextBoolean() ? type : narrowerOrEqual(type);
        T right = left == type ? narrowerOrEqual(type) : type;
        String operator = "+-*/%".charAt(random.nextInt(5)) + "";
        return "(" + expression(left, level + 1) + " " + operator + " " + expression(right, level + 1) + ")";
      }
      case 4:
        return "(" + javaType(type) + ") " + expression(anyType(), level + 1);
      case 5:
        return "Math." + (random.nextBoolean() ? "min" : "max") + "(" + expression(type, level + 1) + ", "
            + expression(narrowerOrEqual(type), level + 1) + ")";
      case 6:
        return "Math.abs(" + expression(type, level + 1) + ")";
      case 7:
        return "(" + condition(level + 1) + " ? " + expression(type, level + 1) + " : " + expression(type, level + 1)
            + ")";
      default:
        if (type == T.INT) {
          return random.nextBoolean() ? "inputs.size()" : "inputs.get(" + random.nextInt(2)
              + ").getVertexName().length()";
        }
        if (type == T.LONG) {
          String[] calls = { "i_in.getNbTokens()", "o_out.getTokenSize()", "i_in.getBufferSizeInBit()",
              "o_out.getBufferSizeInByte()", "alignment", "parameters.get(\"n\")" };
          return calls[random.nextInt(calls.length)];
        }
        return "Math.sqrt(" + expression(anyType(), level + 1) + ")";
    }
  }

  private String literal(T type) {
    return switch (type) {
      case INT -> random.nextInt(10) == 0 ? "2147483647" : String.valueOf(random.nextInt(40) - 8);
      case LONG -> (random.nextInt(10) == 0 ? "9223372036854775807" : String.valueOf(random.nextInt(100) - 20)) + "L";
      case DOUBLE -> random.nextInt(40) / 4.0 - 2 + "";
    };
  }

  private T anyType() {
    return T.values()[random.nextInt(3)];
  }

  private T narrowerOrEqual(T type) {
    return T.values()[random.nextInt(type.ordinal() + 1)];
  }

  private static String javaType(T type) {
    return type.name().toLowerCase();
  }
}
