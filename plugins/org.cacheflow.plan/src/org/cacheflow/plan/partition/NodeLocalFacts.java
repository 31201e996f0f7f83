package org.cacheflow.plan.partition;

import java.util.List;
import java.util.Set;

import org.cacheflow.plan.classify.MemoryFacts;
import org.cacheflow.plan.classify.ScriptCopy;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.plan.strategy.FifoNames;
import org.cacheflow.scripts.FifoMark;

/**
 * Memory facts whose merge groups each stay on one node: a merge group's memory is allocated on one node (its
 * root's, where the root's producer and consumer both run), so a member whose producer or consumer runs on another
 * node leaves the group and gets memory of its own (the special vertex filling it copies, a buffer crossing nodes
 * is sent). A group whose root crosses nodes, or that keeps no member besides its root, is dissolved. Marks, layouts
 * and script copies are the underlying facts'.
 */
public final class NodeLocalFacts implements MemoryFacts {

  private final MemoryFacts facts;
  private final int[] root;
  private final String[] dropped;

  private NodeLocalFacts(MemoryFacts facts, int[] root, String[] dropped) {
    this.facts = facts;
    this.root = root;
    this.dropped = dropped;
  }

  /**
   * The facts with every merge group restricted to one node.
   *
   */
  public static MemoryFacts of(Srdag srdag, MemoryFacts facts, NodePartition partition) {
    FifoNames names = new FifoNames(srdag.flatGraph());
    int edges = srdag.edgeCount();
    int[] root = new int[edges];
    String[] dropped = new String[edges];
    int[] kept = new int[edges];
    for (int e = 0; e < edges; e++) {
      root[e] = facts.mergeRoot(e);
    }
    for (int e = 0; e < edges; e++) {
      int r = root[e];
      if (r < 0) {
        continue;
      }
      int home = partition.nodeOf(srdag.edgeSource(r));
      boolean rootCrosses = partition.nodeOf(srdag.edgeTarget(r)) != home;
      int source = partition.nodeOf(srdag.edgeSource(e));
      int target = partition.nodeOf(srdag.edgeTarget(e));
      if (rootCrosses) {
        dropped[e] = "memory scripts merged it into the memory of " + name(srdag, names, r) + ", whose producer (node "
            + home + ") and consumer (node " + partition.nodeOf(srdag.edgeTarget(r)) + ") run on different nodes: a "
            + "merge group's memory lives on one node, so the group is dissolved";
      } else if (source != home || target != home) {
        dropped[e] = "memory scripts merged it into the memory of " + name(srdag, names, r) + " on node " + home
            + ", but its " + (source != home ? "producer runs on node " + source : "consumer runs on node " + target)
            + ": a merge group's memory lives on one node, so it gets memory of its own";
      } else if (e != r) {
        kept[r]++;
      }
    }
    for (int e = 0; e < edges; e++) {
      int r = root[e];
      if (r >= 0 && dropped[r] == null && kept[r] == 0) {
        dropped[e] = "memory scripts merged other buffers into it, but they all run on other nodes";
      }
    }
    boolean any = false;
    for (int e = 0; e < edges; e++) {
      if (dropped[e] != null) {
        root[e] = -1;
        any = true;
      }
    }
    return any ? new NodeLocalFacts(facts, root, dropped) : facts;
  }

  /** A buffer as reports name it: its FIFO and its producer and consumer vertices. */
  private static String name(Srdag srdag, FifoNames names, int edge) {
    return names.fifo(srdag.flatGraph().fifo(srdag.edgeFifo(edge))) + " (" + srdag.vertexName(srdag.edgeSource(edge))
        + " -> " + srdag.vertexName(srdag.edgeTarget(edge)) + ")";
  }

  @Override
  public int mergeRoot(int edge) {
    return root[edge];
  }

  @Override
  public long mergeOffset(int edge) {
    return root[edge] < 0 ? -1 : facts.mergeOffset(edge);
  }

  @Override
  public long[][] mergePieces(int edge) {
    return root[edge] < 0 ? null : facts.mergePieces(edge);
  }

  @Override
  public long groupBytes(int rootEdge) {
    return root[rootEdge] == rootEdge ? facts.groupBytes(rootEdge) : -1;
  }

  @Override
  public List<ScriptCopy> scriptCopies(int vertex) {
    return facts.scriptCopies(vertex);
  }

  @Override
  public Set<FifoMark> marks(int edge) {
    return facts.marks(edge);
  }

  @Override
  public String describeMerge(int edge) {
    return root[edge] < 0 ? null : facts.describeMerge(edge);
  }

  @Override
  public String describeMarks(int edge) {
    return facts.describeMarks(edge);
  }

  @Override
  public String droppedMerge(int edge) {
    return dropped[edge];
  }

  @Override
  public String rejectedMerge(int edge) {
    return dropped[edge] != null ? dropped[edge] : facts.rejectedMerge(edge);
  }
}
