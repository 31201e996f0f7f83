package org.cacheflow.codegen.build;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.cacheflow.codegen.model.Channel;
import org.cacheflow.codegen.model.StaticBuffer;
import org.cacheflow.codegen.model.Transfer;

/**
 * Pass 6: the memory of every root as its storage asks: static arrays (buffers only one core uses share that
 * core's pool when their lifetimes within an iteration do not overlap), double-buffered delay states, the k slots
 * of shared merge groups, channels, inter-node transfers with their send and receive slots, the semaphores of
 * baseline hand-offs; and the heap that holds them.
 */
final class BufferLayout implements Pass {

  private BuildContext c;

  @Override
  public void run(BuildContext context) {
    this.c = context;
    Map<Integer, long[]> pooled = new HashMap<>();
    long[] poolBytes = pools(pooled);
    for (int r = 0; r < c.roots; r++) {
      if (c.storage[r] == null) {
        continue;
      }
      long bytes = c.rootBytes(r);
      long[] place = pooled.get(r);
      switch (c.storage[r]) {
        case STATIC, SEMAPHORE -> c.buffers.add(place == null
            ? new StaticBuffer(c.rootName(r), bytes, 1, c.homeCore(r), c.describeRoot(r))
            : new StaticBuffer(c.rootName(r), bytes, 1, c.homeCore(r), c.describeRoot(r), poolName((int) place[0]),
                place[1]));
        case DOUBLE -> c.buffers.add(new StaticBuffer(c.rootName(r), bytes, 2, c.homeCore(r), c.describeRoot(r)));
        case PIPELINED -> c.buffers.add(new StaticBuffer(c.rootName(r), bytes, c.pipelinedCopies.get(r), c.homeCore(r),
            c.describeRoot(r) + " (used across passes of the pipelined loop: a copy per iteration in use)"));
        case SHARED -> {
          String why = c.plan.groupSlotsWhy(r);
          c.buffers.add(new StaticBuffer(c.rootName(r), bytes, c.groupSlots(r), c.homeCore(r),
              c.describeRoot(r) + " (merge group used by cores "
              + BuildContext.coreList(c.writerMask[r] | c.readerMask[r]) + (why.isEmpty() ? "" : "; " + why) + ")"));
        }
        case TRANSFER -> {
          int slots = transferSlots(r);
          Transfer transfer = new Transfer(c.transfers.size(), c.rootName(r), c.rootName(r) + "_send", c.rootName(r),
              bytes, slots, c.writerCore[r], c.readerCore[r], c.plan.nodeOf(c.writerCore[r]),
              c.plan.nodeOf(c.readerCore[r]), c.transfers.size(), c.describeRoot(r));
          c.transfers.add(transfer);
          c.transferOfRoot.put(r, transfer);
          c.buffers.add(new StaticBuffer(transfer.sendBuffer(), bytes, slots, c.writerCore[r], c.describeRoot(r)
              + " (send slots of transfer to node " + transfer.receiverNode() + ")"));
          c.buffers.add(new StaticBuffer(transfer.receiveBuffer(), bytes, slots, c.readerCore[r], c.describeRoot(r)
              + " (receive slots of transfer from node " + transfer.senderNode() + ")"));
        }
        case CHANNEL -> {
          Channel channel = new Channel(c.channels.size(), "ch_" + c.rootName(r), c.writerCore[r], c.readerCore[r],
              r >= c.edges ? Math.max(2, c.strategy.slots()) : Math.max(1, c.plan.slots(r)), bytes, r >= c.edges,
              c.describeRoot(r));
          c.channels.add(channel);
          c.channelOfRoot.put(r, channel);
        }
        default -> {
        }
      }
      if (c.storage[r] == StorageKind.SEMAPHORE) {
        c.semaphoreOfRoot.put(r, c.newSemaphore(0));
      }
    }
    for (int core = 0; core < poolBytes.length; core++) {
      if (poolBytes[core] > 0) {
        final int home = core;
        long members = pooled.values().stream().filter(place -> place[0] == home).count();
        c.buffers.add(new StaticBuffer(poolName(core), poolBytes[core], 1, core, members + " buffers of core " + core
            + " whose lifetimes within an iteration do not overlap share it"));
      }
    }
    long heapBytes = 16L << 20;
    for (StaticBuffer buffer : c.buffers) {
      if (!buffer.allocated()) {
        continue;
      }
      // address space only (pages are touched when allocated): twice the block, plus the chunk a block
      // spanning several chunks may leave unused
      heapBytes = Math.addExact(heapBytes, Math.addExact(Math.multiplyExact(2, (buffer.totalBytes() + 127) / 64 * 64),
          1L << 20));
    }
    c.heapBytes = Math.addExact(heapBytes, (long) c.plan.cores() * (4L << 20));
  }

