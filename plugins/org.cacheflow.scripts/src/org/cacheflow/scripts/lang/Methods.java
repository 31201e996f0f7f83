package org.cacheflow.scripts.lang;

import java.util.List;
import java.util.Map;

import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.scripts.ScriptException;
import org.cacheflow.scripts.lang.Ast.Position;
import org.cacheflow.scripts.lang.Values.Kind;

/**
 * The methods scripts can call: those of their buffers ({@link ScriptObject}), a few of lists, maps, strings
 * and numbers, and pure {@code Math} functions with Java's overload resolution.
 */
final class Methods {

  private Methods() {
  }

  static Object call(Interpreter interpreter, Position at, Object target, String targetText, String method,
      List<Object> arguments) {
    if (target == null) {
      throw interpreter.error(at, "cannot call " + method + "() on " + targetText + ": it is null");
    }
    if (target instanceof ScriptObject object) {
      return object.invoke(method, arguments, site(interpreter, at));
    }
    if (target instanceof List<?> list) {
      switch (method) {
        case "size":
          arity(interpreter, at, "List", method, arguments, 0);
          return list.size();
        case "isEmpty":
          arity(interpreter, at, "List", method, arguments, 0);
          return list.isEmpty();
        case "get":
          arity(interpreter, at, "List", method, arguments, 1);
          if (!(arguments.get(0) instanceof Integer index)) {
            // BeanShell finds no get(long): Java's List.get takes an int
            throw interpreter.error(at, "List.get() takes an int index, got a " + Values.typeName(arguments.get(0))
                + " (cast it with (int))");
          }
          if (index < 0 || index >= list.size()) {
            throw interpreter.error(at, "index " + index + " out of range for a list of " + list.size() + " elements");
          }
          return list.get(index);
        default:
          throw unknown(interpreter, at, "List", method, "get, isEmpty, size");
      }
    }
    if (target instanceof Map<?, ?> map) {
      switch (method) {
        case "size":
          arity(interpreter, at, "Map", method, arguments, 0);
          return map.size();
        case "isEmpty":
          arity(interpreter, at, "Map", method, arguments, 0);
          return map.isEmpty();
        case "get":
          arity(interpreter, at, "Map", method, arguments, 1);
          return map.get(arguments.get(0));
        case "containsKey":
          arity(interpreter, at, "Map", method, arguments, 1);
          return map.containsKey(arguments.get(0));
        default:
          throw unknown(interpreter, at, "Map", method, "containsKey, get, isEmpty, size");
      }
    }
    if (target instanceof String text) {
      switch (method) {
        case "length":
          arity(interpreter, at, "String", method, arguments, 0);
          return text.length();
        case "isEmpty":
          arity(interpreter, at, "String", method, arguments, 0);
          return text.isEmpty();
        case "equals":
          arity(interpreter, at, "String", method, arguments, 1);
          return text.equals(arguments.get(0));
        default:
          throw unknown(interpreter, at, "String", method, "equals, isEmpty, length");
      }
    }
    Kind kind = Values.kind(target);
    if (kind != null) {
      switch (method) {
        case "intValue":
          arity(interpreter, at, Values.typeName(target), method, arguments, 0);
          return ((Number) target).intValue();
        case "longValue":
          arity(interpreter, at, Values.typeName(target), method, arguments, 0);
          return ((Number) target).longValue();
        case "doubleValue":
          arity(interpreter, at, Values.typeName(target), method, arguments, 0);
          return ((Number) target).doubleValue();
        default:
          throw unknown(interpreter, at, Values.typeName(target), method, "doubleValue, intValue, longValue");
      }
    }
    throw interpreter.error(at, "cannot call " + method + "() on a " + Values.typeName(target));
  }

  private static ScriptObject.CallSite site(Interpreter interpreter, Position at) {
    return new ScriptObject.CallSite() {
      @Override
      public ScriptException error(String message) {
        return interpreter.error(at, message);
      }

      @Override
      public SourceLocation location() {
        return interpreter.location(at);
      }
    };
  }

  static void arity(Interpreter interpreter, Position at, String type, String method, List<Object> arguments,
      int expected) {
    if (arguments.size() != expected) {
      throw interpreter.error(at, type + "." + method + "() takes " + expected + " argument"
          + (expected == 1 ? "" : "s") + ", got " + arguments.size());
    }
  }

  private static ScriptException unknown(Interpreter interpreter, Position at, String type, String method,
      String known) {
    return interpreter.error(at, "unknown method " + type + "." + method + "() (known: " + known + ")");
  }

  // ---------------------------------------------------------------- Math

