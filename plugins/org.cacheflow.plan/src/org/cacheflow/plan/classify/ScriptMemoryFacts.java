package org.cacheflow.plan.classify;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.cacheflow.plan.memory.ScriptReport;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.scripts.FifoMark;
import org.cacheflow.scripts.MarkRecord;
import org.cacheflow.scripts.Match;
import org.cacheflow.scripts.ScriptBuffer;
import org.cacheflow.scripts.merge.MergeResult;
import org.cacheflow.scripts.merge.Piece;

/**
 * The memory facts of evaluated memory scripts ({@link org.cacheflow.plan.memory.MemoryScripts}): merge groups
 * from the merger's result, marks from the scripts' {@code markReadMostly()} / {@code markPrivate()} /
 * {@code markWriteMostly()} calls, and the merges scripts allowed but the merger refused. Single-rate FIFOs are
 * matched to edges by the scripts' FIFO id, {@code producer.port->consumer.port}.
 */
public final class ScriptMemoryFacts implements MemoryFacts {

  private final int[] root;
  /** Per merged buffer, the byte offset of its first byte in its root's memory. */
  private final long[] offset;
  /** Per divided buffer, its pieces: {first byte, byte in the root's memory, bytes}. */
  private final Map<Integer, long[][]> divided = new HashMap<>();
  /** Per actor firing whose script matches inputs with outputs, the ranges it repeats. */
  private final Map<Integer, List<ScriptCopy>> copies = new HashMap<>();
  /** Per root hosting others, the bytes its group's memory spans. */
  private final Map<Integer, Long> groupBytes = new HashMap<>();
  private final String[] mergeText;
  private final Map<Integer, Set<FifoMark>> marks = new HashMap<>();
  private final Map<Integer, String> markText = new HashMap<>();
  private final Map<Integer, String> rejected = new HashMap<>();

  private ScriptMemoryFacts(int edges) {
    root = new int[edges];
    Arrays.fill(root, -1);
    offset = new long[edges];
    mergeText = new String[edges];
  }

  /** The FIFO id memory scripts use for a single-rate edge. */
  public static String fifoId(Srdag srdag, int edge) {
    return srdag.vertexName(srdag.edgeSource(edge)) + "." + srdag.edgeSourcePort(edge) + "->"
        + srdag.vertexName(srdag.edgeTarget(edge)) + "." + srdag.edgeTargetPort(edge);
  }

  /** The facts of a script report made for this single-rate graph. */
  public static ScriptMemoryFacts of(Srdag srdag, ScriptReport report) {
    ScriptMemoryFacts facts = new ScriptMemoryFacts(srdag.edgeCount());
    Map<String, Integer> edgeById = new HashMap<>();
    for (int e = 0; e < srdag.edgeCount(); e++) {
      edgeById.put(fifoId(srdag, e), e);
    }
    MergeResult merge = report.merge();
    for (MergeResult.Group group : merge.groups()) {
      Integer rootEdge = edgeById.get(group.root());
      if (rootEdge != null && facts.root[rootEdge] < 0) {
        facts.placeGroup(srdag, group, rootEdge, edgeById);
      }
    }
    facts.collectCopies(srdag, report);
    facts.collectMarks(report, edgeById);
    facts.collectUnapplied(merge, edgeById);
    return facts;
  }

  /**
   * Places a merge group's members in its root's memory; refuses the whole group when a member's tokens are not
   * whole bytes or the group's extent does not start on a byte.
   */
  private void placeGroup(Srdag srdag, MergeResult.Group group, int rootEdge, Map<String, Integer> edgeById) {
    String oddTokens = oddTokenSize(srdag, group, edgeById);
    if (oddTokens != null) {
      rejected.put(rootEdge, "memory scripts merged buffers into it, but " + oddTokens + " holds tokens of "
          + "a size that is not whole bytes: scripts lay tokens out in whole bytes while the generated code sizes "
          + "a buffer by its bits, so the group keeps no merge");
      return;
    }
    if (group.extentStartBits() % 8 != 0) {
      rejected.put(rootEdge, "memory scripts merged buffers into it that start at bit "
          + group.extentStartBits()
              + ", not on a byte: generated code addresses bytes, so they keep memory of their own");
      return;
    }
    long base = -group.extentStartBits() / 8;
    List<Integer> placed = new ArrayList<>();
    for (MergeResult.Member member : group.members()) {
      Integer edge = edgeById.get(member.fifo());
      if (edge == null || root[edge] >= 0 || edge.equals(rootEdge)) {
        continue;
      }
      if (placeMember(srdag, group, member, edge, rootEdge, base)) {
        placed.add(edge);
      }
    }
    if (placed.isEmpty()) {
      return;
    }
    root[rootEdge] = rootEdge;
    offset[rootEdge] = base;
    groupBytes.put(rootEdge, group.sizeBytes());
    mergeText[rootEdge] = "hosts " + placed.size() + " merged buffer" + (placed.size() == 1 ? "" : "s")
        + " in " + group.sizeBytes() + " bytes (memory scripts)";
  }