  /**
   * Slots of an inter-node transfer: the plan's k for the buffer, at least 2 so that the sender can fill the next
   * iteration's slot while the last message is on its way (the iteration barrier, where there is one, holds only
   * the cores of one node).
   */
  private int transferSlots(int r) {
    return Math.max(2, c.plan.slots(r));
  }

  private static String poolName(int core) {
    return "pool" + core;
  }

  /**
   * Places the buffers only one core uses in that core's pool: within an iteration a core runs its order once,
   * so a buffer is live from its first to its last use there, and buffers whose spans do not meet can take
   * the same bytes (as PREESM's memory allocation reuses memory). A buffer the same vertex last reads and
   * another first writes never share. Left out: buffers an init call uses (they live before the loop), and
   * buffers not wholly written every iteration (what was not written would be another buffer's data, which
   * varies with the strategy). First fit by offset, in order of first use; deterministic.
   *
   * @param placement receives, per pooled root, {core, offset}
   * @return per core, the pool's size (0: no pool)
   */
  private long[] pools(Map<Integer, long[]> placement) {
    Set<Integer> initRoots = c.rootsOfInitCalls();
    boolean[] covered = whollyWritten();
    long[] sizes = new long[c.plan.cores()];
    for (int core = 0; core < c.plan.cores(); core++) {
      Map<Integer, int[]> span = spans(core);
      List<Integer> candidates = new ArrayList<>();
      for (int r : span.keySet()) {
        if (c.storage[r] == StorageKind.STATIC && c.homeCore(r) == core && !initRoots.contains(r) && r < c.edges
            && covered[r]) {
          candidates.add(r);
        }
      }
      if (candidates.size() < 2) {
        continue;
      }
      candidates.sort(java.util.Comparator.comparingInt((Integer r) -> span.get(r)[0]).thenComparingInt(r -> r));
      // blocks still live, by offset: {offset, end, index of the last use}
      List<long[]> live = new ArrayList<>();
      long size = 0;
      for (int r : candidates) {
        int first = span.get(r)[0];
        live.removeIf(block -> block[2] < first);
        long bytes = (c.rootBytes(r) + 63) / 64 * 64;
        long offset = 0;
        int at = 0;
        while (at < live.size() && live.get(at)[0] - offset < bytes) {
          offset = live.get(at)[1];
          at++;
        }
        live.add(at, new long[] {offset, offset + bytes, span.get(r)[1]});
        placement.put(r, new long[] {core, offset});
        size = Math.max(size, offset + bytes);
      }
      sizes[core] = size;
    }
    return sizes;
  }

  /**
   * Per root, whether every byte of it is written each iteration, by actor firings (whole outputs, where they
   * lie in the root) or by copies.
   */
  private boolean[] whollyWritten() {
    List<List<long[]>> written = new ArrayList<>(java.util.Collections.nCopies(c.roots, (List<long[]>) null));
    java.util.function.BiConsumer<Integer, long[]> add = (r, range) -> {
      if (written.get(r) == null) {
        written.set(r, new ArrayList<>());
      }
      written.get(r).add(range);
    };
    for (int e = 0; e < c.edges; e++) {
      if (!c.isSpecial(c.srdag.edgeSource(e))) {
        add.accept(c.root(e), new long[] {c.rootOffset(e), c.rootOffset(e) + c.srdag.edgeBytes(e)});
      }
    }
    for (List<Move> list : c.moves) {
      for (Move move : list) {
        if (move.destination() < c.edges) {
          long start = c.rootOffset(move.destination()) + move.destinationOffset();
          add.accept(c.root(move.destination()), new long[] {start, start + move.bytes()});
        }
      }
    }
    boolean[] whole = new boolean[c.roots];
    for (int r = 0; r < c.edges; r++) {
      List<long[]> ranges = written.get(r);
      if (ranges == null) {
        continue;
      }
      whole[r] = ByteRanges.cover(ranges, c.rootBytes(r));
    }
    return whole;
  }

  /**
   * Per root a core uses, the indices in the core's order of its first and last use. By position alone, also in a
   * pipelined loop: pools hold only {@link StorageKind#STATIC} roots, whose users share one offset, so their
   * lifetimes lie within one pass, where the positions order them.
   */
  private Map<Integer, int[]> spans(int core) {
    int[] order = c.plan.order(core);
    Map<Integer, int[]> span = new HashMap<>();
    for (int i = 0; i < order.length; i++) {
      for (int[] side : c.uses(order[i])) {
        for (int r : side) {
          int[] s = span.computeIfAbsent(r, k -> new int[] {Integer.MAX_VALUE, -1});
          s[0] = Math.min(s[0], i);
          s[1] = Math.max(s[1], i);
        }
      }
    }
    return span;
  }
}
