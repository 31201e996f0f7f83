package org.cacheflow.io.targetfile;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;

import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * Reads a target file: the cache hierarchy a plan is made for, written either as {@code key = value} lines or as
 * one flat JSON object with the same keys ({@code {"l2": "1M", "cores": 2}}, values strings or numbers):
 *
 * <pre>
 * # comment
 * base = zen4-vm          # start from a built-in profile (default: generic)
 * name = my-board
 * l1d = 32K               # sizes: bytes, or with K/KiB, M/MiB, G/GiB (powers of 1024)
 * l2 = 1M
 * llc = 32M
 * line = 64
 * page = 4K
 * cores = 2
 * cow.readonly.min = 64K  # break-even sizes (see MeasuredCosts)
 * cow.readmostly.min = 256K
 * ntm.min = 1M
 * prestore.max = 4K
 * handoff.ns = 400        # cost of one cross-core hand-off (see MeasuredCosts)
 * transfer.ns = 3         # cost of one cache line of a cross-core buffer, pulled or taken back (see MeasuredCosts)
 * transfer.spanning.ns = 0.5 # the same for a merge group whose slots span the L2 (see MeasuredCosts)
 * timing.ns = 0.4         # nanoseconds per unit of the scenario's actor timings (0: unknown)
 * memory = 4G             # memory a program may use there: generate refuses a larger one
 * </pre>
 *
 * <p>
 * This reader knows the syntax only: a line without {@code =}, a key set twice, or JSON that is not one flat
 * object is an {@link InputException} at its file, line and column. The keys, their values and the defaults are
 * checked and given meaning by the planner ({@code org.cacheflow.plan.strategy.TargetCache.of}; the break-even
 * sizes and costs are its {@code MeasuredCosts}).
 */
public final class TargetFileReader {

  private TargetFileReader() {
  }

