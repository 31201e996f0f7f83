package org.cacheflow.report;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

import com.google.gson.FormattingStyle;
import com.google.gson.stream.JsonWriter;

/**
 * cacheflow's one JSON output: prints plain Java values ({@code Map} in iteration order — use a LinkedHashMap for
 * a stable order —, {@code List}, {@code String}, {@code Number}, {@code Boolean}, {@code null}) with gson's
 * {@link JsonWriter}, either indented by two spaces ({@link #print}) or on one line ({@link #compact}). Nulls are
 * kept, nothing is HTML-escaped, a whole {@code double} is printed as an integer ({@code 3}, not {@code 3.0}) and a
 * non-finite one as {@code null}. Deterministic, so output can be diffed and golden-tested. Used by the plan report,
 * the command line and the memory-script report.
 *
 * <p>
 * The value tree is handed to the writer here rather than to {@code Gson.toJson}, because gson would print any
 * other object reflectively (a bare {@code Object} as {@code {}}) where a value that is not plain data is a bug to
 * report.
 */
public final class JsonText {

  private JsonText() {
  }

  /** Indented by two spaces, ending with a newline. */
  public static String print(Object value) {
    return write(value, FormattingStyle.PRETTY) + "\n";
  }

  /** On one line, without spaces or a final newline. */
  public static String compact(Object value) {
    return write(value, FormattingStyle.COMPACT);
  }

  private static String write(Object value, FormattingStyle style) {
    StringWriter text = new StringWriter();
    try (JsonWriter out = new JsonWriter(text)) {
      out.setFormattingStyle(style);
      out.setHtmlSafe(false);
      out.setSerializeNulls(true);
      write(value, out);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringWriter does not fail
    }
    return text.toString();
  }

  private static void write(Object value, JsonWriter out) throws IOException {
    if (value == null) {
      out.nullValue();
    } else if (value instanceof String text) {
      out.value(text);
    } else if (value instanceof Double || value instanceof Float) {
      double number = ((Number) value).doubleValue();
      if (!Double.isFinite(number)) {
        out.nullValue();
      } else if (number == Math.rint(number) && Math.abs(number) < 1e15) {
        out.value((long) number);
      } else {
        out.value(number);
      }
    } else if (value instanceof Number number) {
      out.value(number);
    } else if (value instanceof Boolean bool) {
      out.value(bool.booleanValue());
    } else if (value instanceof Map<?, ?> map) {
      out.beginObject();
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        out.name(String.valueOf(entry.getKey()));
        write(entry.getValue(), out);
      }
      out.endObject();
    } else if (value instanceof List<?> list) {
      out.beginArray();
      for (Object element : list) {
        write(element, out);
      }
      out.endArray();
    } else {
      throw new IllegalArgumentException("cannot print " + value.getClass().getName() + " as JSON");
    }
  }
}
