package org.cacheflow.plan.classify;

import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.cacheflow.plan.memory.ScriptReport;
import org.cacheflow.plan.srdag.Srdag;
import org.cacheflow.scripts.FifoMark;
import org.cacheflow.scripts.MarkRecord;
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
  private final String[] mergeText;
  private final Map<Integer, Set<FifoMark>> marks = new HashMap<>();
  private final Map<Integer, String> markText = new HashMap<>();
  private final Map<Integer, String> rejected = new HashMap<>();

  private ScriptMemoryFacts(int edges) {
    root = new int[edges];
    java.util.Arrays.fill(root, -1);
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
      if (rootEdge == null) {
        continue;
      }
      if (facts.root[rootEdge] < 0) {
        facts.root[rootEdge] = rootEdge;
        facts.mergeText[rootEdge] = "hosts " + group.members().size() + " merged buffer"
            + (group.members().size() == 1 ? "" : "s") + " in " + group.sizeBytes() + " bytes (memory scripts)";
      }
      for (MergeResult.Member member : group.members()) {
        Integer edge = edgeById.get(member.fifo());
        if (edge == null || facts.root[edge] >= 0) {
          continue;
        }
        facts.root[edge] = rootEdge;
        facts.mergeText[edge] = "placed in " + group.root() + " at " + pieces(member.pieces())
            + " by memory-script matches";
      }
    }
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
      facts.marks.put(edge, set);
      facts.markText.put(edge, where.toString());
    }
    for (String reason : merge.rejected()) {
      int open = reason.indexOf("(FIFO ");
      int close = open < 0 ? -1 : reason.indexOf("):", open);
      if (close > open) {
        Integer edge = edgeById.get(reason.substring(open + 6, close));
        if (edge != null) {
          facts.rejected.putIfAbsent(edge, "memory scripts allowed a merge that was not applied: "
              + reason.substring(close + 2).trim());
        }
      }
    }
    return facts;
  }

  private static String pieces(List<Piece> pieces) {
    StringBuilder text = new StringBuilder();
    for (Piece piece : pieces) {
      text.append(text.length() == 0 ? "" : ", ");
      if (piece.hostStart() % 8 == 0 && piece.length() % 8 == 0) {
        text.append("bytes [").append(piece.hostStart() / 8).append(", ").append((piece.hostStart() + piece.length()) / 8)
            .append(')');
      } else {
        text.append("bits [").append(piece.hostStart()).append(", ").append(piece.hostStart() + piece.length())
            .append(')');
      }
    }
    return text.toString();
  }

  @Override
  public int mergeRoot(int edge) {
    return root[edge];
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
