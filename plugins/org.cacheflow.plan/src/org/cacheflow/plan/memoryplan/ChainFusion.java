package org.cacheflow.plan.memoryplan;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.cacheflow.model.ActorKind;
import org.cacheflow.plan.classify.MemoryFacts;
import org.cacheflow.plan.classify.ScriptCopy;
import org.cacheflow.plan.classify.ScriptMemoryFacts;
import org.cacheflow.plan.schedule.Topology;
import org.cacheflow.analysis.srdag.SpecialCopy;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.scripts.FifoMark;

/**
 * Memory facts whose state chains share one memory. The merger (PREESM's rules) may place a broadcast's
 * or round buffer's output with its consumer's in-place buffers (a destination group) rather than with the vertex's
 * input (the source group), so the vertex copies its input whole from one group's memory into the other's. When
 * nothing uses the source group's bytes once the vertex has fired, this post-pass places the destination group
 * inside the source group, at the place of the copied input, and the copy is between the same bytes: it vanishes.
 *
 * <p>A destination group is fused into a source group, through the vertex {@code V} copying input {@code in}
 * (source group) whole into output {@code out} (destination group), only when all of this holds:
 * <ul>
 * <li>{@code V} copies bytes 0.. of {@code in} into all of {@code out} in one piece; both buffers lie in one block
 * of their groups, whose layouts are known, and the destination group, shifted to {@code in}'s place, lies within
 * the source group's memory;</li>
 * <li>no member of either group carries a delay's initial or final tokens (a delay's storage has rules of its
 * own);</li>
 * <li>every member of the source group is written before {@code V} fires (its producer precedes {@code V}, or is
 * {@code V} copying {@code in} onto its own bytes), and is read before (its consumer precedes {@code V} or is
 * {@code V}) or not at all (no byte of it reaches an actor or a delay's storage, {@link LiveBytes#semantic}: a
 * round buffer input that later inputs overwrite, say);</li>
 * <li>every member of the destination group is written after {@code V} fires (by {@code V} itself, onto
 * {@code out} or onto {@code in}'s own bytes, or by a vertex {@code V} precedes);</li>
 * <li>the source group takes in no other fused group (two destination groups would overlap).</li>
 * </ul>
 * "Precedes" is a path in the single-rate graph, so it holds on every core and with the synchronisation the
 * code generator adds for each edge. Chains fuse transitively: a group fused into a group that is itself fused
 * lands in the first one's memory. Marks and script copies are the underlying facts'.
 */
final class ChainFusion implements MemoryFacts {

  /** Vertices visited by the precedence searches at most (beyond it, no further groups are fused). */
  private static final long SEARCH_BUDGET = 20_000_000L;

  private final MemoryFacts facts;
  private final int[] root;
  private final long[] offset;
  private final String[] fused;

  private ChainFusion(MemoryFacts facts, int[] root, long[] offset, String[] fused) {
    this.facts = facts;
    this.root = root;
    this.offset = offset;
    this.fused = fused;
  }

  /** The facts with state chains fused; the given facts themselves when nothing fuses. */
  static MemoryFacts of(Srdag srdag, Topology topology, MemoryFacts facts) {
    Groups groups = Groups.of(srdag, facts);
    if (groups.members().isEmpty()) {
      return facts;
    }
    Fusions fusions = fusions(srdag, topology, facts, groups);
    return apply(srdag, facts, groups, fusions);
  }

  /**
   * The merge groups of the facts.
   *
   * @param members per group, its member edges in edge order; groups numbered in order of their first edge
   * @param groupOf per edge, its group, or -1
   */
  private record Groups(List<List<Integer>> members, int[] groupOf) {

    static Groups of(Srdag srdag, MemoryFacts facts) {
      int edges = srdag.edgeCount();
      List<List<Integer>> members = new ArrayList<>();
      int[] groupOf = new int[edges];
      Arrays.fill(groupOf, -1);
      Map<Integer, Integer> groupOfRoot = new HashMap<>();
      for (int e = 0; e < edges; e++) {
        int r = facts.mergeRoot(e);
        if (r >= 0) {
          int g = groupOfRoot.computeIfAbsent(r, k -> {
            members.add(new ArrayList<>());
            return members.size() - 1;
          });
          groupOf[e] = g;
          members.get(g).add(e);
        }
      }
      return new Groups(members, groupOf);
    }
  }

