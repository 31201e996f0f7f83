package org.cacheflow.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.cacheflow.plan.memory.ScriptReport;
import org.cacheflow.scripts.MarkRecord;
import org.cacheflow.scripts.Match;
import org.cacheflow.scripts.merge.MergeResult;
import org.cacheflow.scripts.merge.Piece;

/**
 * The memory-script report ({@link ScriptReport}) as plain values for JSON, printed by {@link JsonText} like every
 * other JSON output: {@code {CONTEXT..., "graph", "instances": [{"vertex", "actor", "script", "error"} or {"vertex",
 * "actor", "script", "matches", "marks", "problems"}], "mergeGroups": [{"root", "bytes", "extentStartBits",
 * "extentEndBits", "members": [{"fifo", "pieces"}]}], "marks", "mergesNotApplied", "errors", "bytesBefore",
 * "bytesAfter", "bytesSaved"}}. Ranges are in bits, with their bytes when they are byte-aligned.
 */
public final class ScriptReportJson {

  private ScriptReportJson() {
  }

  /**
   * The report on one line, its first members {@code context} (e.g. the graph and scenario files a command
   * evaluated, so that the reports of one graph under several scenarios can be told apart).
   */
  public static String compact(ScriptReport report, Map<String, String> context) {
    return JsonText.compact(toJson(report, context));
  }

  /** The report as a JSON object whose first members are {@code context}. */
  public static Map<String, Object> toJson(ScriptReport report, Map<String, String> context) {
    Map<String, Object> json = new LinkedHashMap<>(context);
    json.put("graph", report.graph());
    List<Object> instanceList = new ArrayList<>();
    for (ScriptReport.Instance instance : report.instances()) {
      instanceList.add(instance(instance));
    }
    json.put("instances", instanceList);
    List<Object> groups = new ArrayList<>();
    for (MergeResult.Group group : report.merge().groups()) {
      groups.add(group(group));
    }
    json.put("mergeGroups", groups);
    Map<String, Object> markMap = new LinkedHashMap<>();
    report.marks().forEach((fifo, records) -> markMap.put(fifo,
        records.stream().map(r -> (Object) r.mark().label()).distinct().collect(Collectors.toList())));
    json.put("marks", markMap);
    json.put("mergesNotApplied", new ArrayList<Object>(report.merge().rejected()));
    json.put("errors", new ArrayList<Object>(report.errors()));
    json.put("bytesBefore", report.bytesBefore());
    json.put("bytesAfter", report.bytesAfter());
    json.put("bytesSaved", report.bytesSaved());
    return json;
  }

  private static Map<String, Object> instance(ScriptReport.Instance instance) {
    Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("vertex", instance.vertex());
    entry.put("actor", instance.actorPath());
    entry.put("script", instance.script());
    if (instance.error() != null) {
      entry.put("error", instance.error());
      return entry;
    }
    List<Object> matches = new ArrayList<>();
    for (Match match : instance.run().matches()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("local", match.local().scriptName());
      m.put("localFifo", match.local().spec().fifoId());
      m.put("localRange", range(match.localStart(), match.length()));
      m.put("remote", match.remote().scriptName());
      m.put("remoteFifo", match.remote().spec().fifoId());
      m.put("remoteRange", range(match.remoteStart(), match.length()));
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
    return entry;
  }

  private static Map<String, Object> group(MergeResult.Group group) {
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
    return g;
  }

  /** A range in bits, with its bytes when it is byte-aligned. */
  private static Map<String, Object> range(long startBits, long lengthBits) {
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
