package org.cacheflow.plan.memory;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;


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

  /** One line, no HTML escaping, nulls kept: the same text the report always had. */
  private static final Gson JSON = new GsonBuilder().disableHtmlEscaping().serializeNulls().create();


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
    Map<String, Object> json = new LinkedHashMap<>(context);
    json.put("graph", graph);
    List<Object> instanceList = new ArrayList<>();
    for (Instance instance : instances) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("vertex", instance.vertex());
      entry.put("actor", instance.actorPath());
      entry.put("script", instance.script());
      if (instance.error() != null) {
        entry.put("error", instance.error());
      } else {
        List<Object> matches = new ArrayList<>();
        for (Match match : instance.run().matches()) {
          Map<String, Object> m = new LinkedHashMap<>();
          m.put("local", match.local().scriptName());
          m.put("localFifo", match.local().spec().fifoId());
          m.put("localRange", rangeJson(match.localStart(), match.length()));
          m.put("remote", match.remote().scriptName());
          m.put("remoteFifo", match.remote().spec().fifoId());
          m.put("remoteRange", rangeJson(match.remoteStart(), match.length()));
          matches.add(m);
        }
        entry.put("matches", matches);
        List<Object> markList = new ArrayList<>();
        for (MarkRecord mark : instance.run().marks()) {
          Map<String, Object> m = new LinkedHashMap<>();
          m.put("buffer", mark.bufferName());
          m.put("fifo", mark.fifoId());
          m.put("mark", mark.mark().label());
          markList.add(m);
        }
        entry.put("marks", markList);
        entry.put("problems", new ArrayList<Object>(instance.problems()));
      }
      instanceList.add(entry);
    }
    json.put("instances", instanceList);
    List<Object> groups = new ArrayList<>();
    for (MergeResult.Group group : merge.groups()) {
      Map<String, Object> g = new LinkedHashMap<>();
      g.put("root", group.root());
      g.put("bytes", group.sizeBytes());
      g.put("extentStartBits", group.extentStartBits());
      g.put("extentEndBits", group.extentEndBits());
      List<Object> members = new ArrayList<>();
      for (MergeResult.Member member : group.members()) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("fifo", member.fifo());
        List<Object> pieceList = new ArrayList<>();
        for (Piece piece : member.pieces()) {
          Map<String, Object> p = new LinkedHashMap<>();
          p.put("startBits", piece.start());
          p.put("lengthBits", piece.length());
          p.put("root", piece.host());
          p.put("rootStartBits", piece.hostStart());
          pieceList.add(p);
        }
        m.put("pieces", pieceList);
        members.add(m);
      }
      g.put("members", members);
      groups.add(g);
    }
    json.put("mergeGroups", groups);
    Map<String, Object> markMap = new LinkedHashMap<>();
    marks.forEach((fifo, records) -> markMap.put(fifo,
        records.stream().map(r -> (Object) r.mark().label()).distinct().collect(Collectors.toList())));
    json.put("marks", markMap);
    json.put("mergesNotApplied", new ArrayList<Object>(merge.rejected()));
    json.put("errors", new ArrayList<Object>(errors));
    json.put("bytesBefore", bytesBefore());
    json.put("bytesAfter", bytesAfter());
    json.put("bytesSaved", bytesSaved());
    return JSON.toJson(json);
  }

  /** A range in bits, with its bytes when it is byte-aligned. */
  private static Map<String, Object> rangeJson(long startBits, long lengthBits) {
    Map<String, Object> range = new LinkedHashMap<>();
    if (startBits % 8 == 0 && lengthBits % 8 == 0) {
      range.put("startByte", startBits / 8);
      range.put("endByte", (startBits + lengthBits) / 8);
    }
    range.put("startBit", startBits);
    range.put("endBit", startBits + lengthBits);
    return range;
  }
}
