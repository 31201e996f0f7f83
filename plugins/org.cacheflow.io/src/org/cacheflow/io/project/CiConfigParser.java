package org.cacheflow.io.project;

import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.yaml.snakeyaml.DumperOptions.FlowStyle;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Reads PREESM applications' {@code .ci.yaml} with SnakeYAML: a top-level {@code config:} key holding a list whose
 * items are maps with {@code scenario} and {@code workflow} file names, in flow or block style:
 *
 * <pre>
 * config:
 * - {scenario: 4core.scenario, workflow: Codegen.workflow}
 * - scenario: "1core.scenario"
 *   workflow: Codegen.workflow
 * </pre>
 *
 * The file is only composed into YAML nodes (no Java object is constructed from it), which also gives every entry
 * its line. {@code config:} with no entries (all commented out) has no runs; other top-level keys and other keys of
 * an entry are skipped with a warning. Anything else is an {@link InputException} at its line.
 */
final class CiConfigParser {

  /** One list item: its keys and values, and where the item starts. */
  record Entry(Map<String, String> values, SourceLocation location) {
  }

  private static final Set<String> KNOWN_KEYS = Set.of("scenario", "workflow");

  private final Path file;
  private final Diagnostics diagnostics;

  private CiConfigParser(Path file, Diagnostics diagnostics) {
    this.file = file;
    this.diagnostics = diagnostics;
  }

  static List<Entry> parse(Path file, String text, Diagnostics diagnostics) {
    return new CiConfigParser(file, diagnostics).entries(compose(file, text));
  }

  private static Node compose(Path file, String text) {
    try {
      return new Yaml(new SafeConstructor(new LoaderOptions())).compose(new StringReader(text));
    } catch (MarkedYAMLException e) {
      if ("while parsing a flow mapping".equals(e.getContext()) && e.getProblem() != null
          && e.getProblem().startsWith("expected ',' or '}'")) {
        throw new InputException(at(file, e.getContextMark()), "'{' is not closed by '}' on the same line", e);
      }
      Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
      SourceLocation location = mark == null ? SourceLocation.file(file) : at(file, mark);
      if (e.getProblem() != null && e.getProblem().contains("\\t(TAB)")) {
        throw new InputException(location, "tab in indentation; YAML indents with spaces", e);
      }
      throw new InputException(location, "not valid YAML: " + e.getProblem()
          + (e.getContext() == null ? "" : " (" + e.getContext() + ")"), e);
    } catch (YAMLException e) {
      throw new InputException(SourceLocation.file(file), "not valid YAML: " + e.getMessage(), e);
    }
  }

  private List<Entry> entries(Node root) {
    List<Entry> entries = new ArrayList<>();
    if (!(root instanceof MappingNode top)) {
      return entries; // empty, comments only, or no keys at all: no runs
    }
    for (NodeTuple pair : top.getValue()) {
      Node key = pair.getKeyNode();
      if (!"config".equals(text(key))) {
        diagnostics.warn(at(file, key.getStartMark()), "unknown key '" + text(key) + "' in .ci.yaml ignored");
        continue;
      }
      Node value = pair.getValueNode();
      if (isNull(value)) {
        continue;
      }
      if (!(value instanceof SequenceNode list)) {
        throw new InputException(at(file, key.getStartMark()), "'config:' must be followed by a list of "
            + "'- {scenario: ..., workflow: ...}' entries");
      }
      for (Node item : list.getValue()) {
        entries.add(entry(list, item));
      }
    }
    return entries;
  }

  private Entry entry(SequenceNode list, Node item) {
    // a block list's entry starts at its '-', in the list's column
    Mark start = item.getStartMark();
    SourceLocation location = SourceLocation.of(file, start.getLine() + 1,
        (list.getFlowStyle() == FlowStyle.BLOCK ? list.getStartMark() : start).getColumn() + 1);
    Map<String, String> values = new LinkedHashMap<>();
    if (item instanceof MappingNode map) {
      for (NodeTuple pair : map.getValue()) {
        put(values, pair);
      }
    } else if (!isNull(item)) {
      throw new InputException(at(file, start), "expected 'key: value', found '" + text(item) + "'");
    }
    for (String key : List.of("scenario", "workflow")) {
      String value = values.get(key);
      if (value == null || value.isEmpty()) {
        throw new InputException(location, ".ci.yaml entry has no '" + key + "'");
      }
    }
    return new Entry(Map.copyOf(values), location);
  }

  private void put(Map<String, String> values, NodeTuple pair) {
    Node keyNode = pair.getKeyNode();
    SourceLocation keyAt = at(file, keyNode.getStartMark());
    String key = text(keyNode);
    if (!KNOWN_KEYS.contains(key)) {
      diagnostics.warn(keyAt, "unknown key '" + key + "' in a .ci.yaml entry ignored");
      return;
    }
    if (!(pair.getValueNode() instanceof ScalarNode value)) {
      throw new InputException(at(file, pair.getValueNode().getStartMark()), "'" + key + "' expects a file name");
    }
    if (values.put(key, value.getValue()) != null) {
      throw new InputException(keyAt, "key '" + key + "' appears twice in one entry");
    }
  }

  /** A scalar's text as written (unquoted), or the YAML of a list or map for messages. */
  private static String text(Node node) {
    return node instanceof ScalarNode scalar ? scalar.getValue() : node instanceof SequenceNode ? "[...]" : "{...}";
  }

  private static boolean isNull(Node node) {
    return node instanceof ScalarNode && Tag.NULL.equals(node.getTag());
  }

  private static SourceLocation at(Path file, Mark mark) {
    return SourceLocation.of(file, mark.getLine() + 1, mark.getColumn() + 1);
  }
}
