package org.cacheflow.codegen.build;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Software pipelining, when the plan gives vertices iteration offsets (skew): in its core's loop pass p a vertex
 * with skew r fires for graph iteration p - r. Checks what the generated code relies on and gives a buffer one core
 * uses across passes (users of different offsets) a copy per graph iteration it holds at once
 * ({@link StorageKind#PIPELINED}). Nothing to do when every offset is 0.
 *
 * <p>
 * Refused, naming a vertex (the planner never asks for these): a negative offset; a consumer with a smaller offset
 * than its producer; the barrier strategy (an iteration barrier would hold the earlier passes' vertices); several
 * nodes; a merge group several cores use whose users' offsets spread over as many iterations as it has slots (the
 * slot of iteration i would be reused while i is still in use); users of different offsets of a copy-on-write
 * buffer, a delay's state or an inter-node transfer, or on one core of a channel (their runtime objects and
 * pointers hold one iteration at a time); a buffer used across passes that an init prototype gets.
 */
final class Pipelining {

  /** The least and greatest iteration offset among a buffer's users, and a user with each. */
  record OffsetRange(int least, int greatest, int leastUser, int greatestUser) {

    static OffsetRange of(int offset, int vertex) {
      return new OffsetRange(offset, offset, vertex, vertex);
    }

    OffsetRange widen(int offset, int vertex) {
      return new OffsetRange(Math.min(least, offset), Math.max(greatest, offset), offset < least ? vertex : leastUser,
          offset > greatest ? vertex : greatestUser);
    }

    /** How many iterations the users' offsets spread over, less one. */
    int spread() {
      return greatest - least;
    }
  }

  /** A root as one core uses it. */
  private record RootOnCore(BufferId root, int core) {
  }

  private final BuildInput in;
  private final Roots roots;
  private final CowViews cow;

  private Pipelining(BuildInput in, Roots roots, CowViews cow) {
    this.in = in;
    this.roots = roots;
    this.cow = cow;
  }

  /**
   * The storage with the roots used across passes made {@link StorageKind#PIPELINED}.
   *
   * @throws IllegalStateException when the offsets ask for what the generated code cannot do
   */
  static Storage apply(BuildInput in, Roots roots, CowViews cow, RootUses uses, Storage storage,
      Set<BufferId> initRoots) {
    Pipelining pipelining = new Pipelining(in, roots, cow);
    pipelining.checkOffsets();
    if (in.maxSkew == 0) {
      return storage;
    }
    pipelining.checkSetting();
    Map<BufferId, OffsetRange> range = new LinkedHashMap<>();
    Map<RootOnCore, OffsetRange> rangeOnCore = new LinkedHashMap<>();
    for (int v = 0; v < in.srdag.vertexCount(); v++) {
      int offset = in.skew(v);
      int vertex = v;
      for (BufferId r : uses.of(v).both()) {
        range.merge(r, OffsetRange.of(offset, v), (old, x) -> old.widen(offset, vertex));
        rangeOnCore.merge(new RootOnCore(r, in.plan.coreOf(v)), OffsetRange.of(offset, v),
            (old, x) -> old.widen(offset, vertex));
      }
    }
    rangeOnCore.forEach((use, seen) -> pipelining.checkChannelOnCore(use, seen, storage));
    return storage.withPipelined(pipelining.copies(range, storage, initRoots));
  }

  /** No negative offset, and no consumer with a smaller offset than its producer. */
  private void checkOffsets() {
    for (int v = 0; v < in.srdag.vertexCount(); v++) {
      if (in.skew(v) < 0) {
        throw new IllegalStateException("vertex " + in.name(v) + " has the negative iteration offset " + in.skew(v));
      }
    }
    if (in.maxSkew == 0) {
      return;
    }
    for (int e = 0; e < in.edges; e++) {
      int source = in.srdag.edgeSource(e);
      int target = in.srdag.edgeTarget(e);
      if (in.skew(target) < in.skew(source)) {
        throw new IllegalStateException("vertex " + in.name(target) + " has iteration offset " + in.skew(target)
            + ", less than its producer " + in.name(source) + "'s " + in.skew(source) + " (edge " + in.describe(e)
            + ")");
      }
    }
  }

  /** Pipelined loops need rdy-ack signalling on one node. */
  private void checkSetting() {
    int someVertex = firstSkewed();
    if (in.strategy.barrier()) {
      throw new IllegalStateException("vertex " + in.name(someVertex) + " has an iteration offset, but strategy "
          + in.strategy + " has an iteration barrier: pipelined loops need rdy-ack signalling");
    }
    if (in.plan.nodes() != 1) {
      throw new IllegalStateException("vertex " + in.name(someVertex) + " has an iteration offset, but the plan has "
          + in.plan.nodes() + " nodes: pipelined loops run on one node");
    }
  }

  private void checkChannelOnCore(RootOnCore use, OffsetRange seen, Storage storage) {
    if (storage.kind(use.root()) == StorageKind.CHANNEL && seen.spread() > 0) {
      // its pointer and its one reserved (or acquired) slot would be needed by two graph iterations at once
      throw new IllegalStateException(mixed(seen, "channel " + roots.describe(use.root()) + " on core " + use.core()));
    }
  }

  /** Per root one core uses across passes, its copies; refuses the roots whose users must share one offset. */
  private Map<BufferId, Integer> copies(Map<BufferId, OffsetRange> range, Storage storage, Set<BufferId> initRoots) {
    Map<BufferId, Integer> copies = new HashMap<>();
    Map<Integer, OffsetRange> cowRange = new HashMap<>();
    range.forEach((r, seen) -> {
      StorageKind kind = storage.kind(r);
      if (kind == null) {
        return;
      }
      switch (kind) {
        case STATIC -> {
          if (seen.spread() > 0 && initRoots.contains(r)) {
            throw new IllegalStateException(mixed(seen, "buffer " + roots.describe(r)
                + ", which an init prototype gets (one copy before the loop)"));
          }
          if (seen.spread() > 0) {
            copies.put(r, seen.spread() + 1);
          }
        }
        case SHARED -> checkSharedGroup(r, seen);
        case COW -> checkCopyOnWrite(r, seen, cowRange);
        case DOUBLE, CHANNEL, TRANSFER, SEMAPHORE -> {
          if (seen.spread() > 0 && (kind != StorageKind.CHANNEL || r.delayState())) {
            throw new IllegalStateException(mixed(seen, kind == StorageKind.TRANSFER
                ? "inter-node transfer " + roots.describe(r) : "the state " + roots.describe(r)));
          }
        }
        default -> {
        }
      }
    });
    return copies;
  }

  private void checkSharedGroup(BufferId r, OffsetRange seen) {
    int slots = in.plan.groupSlots(r.edge());
    if (seen.spread() >= slots) {
      throw new IllegalStateException("vertex " + in.name(seen.greatestUser()) + " has iteration offset "
          + seen.greatest() + " and vertex " + in.name(seen.leastUser()) + " " + seen.least()
          + ", both using the merge group of " + roots.describe(r) + ", which has " + slots + " slots: the offsets"
          + " of a shared group's users must spread over fewer iterations than it has slots");
    }
  }

  /** Every user of a copy-on-write buffer's memory and views has one offset. */
  private void checkCopyOnWrite(BufferId r, OffsetRange seen, Map<Integer, OffsetRange> cowRange) {
    String what = "copy-on-write buffer " + cow.cowOf(r).name();
    if (seen.spread() > 0) {
      throw new IllegalStateException(mixed(seen, what));
    }
    OffsetRange first = cowRange.computeIfAbsent(cow.cowOf(r).index(), k -> seen);
    if (first.least() != seen.least()) {
      throw new IllegalStateException(mixed(seen.leastUser(), seen.least(), first.leastUser(), first.least(), what));
    }
  }

  private String mixed(OffsetRange seen, String what) {
    return mixed(seen.greatestUser(), seen.greatest(), seen.leastUser(), seen.least(), what);
  }

  private String mixed(int vertex, int offset, int other, int otherOffset, String what) {
    return "vertex " + in.name(vertex) + " has iteration offset " + offset + " but vertex " + in.name(other) + " "
        + otherOffset + ", both using " + what + ": all its users must have one offset";
  }

  private int firstSkewed() {
    for (int v = 0; v < in.srdag.vertexCount(); v++) {
      if (in.skew(v) > 0) {
        return v;
      }
    }
    return 0;
  }
}