  /**
   * Places one member of a merge group in its root's memory when it starts on a byte and lies in one block, or
   * lies in byte pieces only special vertices access; false when it keeps memory of its own.
   */
  private boolean placeMember(Srdag srdag, MergeResult.Group group, MergeResult.Member member, int edge,
      int rootEdge, long base) {
    long start = contiguousStart(member.pieces(), group.root());
    long[][] pieces = null;
    if (start == Long.MIN_VALUE && onlySpecialVerticesAccess(srdag, edge)) {
      pieces = bytePieces(member.pieces(), group.root(), base);
    }
    if (start == Long.MIN_VALUE && pieces == null || start != Long.MIN_VALUE && start % 8 != 0) {
      rejected.put(edge, "memory scripts placed it in " + group.root() + " at " + pieces(member.pieces())
          + ", " + (start != Long.MIN_VALUE ? "not on a byte boundary"
              : "in pieces that are not one block, and an actor accesses it (an actor gets one pointer)")
          + ": it keeps memory of its own");
      return false;
    }
    root[edge] = rootEdge;
    offset[edge] = pieces != null ? pieces[0][1] : base + start / 8;
    if (pieces != null) {
      divided.put(edge, pieces);
    }
    mergeText[edge] = "placed in " + group.root() + " at " + pieces(member.pieces())
        + " by memory-script matches";
    return true;
  }

  /** The marks scripts put on buffers, and where each was made. */
  private void collectMarks(ScriptReport report, Map<String, Integer> edgeById) {
    for (Map.Entry<String, List<MarkRecord>> entry : report.marks().entrySet()) {
      Integer edge = edgeById.get(entry.getKey());
      if (edge == null) {
        continue;
      }
      Set<FifoMark> set = EnumSet.noneOf(FifoMark.class);
      StringBuilder where = new StringBuilder();
      for (MarkRecord mark : entry.getValue()) {
        set.add(mark.mark());
        where.append(where.length() == 0 ? "" : "; ").append(mark.vertexName()).append('.').append(mark.bufferName())
            .append('.').append(mark.mark().method).append("() at ").append(mark.location());
      }
      marks.put(edge, set);
      markText.put(edge, where.toString());
    }
  }

  /** The merges scripts allowed but the merger did not apply, on buffers not refused already. */
  private void collectUnapplied(MergeResult merge, Map<String, Integer> edgeById) {
    for (String reason : merge.rejected()) {
      int open = reason.indexOf("(FIFO ");
      int close = open < 0 ? -1 : reason.indexOf("):", open);
      if (close > open) {
        Integer edge = edgeById.get(reason.substring(open + 6, close));
        if (edge != null) {
          rejected.putIfAbsent(edge, "memory scripts allowed a merge that was not applied: "
              + reason.substring(close + 2).trim());
        }
      }
    }
  }

  /** The input-to-output ranges of every actor instance whose script ran without problems. */
  private void collectCopies(Srdag srdag, ScriptReport report) {
    Map<String, Integer> vertexByName = new HashMap<>();
    for (int v = 0; v < srdag.vertexCount(); v++) {
      if (!srdag.isInserted(v) && !Classifier.isCopying(srdag.vertexKind(v))) {
        vertexByName.put(srdag.vertexName(v), v);
      }
    }
    for (ScriptReport.Instance instance : report.instances()) {
      Integer vertex = vertexByName.get(instance.vertex());
      if (vertex == null || instance.run() == null || instance.error() != null || !instance.problems().isEmpty()) {
        continue;
      }
      List<ScriptCopy> list = new ArrayList<>();
      for (Match match : instance.run().matches()) {
        Match m = match.local().direction() == ScriptBuffer.Direction.INPUT ? match : match.reciprocal();
        if (m.local().direction() != ScriptBuffer.Direction.INPUT
            || m.remote().direction() != ScriptBuffer.Direction.OUTPUT) {
          continue;
        }
        // only real tokens on both sides
        long from = Math.max(Math.max(0, m.localStart()), m.localStart() + (0 - m.remoteStart()));
        long to = Math.min(Math.min(m.local().realBits(), m.localEnd()),
            m.localStart() + (m.remote().realBits() - m.remoteStart()));
        long shift = m.remoteStart() - m.localStart();
        if (to <= from || from % 8 != 0 || to % 8 != 0 || shift % 8 != 0) {
          continue;
        }
        list.add(new ScriptCopy(m.local().spec().port(), from / 8, m.remote().spec().port(), (from + shift) / 8,
            (to - from) / 8));
      }
      if (!list.isEmpty()) {
        copies.put(vertex, List.copyOf(list));
      }
    }
  }

