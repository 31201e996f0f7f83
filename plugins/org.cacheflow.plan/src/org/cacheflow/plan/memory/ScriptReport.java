package org.cacheflow.plan.memory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.cacheflow.scripts.MarkRecord;
import org.cacheflow.scripts.Match;
import org.cacheflow.scripts.ScriptRun;
import org.cacheflow.scripts.merge.MergeResult;
import org.cacheflow.scripts.merge.Piece;

/**
 * What {@link MemoryScripts#evaluate} found for a graph: per actor instance with a script, its matches (or
 * its error and check problems); the merge groups and the memory saved; the marks per FIFO; every error with
 * its location. {@link #toText()} is for people, {@link #toJson()} for tools. Ranges are in bytes (in bits
 * when a range is not byte-aligned).
 *
 * @param graph the top graph's name
 * @param instances actor instances that have a script, in single-rate vertex order
 * @param merge which FIFOs share memory
 * @param marks marks by FIFO
 * @param errors every error, {@code FILE:LINE:COL: message}
 * @param evaluationNanos time spent building environments, running every script and checking the results
 * @param mergeNanos time spent merging buffers
 */
public record ScriptReport(String graph, List<Instance> instances, MergeResult merge,
    Map<String, List<MarkRecord>> marks, List<String> errors, long evaluationNanos, long mergeNanos) {

  /** A report without timings (built by hand, e.g. in tests of later stages). */
  public ScriptReport(String graph, List<Instance> instances, MergeResult merge, Map<String, List<MarkRecord>> marks,
      List<String> errors) {
    this(graph, instances, merge, marks, errors, 0, 0);
  }

  /**
   * One actor instance with a script.
   *
   * @param vertex the single-rate vertex name
   * @param actorPath the flat actor it belongs to
   * @param script the script file (a default script is {@code scripts/<kind>.bsh})
   * @param run the result, null when the script failed
   * @param problems check problems; when not empty the matches were not used
   * @param error the script error, or null
   */
  public record Instance(String vertex, String actorPath, String script, ScriptRun run, List<String> problems,
      String error) {
  }

  public long bytesBefore() {
    return merge.bytesBefore();
  }

  public long bytesAfter() {
    return merge.bytesAfter();
  }

  public long bytesSaved() {
    return merge.bytesSaved();
  }

  // ---------------------------------------------------------------- text

  /** A readable report. */
  public String toText() {
    StringBuilder out = new StringBuilder();
    out.append("memory scripts of ").append(graph).append(": ").append(instances.size())
        .append(" actor instances with a script\n");
    for (Instance instance : instances) {
      out.append('\n').append(instance.vertex()).append("  (").append(instance.script()).append(")\n");
      if (instance.error() != null) {
        out.append("  error: ").append(instance.error()).append('\n');
        continue;
      }
      for (Match match : instance.run().matches()) {
        out.append("  match ").append(match.local().scriptName()).append(range(match.localStart(), match.localEnd()))
            .append(" <-> ").append(match.remote().spec().fifoId()).append(" (").append(match.remote().scriptName())
            .append(')').append(range(match.remoteStart(), match.remoteEnd())).append('\n');
      }
      for (MarkRecord mark : instance.run().marks()) {
        out.append("  mark ").append(mark.bufferName()).append(' ').append(mark.mark().label()).append('\n');
      }
      for (String problem : instance.problems()) {
        out.append("  rejected: ").append(problem).append('\n');
      }
    }
    out.append("\nmerge groups: ").append(merge.groups().size()).append('\n');
    for (MergeResult.Group group : merge.groups()) {
      out.append("  ").append(group.root()).append("  ").append(group.sizeBytes()).append(" bytes")
          .append(group.extentStartBits() < 0 ? " (from byte " + bits(group.extentStartBits()) + ")" : "")
          .append('\n');
      for (MergeResult.Member member : group.members()) {
        out.append("    ").append(member.fifo()).append(" at ").append(pieces(member.pieces())).append('\n');
      }
    }
    if (!marks.isEmpty()) {
      out.append("\nmarks:\n");
      marks.forEach((fifo, records) -> {
        out.append("  ").append(fifo).append(':');
        records.stream().map(r -> r.mark().label()).distinct().forEach(label -> out.append(' ').append(label));
        out.append('\n');
      });
    }
    if (!merge.rejected().isEmpty()) {
      out.append("\nmerges not applied:\n");
      for (String reason : merge.rejected()) {
        out.append("  ").append(reason).append('\n');
      }
    }
    if (!errors.isEmpty()) {
      out.append("\nerrors:\n");
      for (String error : errors) {
        out.append("  error: ").append(error).append('\n');
      }
    }
    out.append("\nmemory: ").append(bytesBefore()).append(" bytes in separate buffers, ").append(bytesAfter())
        .append(" bytes after merging, ").append(bytesSaved()).append(" bytes saved\n");
    return out.toString();
  }

  private static String range(long start, long end) {
    if (start % 8 == 0 && end % 8 == 0) {
      return "[" + start / 8 + ".." + end / 8 + ")";
    }
    return "[" + start + ".." + end + " bits)";
  }

  private static String bits(long bits) {
    return bits % 8 == 0 ? String.valueOf(bits / 8) : bits + " bits";
  }

  private static String pieces(List<Piece> pieces) {
    List<String> parts = new ArrayList<>();
    for (Piece piece : pieces) {
      parts.add(range(piece.start(), piece.end()) + " -> " + piece.host() + range(piece.hostStart(),
          piece.hostStart() + piece.length()));
    }
    return String.join(", ", parts);
  }

  // ---------------------------------------------------------------- JSON

  /** The report as a JSON object. */
  public String toJson() {
    return toJson(Map.of());
  }

  /**
   * The report as a JSON object whose first members are {@code context} (e.g. the graph and scenario files a
   * command evaluated, so that the reports of one graph under several scenarios can be told apart).
   */
  public String toJson(Map<String, String> context) {
    Json json = new Json();
    json.open('{');
    context.forEach((key, value) -> json.key(key).string(value));
    json.key("graph").string(graph);
    json.key("instances").open('[');
    for (Instance instance : instances) {
      json.open('{');
      json.key("vertex").string(instance.vertex());
      json.key("actor").string(instance.actorPath());
      json.key("script").string(instance.script());
      if (instance.error() != null) {
        json.key("error").string(instance.error());
      } else {
        json.key("matches").open('[');
        for (Match match : instance.run().matches()) {
          json.open('{');
          json.key("local").string(match.local().scriptName());
          json.key("localFifo").string(match.local().spec().fifoId());
          rangeJson(json, "localRange", match.localStart(), match.length());
          json.key("remote").string(match.remote().scriptName());
          json.key("remoteFifo").string(match.remote().spec().fifoId());
          rangeJson(json, "remoteRange", match.remoteStart(), match.length());
          json.close('}');
        }
        json.close(']');
        json.key("marks").open('[');
        for (MarkRecord mark : instance.run().marks()) {
          json.open('{');
          json.key("buffer").string(mark.bufferName());
          json.key("fifo").string(mark.fifoId());
          json.key("mark").string(mark.mark().label());
          json.close('}');
        }
        json.close(']');
        json.key("problems").open('[');
        instance.problems().forEach(problem -> json.string(problem));
        json.close(']');
      }
      json.close('}');
    }
    json.close(']');
    json.key("mergeGroups").open('[');
    for (MergeResult.Group group : merge.groups()) {
      json.open('{');
      json.key("root").string(group.root());
      json.key("bytes").number(group.sizeBytes());
      json.key("extentStartBits").number(group.extentStartBits());
      json.key("extentEndBits").number(group.extentEndBits());
      json.key("members").open('[');
      for (MergeResult.Member member : group.members()) {
        json.open('{');
        json.key("fifo").string(member.fifo());
        json.key("pieces").open('[');
        for (Piece piece : member.pieces()) {
          json.open('{');
          json.key("startBits").number(piece.start());
          json.key("lengthBits").number(piece.length());
          json.key("root").string(piece.host());
          json.key("rootStartBits").number(piece.hostStart());
          json.close('}');
        }
        json.close(']');
        json.close('}');
      }
      json.close(']');
      json.close('}');
    }
    json.close(']');
    json.key("marks").open('{');
    marks.forEach((fifo, records) -> {
      json.key(fifo).open('[');
      records.stream().map(r -> r.mark().label()).distinct().forEach(json::string);
      json.close(']');
    });
    json.close('}');
    json.key("mergesNotApplied").open('[');
    merge.rejected().forEach(json::string);
    json.close(']');
    json.key("errors").open('[');
    errors.forEach(json::string);
    json.close(']');
    json.key("bytesBefore").number(bytesBefore());
    json.key("bytesAfter").number(bytesAfter());
    json.key("bytesSaved").number(bytesSaved());
    json.close('}');
    return json.toString();
  }

  private static void rangeJson(Json json, String key, long startBits, long lengthBits) {
    json.key(key).open('{');
    if (startBits % 8 == 0 && lengthBits % 8 == 0) {
      json.key("startByte").number(startBits / 8);
      json.key("endByte").number((startBits + lengthBits) / 8);
    }
    json.key("startBit").number(startBits);
    json.key("endBit").number(startBits + lengthBits);
    json.close('}');
  }

  /** A minimal JSON writer: commas and escaping handled here, nesting by the caller. */
  private static final class Json {
    private final StringBuilder out = new StringBuilder();
    private boolean needComma;

    Json open(char bracket) {
      comma();
      out.append(bracket);
      needComma = false;
      return this;
    }

    Json close(char bracket) {
      out.append(bracket);
      needComma = true;
      return this;
    }

    Json key(String key) {
      comma();
      quote(key);
      out.append(':');
      needComma = false;
      return this;
    }

    Json string(String value) {
      comma();
      if (value == null) {
        out.append("null");
      } else {
        quote(value);
      }
      needComma = true;
      return this;
    }

    Json number(long value) {
      comma();
      out.append(value);
      needComma = true;
      return this;
    }

    private void comma() {
      if (needComma) {
        out.append(',');
      }
    }

    private void quote(String text) {
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

    @Override
    public String toString() {
      return out.toString();
    }
  }
}
