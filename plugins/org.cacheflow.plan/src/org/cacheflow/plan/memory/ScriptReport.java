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
 * its location. {@link #toText()} is for people; tools get it as JSON from the report bundle
 * ({@code org.cacheflow.report.ScriptReportJson}). Ranges are in bytes (in bits when a range is not
 * byte-aligned).
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
}
