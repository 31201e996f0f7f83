package org.cacheflow.scripts.lang;

import java.util.List;
import java.util.Map;

import org.cacheflow.scripts.lang.Ast.Type;

/**
 * Java's numeric rules as BeanShell applies them: binary numeric promotion over int, long, float and
 * double, wrapping integer arithmetic, conversions for casts, declarations (narrowing allowed, as BeanShell
 * does) and assignments (widening only).
 */
final class Values {

  /** Numeric kinds ordered by promotion rank. */
  enum Kind {
    INT, LONG, FLOAT, DOUBLE
  }

  private Values() {
  }

  /** The numeric kind of a value, or null when it is not a number. */
  static Kind kind(Object value) {
    if (value instanceof Integer) {
      return Kind.INT;
    }
    if (value instanceof Long) {
      return Kind.LONG;
    }
    if (value instanceof Double) {
      return Kind.DOUBLE;
    }
    if (value instanceof Float) {
      return Kind.FLOAT;
    }
    return null;
  }

  static Kind promote(Kind a, Kind b) {
    return a.ordinal() >= b.ordinal() ? a : b;
  }

  static Object convert(Object number, Kind kind) {
    Number n = (Number) number;
    return switch (kind) {
      case INT -> n.intValue();
      case LONG -> n.longValue();
      case FLOAT -> n.floatValue();
      case DOUBLE -> n.doubleValue();
    };
  }

  static Kind kindOf(Type type) {
    return switch (type.unboxed()) {
      case INT -> Kind.INT;
      case LONG -> Kind.LONG;
      case FLOAT -> Kind.FLOAT;
      case DOUBLE -> Kind.DOUBLE;
      default -> null;
    };
  }

  /** Type name of a value as messages show it: int, long, double, boolean, String, Buffer... */
  static String typeName(Object value) {
    if (value == null) {
      return "null";
    }
    Kind kind = kind(value);
    if (kind != null) {
      return kind.name().toLowerCase();
    }
    if (value instanceof Boolean) {
      return "boolean";
    }
    if (value instanceof String) {
      return "String";
    }
    if (value instanceof ScriptObject object) {
      return object.typeName();
    }
    if (value instanceof List) {
      return "List";
    }
    if (value instanceof Map) {
      return "Map";
    }
    return value.getClass().getSimpleName();
  }

  /** String conversion used by concatenation: Java's String.valueOf. */
  static String text(Object value) {
    return String.valueOf(value);
  }

  static Object defaultValue(Type type) {
    return switch (type) {
      case INT -> 0;
      case LONG -> 0L;
      case FLOAT -> 0.0f;
      case DOUBLE -> 0.0;
      case BOOLEAN -> false;
      default -> null;
    };
  }

  /**
   * Converts a value stored into a typed variable, or returns {@code NOT_ASSIGNABLE}. In a declaration
   * BeanShell casts numbers (narrowing included); in a later assignment only widening is allowed.
   */
  static Object assign(Type type, Object value, boolean declaration) {
    Kind target = kindOf(type);
    if (target != null) {
      Kind source = kind(value);
      if (value == null) {
        return type.primitive ? NOT_ASSIGNABLE : null;
      }
      if (source == null || (!declaration && source.ordinal() > target.ordinal())) {
        return NOT_ASSIGNABLE;
      }
      return convert(value, target);
    }
    if (value == null) {
      return type == Type.BOOLEAN ? NOT_ASSIGNABLE : null;
    }
    boolean fits = switch (type) {
      case BOOLEAN, BOOLEAN_OBJECT -> value instanceof Boolean;
      case STRING -> value instanceof String;
      case BUFFER -> value instanceof ScriptObject;
      case LIST -> value instanceof List;
      case MAP -> value instanceof Map;
      default -> true;
    };
    return fits ? value : NOT_ASSIGNABLE;
  }

  static final Object NOT_ASSIGNABLE = new Object();
}