  /**
   * The fusions chosen.
   *
   * @param into per group, the group it is fused into, or -1
   * @param shift per fused group, its place in the group it is fused into, in bytes
   * @param via per fused group, the vertex whose copy vanishes
   */
  private record Fusions(int[] into, long[] shift, int[] via) {
  }

  /** Fuses, for each broadcast's or round buffer's whole copy in vertex order, its output's group into its input's. */
  private static Fusions fusions(Srdag srdag, Topology topology, MemoryFacts facts, Groups groups) {
    int[] groupOf = groups.groupOf();
    int count = groups.members().size();
    Fusions fusions = new Fusions(new int[count], new long[count], new int[count]);
    int[] into = fusions.into();
    boolean[] hosts = new boolean[count];
    Arrays.fill(into, -1);
    long[] budget = {SEARCH_BUDGET};
    LiveBytes live = null;
    for (int v = 0; v < srdag.vertexCount(); v++) {
      ActorKind kind = srdag.vertexKind(v);
      if (kind != ActorKind.BROADCAST && kind != ActorKind.ROUNDBUFFER) {
        continue;
      }
      for (SpecialCopy copy : SpecialCopy.of(srdag, v)) {
        int in = copy.source();
        int out = copy.destination();
        int gs = groupOf[in];
        int gd = groupOf[out];
        if (gs < 0 || gd < 0 || gs == gd || into[gd] >= 0 || hosts[gs] || budget[0] <= 0
            || copy.sourceOffset() != 0 || copy.destinationOffset() != 0 || copy.bytes() != srdag.edgeBytes(out)
            || !wholeCopy(srdag, v, in, out)) {
          continue;
        }
        long s = placeShift(srdag, facts, in, out);
        if (s != Long.MIN_VALUE && live == null) {
          live = LiveBytes.semantic(srdag, topology);
        }
        if (s == Long.MIN_VALUE || !fusable(srdag, facts, live, v, in, out, groups.members().get(gs),
            groups.members().get(gd), s, budget)) {
          continue;
        }
        into[gd] = gs;
        fusions.shift()[gd] = s;
        fusions.via()[gd] = v;
        hosts[gs] = true;
      }
    }
    return fusions;
  }

  /** The facts with every member of a fused group placed in the memory of the group its chain ends in. */
  private static MemoryFacts apply(Srdag srdag, MemoryFacts facts, Groups groups, Fusions fusions) {
    int edges = srdag.edgeCount();
    int[] into = fusions.into();
    int[] root = new int[edges];
    long[] offset = new long[edges];
    String[] text = new String[edges];
    boolean any = false;
    for (int e = 0; e < edges; e++) {
      root[e] = facts.mergeRoot(e);
      offset[e] = facts.mergeOffset(e);
      int g = groups.groupOf()[e];
      if (g < 0 || into[g] < 0) {
        continue;
      }
      long total = 0;
      int top = g;
      int steps = 0;
      while (into[top] >= 0 && steps++ <= into.length) {
        total += fusions.shift()[top];
        top = into[top];
      }
      if (into[top] >= 0) {
        continue; // a cycle cannot arise from the precedence rules; keep the merger's placement if it did
      }
      any = true;
      root[e] = facts.mergeRoot(groups.members().get(top).get(0));
      offset[e] = offset[e] + total;
      text[e] = "its group (root " + ScriptMemoryFacts.fifoId(srdag, facts.mergeRoot(e))
          + ") is fused into the memory of "
          + ScriptMemoryFacts.fifoId(srdag, root[e]) + ": " + srdag.vertexName(fusions.via()[g])
              + " copied it whole from a group whose "
          + "bytes nothing reads afterwards (a state chain), so the copy is between the same bytes";
    }
    return any ? new ChainFusion(facts, root, offset, text) : facts;
  }

  /** Whether the vertex copies into the output only from that input (one copy, the whole output). */
  private static boolean wholeCopy(Srdag srdag, int vertex, int in, int out) {
    int copies = 0;
    for (SpecialCopy copy : SpecialCopy.of(srdag, vertex)) {
      if (copy.destination() == out) {
        copies++;
      }
    }
    return copies == 1 && srdag.edgeBytes(in) >= srdag.edgeBytes(out);
  }

