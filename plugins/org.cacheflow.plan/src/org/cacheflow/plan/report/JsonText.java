package org.cacheflow.plan.report;

import java.util.List;
import java.util.Map;

/**
 * Prints JSON from plain Java values ({@code Map} in iteration order, {@code List}, {@code String},
 * {@code Number}, {@code Boolean}, {@code null}), indented by two spaces; deterministic.
 */
public final class JsonText {

  private JsonText() {
  }

  public static String print(Object value) {
    StringBuilder out = new StringBuilder();
    write(value, out, 0);
    return out.append('\n').toString();
  }

  private static void write(Object value, StringBuilder out, int depth) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof String text) {
      quote(text, out);
    } else if (value instanceof Double || value instanceof Float) {
      double number = ((Number) value).doubleValue();
      if (!Double.isFinite(number)) {
        out.append("null");
      } else if (number == Math.rint(number) && Math.abs(number) < 1e15) {
        out.append((long) number);
      } else {
        out.append(number);
      }
    } else if (value instanceof Number || value instanceof Boolean) {
      out.append(value);
    } else if (value instanceof Map<?, ?> map) {
      if (map.isEmpty()) {
        out.append("{}");
        return;
      }
      out.append("{\n");
      int i = 0;
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        out.append("  ".repeat(depth + 1));
        quote(String.valueOf(entry.getKey()), out);
        out.append(": ");
        write(entry.getValue(), out, depth + 1);
        out.append(++i < map.size() ? ",\n" : "\n");
      }
      out.append("  ".repeat(depth)).append('}');
    } else if (value instanceof List<?> list) {
      if (list.isEmpty()) {
        out.append("[]");
        return;
      }
      out.append("[\n");
      for (int i = 0; i < list.size(); i++) {
        out.append("  ".repeat(depth + 1));
        write(list.get(i), out, depth + 1);
        out.append(i + 1 < list.size() ? ",\n" : "\n");
      }
      out.append("  ".repeat(depth)).append(']');
    } else {
      throw new IllegalArgumentException("cannot print " + value.getClass().getName() + " as JSON");
    }
  }

  static void quote(String text, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