  @Override
  public List<ScriptCopy> scriptCopies(int vertex) {
    return copies.getOrDefault(vertex, List.of());
  }

  /** A FIFO id of the group whose tokens are not whole bytes, or null. */
  private static String oddTokenSize(Srdag srdag, MergeResult.Group group, Map<String, Integer> edgeById) {
    List<String> ids = new ArrayList<>();
    ids.add(group.root());
    for (MergeResult.Member member : group.members()) {
      ids.add(member.fifo());
    }
    for (String id : ids) {
      Integer edge = edgeById.get(id);
      if (edge != null && srdag.flatGraph().fifo(srdag.edgeFifo(edge)).tokenBits() % 8 != 0) {
        return id;
      }
    }
    return null;
  }

  /**
   * Whether the buffer is written and read only by special vertices (fork, join, broadcast, round buffer):
   * they copy by ranges, so the buffer may lie in pieces, as PREESM's divided buffers.
   */
  private static boolean onlySpecialVerticesAccess(Srdag srdag, int edge) {
    return Classifier.isCopying(srdag.vertexKind(srdag.edgeSource(edge)))
        && Classifier.isCopying(srdag.vertexKind(srdag.edgeTarget(edge)));
  }

  /**
   * A divided buffer's pieces in bytes, {first byte, byte in the root's memory, bytes}, sorted by first byte and
   * covering it from byte 0 without gaps; null when a piece is not on bytes or lies in another root.
   */
  private static long[][] bytePieces(List<Piece> pieces, String rootId, long base) {
    List<Piece> sorted = new ArrayList<>(pieces);
    sorted.sort(Comparator.comparingLong(Piece::start));
    long[][] result = new long[sorted.size()][];
    long next = 0;
    for (int i = 0; i < sorted.size(); i++) {
      Piece piece = sorted.get(i);
      if (!piece.host().equals(rootId) || piece.start() != next || piece.start() % 8 != 0 || piece.length() % 8 != 0
          || piece.hostStart() % 8 != 0) {
        return null;
      }
      result[i] = new long[] {piece.start() / 8, base + piece.hostStart() / 8, piece.length() / 8};
      next = piece.end();
    }
    return result.length == 0 ? null : result;
  }

  /**
   * The root bit at which a member's bit 0 lies when its pieces form one block in that root, else
   * Long.MIN_VALUE.
   */
  private static long contiguousStart(List<Piece> pieces, String rootId) {
    List<Piece> sorted = new ArrayList<>(pieces);
    sorted.sort(Comparator.comparingLong(Piece::start));
    if (sorted.isEmpty() || sorted.get(0).start() != 0) {
      return Long.MIN_VALUE;
    }
    long delta = sorted.get(0).hostStart() - sorted.get(0).start();
    long next = 0;
    for (Piece piece : sorted) {
      if (!piece.host().equals(rootId) || piece.start() != next || piece.hostStart() - piece.start() != delta) {
        return Long.MIN_VALUE;
      }
      next = piece.end();
    }
    return delta;
  }

  /** The pieces' ranges in the root, a range that repeats (a broadcast's pieces in one place) once with its count. */
  static String pieces(List<Piece> pieces) {
    List<String> ranges = new ArrayList<>();
    for (Piece piece : pieces) {
      ranges.add(piece.hostStart() % 8 == 0 && piece.length() % 8 == 0
          ? "bytes [" + piece.hostStart() / 8 + ", " + (piece.hostStart() + piece.length()) / 8 + ")"
          : "bits [" + piece.hostStart() + ", " + (piece.hostStart() + piece.length()) + ")");
    }
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < ranges.size();) {
      int same = 1;
      while (i + same < ranges.size() && ranges.get(i + same).equals(ranges.get(i))) {
        same++;
      }
      text.append(text.length() == 0 ? "" : ", ").append(ranges.get(i)).append(same > 1 ? " (" + same + " times)" : "");
      i += same;
    }
    return text.toString();
  }

  @Override
  public int mergeRoot(int edge) {
    return root[edge];
  }

  @Override
  public long mergeOffset(int edge) {
    return root[edge] >= 0 ? offset[edge] : -1;
  }

  @Override
  public long[][] mergePieces(int edge) {
    long[][] pieces = divided.get(edge);
    return pieces == null ? null : pieces.clone();
  }

  @Override
  public long groupBytes(int rootEdge) {
    return groupBytes.getOrDefault(rootEdge, -1L);
  }

  @Override
  public Set<FifoMark> marks(int edge) {
    return marks.getOrDefault(edge, Set.of());
  }

  @Override
  public String describeMerge(int edge) {
    return mergeText[edge];
  }

  @Override
  public String describeMarks(int edge) {
    return markText.get(edge);
  }

  @Override
  public String rejectedMerge(int edge) {
    return rejected.get(edge);
  }
}