  /**
   * Where the destination group's byte 0 lies in the source group's memory when {@code out} is placed on
   * {@code in}'s bytes, or Long.MIN_VALUE when a layout is unknown or the destination group does not fit.
   */
  private static long placeShift(Srdag srdag, MemoryFacts facts, int in, int out) {
    long inOffset = facts.mergeOffset(in);
    long outOffset = facts.mergeOffset(out);
    long sourceBytes = facts.groupBytes(facts.mergeRoot(in));
    long destinationBytes = facts.groupBytes(facts.mergeRoot(out));
    if (inOffset < 0 || outOffset < 0 || sourceBytes <= 0 || destinationBytes <= 0
        || facts.mergePieces(in) != null || facts.mergePieces(out) != null) {
      return Long.MIN_VALUE;
    }
    long s = inOffset - outOffset;
    return s >= 0 && s + destinationBytes <= sourceBytes ? s : Long.MIN_VALUE;
  }

  private static boolean fusable(Srdag srdag, MemoryFacts facts, LiveBytes live, int vertex, int in, int out,
      List<Integer> source,
      List<Integer> destination, long shift, long[] budget) {
    for (List<Integer> group : List.of(source, destination)) {
      for (int e : group) {
        if (srdag.isFromInit(e) || srdag.isToEnd(e) || facts.mergePieces(e) != null || facts.mergeOffset(e) < 0) {
          return false;
        }
      }
    }
    boolean[] before = reach(srdag, vertex, false, budget);
    boolean[] after = reach(srdag, vertex, true, budget);
    if (before == null || after == null) {
      return false;
    }
    long inOffset = facts.mergeOffset(in);
    for (int e : source) {
      int producer = srdag.edgeSource(e);
      boolean written = producer != vertex ? before[producer] : facts.mergeOffset(e) == inOffset && copiesOnto(srdag,
          vertex, in, e);
      int consumer = srdag.edgeTarget(e);
      boolean read = consumer == vertex || before[consumer] || live.bytes(e) == 0;
      if (!written || !read) {
        return false;
      }
    }
    for (int e : destination) {
      int producer = srdag.edgeSource(e);
      boolean written = producer != vertex ? after[producer]
          : e == out || facts.mergeOffset(e) + shift == inOffset && copiesOnto(srdag, vertex, in, e);
      if (!written) {
        return false;
      }
    }
    return true;
  }

  /** Whether the vertex fills the output with a copy of bytes 0.. of the input and nothing else. */
  private static boolean copiesOnto(Srdag srdag, int vertex, int in, int output) {
    boolean found = false;
    for (SpecialCopy copy : SpecialCopy.of(srdag, vertex)) {
      if (copy.destination() == output) {
        if (found || copy.source() != in || copy.sourceOffset() != 0 || copy.destinationOffset() != 0) {
          return false;
        }
        found = true;
      }
    }
    return found;
  }

  /** The vertices with a path from (forward) or to (backward) the vertex, itself excluded; null past the budget. */
  private static boolean[] reach(Srdag srdag, int vertex, boolean forward, long[] budget) {
    boolean[] seen = new boolean[srdag.vertexCount()];
    ArrayDeque<Integer> queue = new ArrayDeque<>();
    queue.add(vertex);
    while (!queue.isEmpty()) {
      int v = queue.poll();
      if (--budget[0] < 0) {
        return null;
      }
      for (int e : forward ? srdag.outgoingEdges(v) : srdag.incomingEdges(v)) {
        int next = forward ? srdag.edgeTarget(e) : srdag.edgeSource(e);
        if (!seen[next] && next != vertex) {
          seen[next] = true;
          queue.add(next);
        }
      }
    }
    return seen;
  }

  @Override
  public int mergeRoot(int edge) {
    return root[edge];
  }

  @Override
  public long mergeOffset(int edge) {
    return root[edge] < 0 ? -1 : offset[edge];
  }

  @Override
  public long[][] mergePieces(int edge) {
    return facts.mergePieces(edge);
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
    String text = facts.describeMerge(edge);
    return fused[edge] == null ? text : (text == null ? "" : text + "; ") + fused[edge];
  }

  @Override
  public String describeMarks(int edge) {
    return facts.describeMarks(edge);
  }

  @Override
  public String droppedMerge(int edge) {
    return facts.droppedMerge(edge);
  }

  @Override
  public String rejectedMerge(int edge) {
    return facts.rejectedMerge(edge);
  }
}