  /**
   * Reads {@code file} (UTF-8): one flat JSON object if its first non-blank character is <code>{</code>, else
   * {@code key = value} lines.
   *
   * @throws InputException for a file that cannot be read, or a syntax error or a key set twice (at its line and
   *     column)
   */
  public static TargetFile read(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException | UncheckedIOException e) {
      throw new InputException(SourceLocation.file(file), "cannot read target file: " + e.getMessage());
    }
    Map<String, TargetSetting> settings = text.stripLeading().startsWith("{") ? parseJson(file, text)
        : parseKeyValues(file, text);
    return new TargetFile(file, settings);
  }

  private static Map<String, TargetSetting> parseKeyValues(Path file, String text) {
    Map<String, TargetSetting> settings = new LinkedHashMap<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      int hash = line.indexOf('#');
      String content = hash >= 0 ? line.substring(0, hash) : line;
      if (content.isBlank()) {
        continue;
      }
      int column = 1 + (content.length() - content.stripLeading().length());
      int equals = content.indexOf('=');
      if (equals < 0) {
        throw new InputException(SourceLocation.of(file, i + 1, column),
            "expected 'key = value', got '" + content.trim() + "'");
      }
      String key = content.substring(0, equals).trim();
      String value = content.substring(equals + 1).trim();
      int valueColumn = equals + 2 + (content.substring(equals + 1).length()
          - content.substring(equals + 1).stripLeading().length());
      if (settings.containsKey(key)) {
        throw new InputException(SourceLocation.of(file, i + 1, column), "'" + key + "' is set twice (first at "
            + settings.get(key).location() + ")");
      }
      settings.put(key, new TargetSetting(value, SourceLocation.of(file, i + 1, valueColumn)));
    }
    return settings;
  }

  /** Where gson's reader is: its {@code toString()} says "JsonReader at line L column C path P". */
  private static final Pattern READER_AT = Pattern.compile(" at line (\\d+) column (\\d+)");

  /**
   * One flat JSON object of string or number values, read by gson's {@link JsonReader}, with the location of
   * every value. Lenient, so a bare value such as {@code 32K} is taken as in the {@code key = value} form.
   */
  private static Map<String, TargetSetting> parseJson(Path file, String text) {
    Map<String, TargetSetting> settings = new LinkedHashMap<>();
    JsonReader reader = new JsonReader(new StringReader(text));
    reader.setStrictness(Strictness.LENIENT);
    String expected = "expected '{'";
    SourceLocation expectedAt = null; // where the expected token belongs, when gson's position is not it
    try {
      reader.beginObject();
      while (true) {
        expected = "expected ',' or '}' in the target object";
        if (!reader.hasNext()) {
          break;
        }
        expected = "expected a key in quotes";
        SourceLocation keyAt = location(file, text, reader);
        String key = reader.nextName();
        expected = "expected a value";
        SourceLocation valueAt = valueStart(file, text, keyAt);
        expectedAt = valueAt;
        JsonToken token = reader.peek();
        String value = switch (token) {
          case STRING, NUMBER -> reader.nextString();
          case BOOLEAN -> String.valueOf(reader.nextBoolean());
          case NULL -> {
            reader.nextNull();
            yield "null";
          }
          default -> throw new InputException(valueAt, "expected a string or a number for '" + key + "'");
        };
        if (settings.containsKey(key)) {
          throw new InputException(keyAt, "'" + key + "' is set twice");
        }
        settings.put(key, new TargetSetting(value, valueAt));
        expectedAt = null;
      }
      reader.endObject();
      expected = "unexpected text after the target object";
      if (reader.peek() != JsonToken.END_DOCUMENT) {
        throw new InputException(location(file, text, reader), expected);
      }
    } catch (IOException | IllegalStateException e) {
      throw new InputException(expectedAt != null ? expectedAt : location(file, text, reader), expected, e);
    }
    return settings;
  }

  /**
   * Where the value of the key at {@code keyAt} begins: past the key, the blanks and the ':' (or lenient '=' or
   * '=>'). gson's reader is past a number or at the inside of an object by then, so the text is scanned instead;
   * without a ':' the first character after the key (where one was expected).
   */
  static SourceLocation valueStart(Path file, String text, SourceLocation keyAt) {
    int at = offset(text, keyAt);
    if (at < 0 || at >= text.length()) {
      return keyAt;
    }
    char quote = text.charAt(at);
    if (quote == '"' || quote == '\'') {
      at++;
      while (at < text.length() && text.charAt(at) != quote) {
        at += text.charAt(at) == '\\' ? 2 : 1;
      }
      at++;
    } else {
      while (at < text.length() && ":= \t\r\n".indexOf(text.charAt(at)) < 0) {
        at++;
      }
    }
    at = skipBlanks(text, at);
    if (at < text.length() && (text.charAt(at) == ':' || text.charAt(at) == '=')) {
      at += text.startsWith("=>", at) ? 2 : 1;
      at = skipBlanks(text, at);
    }
    return locationAt(file, text, Math.min(at, text.length()));
  }

  private static int skipBlanks(String text, int at) {
    while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) {
      at++;
    }
    return at;
  }

  /** The offset of a 1-based line and column in the text, or -1. */
  private static int offset(String text, SourceLocation location) {
    int at = 0;
    for (int line = 1; line < location.line(); line++) {
      at = text.indexOf('\n', at);
      if (at < 0) {
        return -1;
      }
      at++;
    }
    return at + location.column() - 1;
  }

  private static SourceLocation locationAt(Path file, String text, int offset) {
    int line = 1;
    int lineStart = 0;
    for (int i = 0; i < offset; i++) {
      if (text.charAt(i) == '\n') {
        line++;
        lineStart = i + 1;
      }
    }
    return SourceLocation.of(file, line, offset - lineStart + 1);
  }

  /** Where the reader is; at a quoted key or value, the opening quote (gson has just read past it). */
  private static SourceLocation location(Path file, String text, JsonReader reader) {
    Matcher at = READER_AT.matcher(reader.toString());
    if (!at.find()) {
      return SourceLocation.file(file);
    }
    SourceLocation here = SourceLocation.of(file, Integer.parseInt(at.group(1)), Integer.parseInt(at.group(2)));
    int before = offset(text, here) - 1;
    boolean afterQuote = here.column() > 1 && before >= 0 && before < text.length()
        && "\"'".indexOf(text.charAt(before)) >= 0;
    return afterQuote ? SourceLocation.of(file, here.line(), here.column() - 1) : here;
  }
}
