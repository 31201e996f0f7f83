package org.cacheflow.io.project;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * Parses the small YAML subset of PREESM applications' {@code .ci.yaml} without a YAML library: a top-level
 * {@code config:} key holding a list whose items are maps with {@code scenario} and {@code workflow} file
 * names, written either in flow style or in block style:
 *
 * <pre>
 * config:
 * - {scenario: 4core.scenario, workflow: Codegen.workflow}
 * - scenario: "1core.scenario"
 *   workflow: Codegen.workflow
 * </pre>
 *
 * {@code #} comments, blank lines, quoted values and {@code config: []} are understood; other top-level keys
 * are skipped with a warning. Anything else is an {@link InputException} at its line.
 */
final class CiConfigParser {

  /** One list item: its keys and values, and where the item starts. */
  record Entry(Map<String, String> values, SourceLocation location) {
  }

  private static final Set<String> KNOWN_KEYS = Set.of("scenario", "workflow");

  private final Path file;
  private final Diagnostics diagnostics;
  private final List<Entry> entries = new ArrayList<>();
  private Map<String, String> openItem;
  private SourceLocation openItemLocation;

  private CiConfigParser(Path file, Diagnostics diagnostics) {
    this.file = file;
    this.diagnostics = diagnostics;
  }

  static List<Entry> parse(Path file, List<String> lines, Diagnostics diagnostics) {
    CiConfigParser parser = new CiConfigParser(file, diagnostics);
    parser.parseLines(lines);
    return parser.entries;
  }

  private void parseLines(List<String> lines) {
    boolean inConfig = false;
    for (int index = 0; index < lines.size(); index++) {
      int lineNumber = index + 1;
      String line = withoutComment(lines.get(index));
      if (line.isBlank()) {
        continue;
      }
      int indent = 0;
      while (indent < line.length() && line.charAt(indent) == ' ') {
        indent++;
      }
      if (line.charAt(indent) == '\t') {
        throw error(lineNumber, indent + 1, "tab in indentation; YAML indents with spaces");
      }
      String content = line.trim();
      if (indent == 0 && !content.startsWith("-")) {
        closeItem();
        String[] pair = keyValue(content, lineNumber, 1);
        inConfig = pair[0].equals("config");
        if (!inConfig) {
          diagnostics.warn(at(lineNumber, 1), "unknown key '" + pair[0] + "' in .ci.yaml ignored");
        } else if (!pair[1].isEmpty() && !pair[1].equals("[]")) {
          throw error(lineNumber, 1, "'config:' must be followed by a list of '- {scenario: ..., workflow: ...}'"
              + " entries");
        }
        continue;
      }
      if (!inConfig) {
        continue;
      }
      if (content.startsWith("-")) {
        closeItem();
        openItem = new LinkedHashMap<>();
        openItemLocation = at(lineNumber, indent + 1);
        String item = content.substring(1).trim();
        int itemColumn = line.indexOf(item.isEmpty() ? "-" : item) + 1;
        if (item.startsWith("{")) {
          readFlowMap(item, lineNumber, itemColumn);
          closeItem();
        } else if (!item.isEmpty()) {
          putPair(item, lineNumber, itemColumn);
        }
      } else {
        if (openItem == null) {
          throw error(lineNumber, indent + 1, "expected a list entry starting with '-' under 'config:'");
        }
        putPair(content, lineNumber, indent + 1);
      }
    }
    closeItem();
  }

  private void readFlowMap(String item, int lineNumber, int column) {
    if (!item.endsWith("}")) {
      throw error(lineNumber, column, "'{' is not closed by '}' on the same line");
    }
    String body = item.substring(1, item.length() - 1).trim();
    if (body.isEmpty()) {
      return;
    }
    for (String pair : splitOutsideQuotes(body)) {
      putPair(pair.trim(), lineNumber, column);
    }
  }

  private void putPair(String text, int lineNumber, int column) {
    String[] pair = keyValue(text, lineNumber, column);
    if (!KNOWN_KEYS.contains(pair[0])) {
      diagnostics.warn(at(lineNumber, column), "unknown key '" + pair[0] + "' in a .ci.yaml entry ignored");
      return;
    }
    if (openItem.put(pair[0], unquote(pair[1])) != null) {
      throw error(lineNumber, column, "key '" + pair[0] + "' appears twice in one entry");
    }
  }

  private void closeItem() {
    if (openItem == null) {
      return;
    }
    for (String key : List.of("scenario", "workflow")) {
      String value = openItem.get(key);
      if (value == null || value.isEmpty()) {
        throw new InputException(openItemLocation, ".ci.yaml entry has no '" + key + "'");
      }
    }
    entries.add(new Entry(Map.copyOf(openItem), openItemLocation));
    openItem = null;
    openItemLocation = null;
  }

  /** Splits {@code key: value}; the value may be empty. */
  private String[] keyValue(String text, int lineNumber, int column) {
    int colon = -1;
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) == ':' && (i + 1 == text.length() || text.charAt(i + 1) == ' ')) {
        colon = i;
        break;
      }
    }
    if (colon <= 0) {
      throw error(lineNumber, column, "expected 'key: value', found '" + text + "'");
    }
    return new String[] {unquote(text.substring(0, colon).trim()), text.substring(colon + 1).trim()};
  }

  private static List<String> splitOutsideQuotes(String text) {
    List<String> parts = new ArrayList<>();
    char quote = 0;
    int start = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        }
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == ',') {
        parts.add(text.substring(start, i));
        start = i + 1;
      }
    }
    parts.add(text.substring(start));
    return parts;
  }

  private static String withoutComment(String line) {
    char quote = 0;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        }
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '#' && (i == 0 || Character.isWhitespace(line.charAt(i - 1)))) {
        return line.substring(0, i);
      }
    }
    return line;
  }

  private static String unquote(String value) {
    if (value.length() >= 2 && (value.charAt(0) == '"' || value.charAt(0) == '\'')
        && value.charAt(value.length() - 1) == value.charAt(0)) {
      return value.substring(1, value.length() - 1);
    }
    return value;
  }

  private SourceLocation at(int line, int column) {
    return SourceLocation.of(file, line, column);
  }

  private InputException error(int line, int column, String message) {
    return new InputException(at(line, column), message);
  }
}
