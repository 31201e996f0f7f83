package org.cacheflow.codegen.build;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Pass 5b (after {@link StorageChoice}): software pipelining, when the plan gives vertices iteration offsets (skew):
 * in its core's loop pass p a vertex with skew r fires for graph iteration p - r. Checks what the generated code
 * relies on and gives a buffer one core uses across passes (users of different offsets) a copy per graph iteration
 * it holds at once ({@link StorageKind#PIPELINED}). Nothing to do when every offset is 0.
 *
 * <p>
 * Refused, naming a vertex (the planner never asks for these): a negative offset; a consumer with a smaller offset
 * than its producer; the barrier strategy (an iteration barrier would hold the earlier passes' vertices); several
 * nodes; a merge group several cores use whose users' offsets spread over as many iterations as it has slots (the
 * slot of iteration i would be reused while i is still in use); users of different offsets of a copy-on-write
 * buffer, a delay's state or an inter-node transfer, or on one core of a channel (their runtime objects and
 * pointers hold one iteration at a time); a buffer used across passes that an init prototype gets.
 */
final class Pipelining implements Pass {

  private BuildContext c;

  @Override
  public void run(BuildContext context) {
    this.c = context;
    for (int v = 0; v < c.skew.length; v++) {
      if (c.skew[v] < 0) {
        throw new IllegalStateException("vertex " + c.name(v) + " has the negative iteration offset " + c.skew[v]);
      }
    }
    if (c.maxSkew == 0) {
      return;
    }
    for (int e = 0; e < c.edges; e++) {
      int source = c.srdag.edgeSource(e);
      int target = c.srdag.edgeTarget(e);
      if (c.skew[target] < c.skew[source]) {
        throw new IllegalStateException("vertex " + c.name(target) + " has iteration offset " + c.skew[target]
            + ", less than its producer " + c.name(source) + "'s " + c.skew[source] + " (edge " + c.describe(e) + ")");
      }
    }
    int someVertex = firstSkewed();
    if (c.strategy.barrier()) {
      throw new IllegalStateException("vertex " + c.name(someVertex) + " has an iteration offset, but strategy "
          + c.strategy + " has an iteration barrier: pipelined loops need rdy-ack signalling");
    }
    if (c.plan.nodes() != 1) {
      throw new IllegalStateException("vertex " + c.name(someVertex) + " has an iteration offset, but the plan has "
          + c.plan.nodes() + " nodes: pipelined loops run on one node");
    }
    // per root, and per root and core, the least and greatest offset of its users and a user of each
    Map<Integer, int[]> range = new HashMap<>();
    Map<Long, int[]> rangeOnCore = new HashMap<>();
    for (int v = 0; v < c.srdag.vertexCount(); v++) {
      for (int[] side : c.uses(v)) {
        for (int r : side) {
          widen(range.computeIfAbsent(r, k -> new int[] {Integer.MAX_VALUE, -1, -1, -1}), v);
          widen(rangeOnCore.computeIfAbsent((long) r * 64 + c.plan.coreOf(v), k -> new int[] {Integer.MAX_VALUE, -1,
              -1, -1}), v);
        }
      }
    }
    for (Map.Entry<Long, int[]> entry : rangeOnCore.entrySet()) {
      int r = (int) (entry.getKey() / 64);
      int[] seen = entry.getValue();
      if (c.storage[r] == StorageKind.CHANNEL && seen[1] > seen[0]) {
        // its pointer and its one reserved (or acquired) slot would be needed by two graph iterations at once
        throw new IllegalStateException(mixed(seen[3], seen[1], seen[2], seen[0], "channel " + c.describeRoot(r)
            + " on core " + entry.getKey() % 64));
      }
    }
    Set<Integer> initRoots = c.rootsOfInitCalls();
    Map<Integer, int[]> cowRange = new HashMap<>();
    for (Map.Entry<Integer, int[]> entry : range.entrySet()) {
      int r = entry.getKey();
      int[] seen = entry.getValue();
      int spread = seen[1] - seen[0];
      StorageKind kind = c.storage[r];
      if (kind == null) {
        continue;
      }
      switch (kind) {
        case STATIC -> {
          if (spread > 0 && initRoots.contains(r)) {
            throw new IllegalStateException(mixed(seen[3], seen[1], seen[2], seen[0], "buffer " + c.describeRoot(r)
                + ", which an init prototype gets (one copy before the loop)"));
          }
          if (spread > 0) {
            c.storage[r] = StorageKind.PIPELINED;
            c.pipelinedCopies.put(r, spread + 1);
          }
        }
        case SHARED -> {
          if (spread >= c.groupSlots(r)) {
            throw new IllegalStateException("vertex " + c.name(seen[3]) + " has iteration offset " + seen[1]
                + " and vertex " + c.name(seen[2]) + " " + seen[0] + ", both using the merge group of "
                + c.describeRoot(r) + ", which has " + c.groupSlots(r) + " slots: the offsets of a shared group's"
                + " users must spread over fewer iterations than it has slots");
          }
        }
        case COW -> {
          int cow = r < c.cowOfRoot.length && c.cowOfRoot[r] >= 0 ? c.cowOfRoot[r] : c.cowOfView[r];
          String what = "copy-on-write buffer " + c.cows.get(cow).name();
          if (spread > 0) {
            throw new IllegalStateException(mixed(seen[3], seen[1], seen[2], seen[0], what));
          }
          int[] first = cowRange.computeIfAbsent(cow, k -> new int[] {seen[0], seen[2]});
          if (first[0] != seen[0]) {
            throw new IllegalStateException(mixed(seen[2], seen[0], first[1], first[0], what));
          }
        }
        case DOUBLE, CHANNEL, TRANSFER, SEMAPHORE -> {
          if (spread > 0 && (kind != StorageKind.CHANNEL || r >= c.edges)) {
            throw new IllegalStateException(mixed(seen[3], seen[1], seen[2], seen[0], kind == StorageKind.TRANSFER
                ? "inter-node transfer " + c.describeRoot(r) : "the state " + c.describeRoot(r)));
          }
        }
        default -> {
        }
      }
    }
  }

  /** Widens {least, greatest, a user of the least, a user of the greatest} by the vertex. */
  private void widen(int[] seen, int vertex) {
    if (c.skew[vertex] < seen[0]) {
      seen[0] = c.skew[vertex];
      seen[2] = vertex;
    }
    if (c.skew[vertex] > seen[1]) {
      seen[1] = c.skew[vertex];
      seen[3] = vertex;
    }
  }

  private String mixed(int vertex, int offset, int other, int otherOffset, String what) {
    return "vertex " + c.name(vertex) + " has iteration offset " + offset + " but vertex " + c.name(other) + " "
        + otherOffset + ", both using " + what + ": all its users must have one offset";
  }

  private int firstSkewed() {
    for (int v = 0; v < c.skew.length; v++) {
      if (c.skew[v] > 0) {
        return v;
      }
    }
    return 0;
  }
}