  static Object callStatic(Interpreter interpreter, Position at, String className, String method,
      List<Object> arguments) {
    Kind[] kinds = new Kind[arguments.size()];
    for (int i = 0; i < kinds.length; i++) {
      kinds[i] = Values.kind(arguments.get(i));
      if (kinds[i] == null) {
        throw interpreter.error(at, "Math." + method + "() needs numbers, argument " + (i + 1) + " is a "
            + Values.typeName(arguments.get(i)));
      }
    }
    try {
      switch (method) {
        case "min":
        case "max": {
          arity(interpreter, at, "Math", method, arguments, 2);
          Kind kind = Values.promote(kinds[0], kinds[1]);
          Object a = Values.convert(arguments.get(0), kind);
          Object b = Values.convert(arguments.get(1), kind);
          boolean min = method.equals("min");
          return switch (kind) {
            case INT -> min ? Math.min((Integer) a, (Integer) b) : Math.max((Integer) a, (Integer) b);
            case LONG -> min ? Math.min((Long) a, (Long) b) : Math.max((Long) a, (Long) b);
            case FLOAT -> min ? Math.min((Float) a, (Float) b) : Math.max((Float) a, (Float) b);
            case DOUBLE -> min ? Math.min((Double) a, (Double) b) : Math.max((Double) a, (Double) b);
          };
        }
        case "abs": {
          arity(interpreter, at, "Math", method, arguments, 1);
          Object a = arguments.get(0);
          return switch (kinds[0]) {
            case INT -> Math.abs((Integer) a);
            case LONG -> Math.abs((Long) a);
            case FLOAT -> Math.abs((Float) a);
            case DOUBLE -> Math.abs((Double) a);
          };
        }
        case "floorDiv":
        case "floorMod":
          return floorDivMod(interpreter, at, method, arguments, kinds);
        case "addExact":
        case "subtractExact":
        case "multiplyExact":
          return exact(interpreter, at, method, arguments, kinds);
        case "toIntExact":
          arity(interpreter, at, "Math", method, arguments, 1);
          integral(interpreter, at, method, kinds);
          return Math.toIntExact(((Number) arguments.get(0)).longValue());
        case "round": {
          arity(interpreter, at, "Math", method, arguments, 1);
          // Java picks round(float) for int, long and float arguments
          return kinds[0] == Kind.DOUBLE ? (Object) Math.round((Double) arguments.get(0))
              : (Object) Math.round(((Number) arguments.get(0)).floatValue());
        }
        case "signum": {
          arity(interpreter, at, "Math", method, arguments, 1);
          return kinds[0] == Kind.DOUBLE ? (Object) Math.signum((Double) arguments.get(0))
              : (Object) Math.signum(((Number) arguments.get(0)).floatValue());
        }
        case "pow":
          arity(interpreter, at, "Math", method, arguments, 2);
          return Math.pow(((Number) arguments.get(0)).doubleValue(), ((Number) arguments.get(1)).doubleValue());
        default: {
          arity(interpreter, at, "Math", method, arguments, 1);
          double x = ((Number) arguments.get(0)).doubleValue();
          return switch (method) {
            case "ceil" -> Math.ceil(x);
            case "floor" -> Math.floor(x);
            case "sqrt" -> Math.sqrt(x);
            case "log" -> Math.log(x);
            case "log10" -> Math.log10(x);
            default -> Math.exp(x);
          };
        }
      }
    } catch (ArithmeticException e) {
      throw interpreter.error(at, "Math." + method + "(): " + e.getMessage());
    }
  }

  private static void integral(Interpreter interpreter, Position at, String method, Kind[] kinds) {
    for (Kind kind : kinds) {
      if (kind.ordinal() > Kind.LONG.ordinal()) {
        throw interpreter.error(at, "Math." + method + "() needs int or long arguments");
      }
    }
  }

  private static Object floorDivMod(Interpreter interpreter, Position at, String method, List<Object> arguments,
      Kind[] kinds) {
    arity(interpreter, at, "Math", method, arguments, 2);
    integral(interpreter, at, method, kinds);
    if (((Number) arguments.get(1)).longValue() == 0) {
      throw interpreter.error(at, "division by zero");
    }
    boolean div = method.equals("floorDiv");
    if (kinds[0] == Kind.INT && kinds[1] == Kind.INT) {
      int a = (Integer) arguments.get(0);
      int b = (Integer) arguments.get(1);
      return div ? Math.floorDiv(a, b) : Math.floorMod(a, b);
    }
    long a = ((Number) arguments.get(0)).longValue();
    if (kinds[1] == Kind.INT) {
      // Java's floorMod(long, int) returns an int; floorDiv(long, int) a long
      int b = (Integer) arguments.get(1);
      return div ? (Object) Math.floorDiv(a, b) : (Object) Math.floorMod(a, b);
    }
    long b = (Long) arguments.get(1);
    return div ? Math.floorDiv(a, b) : Math.floorMod(a, b);
  }

  private static Object exact(Interpreter interpreter, Position at, String method, List<Object> arguments,
      Kind[] kinds) {
    arity(interpreter, at, "Math", method, arguments, 2);
    integral(interpreter, at, method, kinds);
    if (kinds[0] == Kind.INT && kinds[1] == Kind.INT) {
      int a = (Integer) arguments.get(0);
      int b = (Integer) arguments.get(1);
      return switch (method) {
        case "addExact" -> Math.addExact(a, b);
        case "subtractExact" -> Math.subtractExact(a, b);
        default -> Math.multiplyExact(a, b);
      };
    }
    long a = ((Number) arguments.get(0)).longValue();
    long b = ((Number) arguments.get(1)).longValue();
    return switch (method) {
      case "addExact" -> Math.addExact(a, b);
      case "subtractExact" -> Math.subtractExact(a, b);
      default -> Math.multiplyExact(a, b);
    };
  }
}
