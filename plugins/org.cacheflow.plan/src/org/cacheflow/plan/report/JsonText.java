package org.cacheflow.plan.report;

import java.util.List;
import java.util.Map;

/**
 * cacheflow's one JSON writer: prints plain Java values ({@code Map} in iteration order — use a
 * LinkedHashMap for a stable order —, {@code List}, {@code String}, {@code Number}, {@code Boolean},
 * {@code null}) either indented by two spaces ({@link #print}) or on one line ({@link #compact}).
 * Deterministic, so output can be diffed and golden-tested. Used by the plan report, the command line and
 * the memory-script report.
 */
public final class JsonText {

  private JsonText() {
  }

  /** Indented by two spaces, ending with a newline. */
  public static String print(Object value) {
    StringBuilder out = new StringBuilder();
    write(value, out, 0);
    return out.append('\n').toString();
  }

  /** On one line, without spaces or a final newline. */
  public static String compact(Object value) {
    StringBuilder out = new StringBuilder();
    write(value, out, -1);
    return out.toString();
  }

  /** Writes {@code value}; a negative depth means compact. */
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
      if (depth < 0) {
        out.append('{');
        int i = 0;
        for (Map.Entry<?, ?> entry : map.entrySet()) {
          out.append(i++ > 0 ? "," : "");
          quote(String.valueOf(entry.getKey()), out);
          out.append(':');
          write(entry.getValue(), out, depth);
        }
        out.append('}');
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
      if (depth < 0) {
        out.append('[');
        for (int i = 0; i < list.size(); i++) {
          out.append(i > 0 ? "," : "");
          write(list.get(i), out, depth);
        }
        out.append(']');
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
