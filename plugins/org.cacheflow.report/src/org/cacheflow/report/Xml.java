package org.cacheflow.report;

/** Escaping for SVG text and attributes, and DOT strings. */
final class Xml {

  private Xml() {
  }

  static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (char c : text.toCharArray()) {
      switch (c) {
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '&' -> out.append("&amp;");
        case '"' -> out.append("&quot;");
        default -> {
          if (c >= 0x20 || c == '\n' || c == '\t') {
            out.append(c);
          }
        }
      }
    }
    return out.toString();
  }

  static String dot(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
  }

  /** Approximate width of a text in the sans-serif font at a size, for layout. */
  static double textWidth(String text, double fontSize) {
    return text.length() * fontSize * 0.6;
  }
}
