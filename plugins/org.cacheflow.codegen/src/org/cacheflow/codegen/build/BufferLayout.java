package org.cacheflow.codegen.build;

import static org.cacheflow.plan.memoryplan.ProgramMemory.saturatedAdd;
import static org.cacheflow.plan.memoryplan.ProgramMemory.saturatedMultiply;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.cacheflow.codegen.model.Channel;
import org.cacheflow.codegen.model.StaticBuffer;
import org.cacheflow.codegen.model.Transfer;

/**
 * The memory of every root as its storage asks: static arrays (buffers only one core uses share that core's pool
 * when their lifetimes within an iteration do not overlap), double-buffered delay states, the k slots of shared
 * merge groups, channels, inter-node transfers with their send and receive slots, the semaphores of baseline
 * hand-offs; and the heap that holds them.
 */
final class BufferLayout {

  /** The allocator's alignment: every block starts and ends on a multiple of it. */
  private static final int ALIGNMENT = 64;

  /** Where a pooled root lies: in which core's pool, at which byte. */
  private record PoolPlace(int core, long offset) {
  }

  /** The positions in a core's order of a root's first and last use there. */
  private record Span(int first, int last) {
  }

  /** A pooled root's block while it is live: its bytes and the position of its last use. */
  private record Block(long offset, long end, int lastUse) {
  }

  private final BuildInput in;
  private final Roots roots;
  private final Storage storage;
  private final RootUses uses;
  private final List<StaticBuffer> buffers = new ArrayList<>();
  private final List<Channel> channels = new ArrayList<>();
  private final List<Transfer> transfers = new ArrayList<>();
  private final Map<BufferId, Channel> channelOfRoot = new HashMap<>();
  private final Map<BufferId, Transfer> transferOfRoot = new HashMap<>();
  private final Map<BufferId, Integer> semaphoreOfRoot = new HashMap<>();
  private final List<Integer> semaphoreStarts;

  private BufferLayout(BuildInput in, Roots roots, Storage storage, RootUses uses, List<Integer> semaphoreStarts) {
    this.in = in;
    this.roots = roots;
    this.storage = storage;
    this.uses = uses;
    this.semaphoreStarts = new ArrayList<>(semaphoreStarts);
  }

  /**
   * Lays out the roots.
   *
   * @param semaphoreStarts the semaphores made so far; the baseline's hand-offs get theirs after them
   */
  static Layout of(BuildInput in, Roots roots, Storage storage, RootUses uses, Set<BufferId> initRoots,
      List<Integer> semaphoreStarts) {
    return new BufferLayout(in, roots, storage, uses, semaphoreStarts).lay(initRoots);
  }

  private Layout lay(Set<BufferId> initRoots) {
    Map<BufferId, PoolPlace> pooled = new HashMap<>();
    long[] poolBytes = pools(initRoots, pooled);
    for (BufferId r : roots.everyBuffer()) {
      if (storage.kind(r) != null) {
        place(r, pooled.get(r));
      }
    }
    for (int core = 0; core < poolBytes.length; core++) {
      if (poolBytes[core] > 0) {
        final int home = core;
        long members = pooled.values().stream().filter(place -> place.core() == home).count();
        buffers.add(new StaticBuffer(poolName(core), poolBytes[core], 1, core, members + " buffers of core " + core
            + " whose lifetimes within an iteration do not overlap share it"));
      }
    }
    return new Layout(List.copyOf(buffers), List.copyOf(channels), List.copyOf(transfers), channelOfRoot,
        transferOfRoot, semaphoreOfRoot, List.copyOf(semaphoreStarts), heapBytes());
  }

  /** The memory of one root, as its storage asks ({@code pool}: its place in a pool, or null). */
  private void place(BufferId r, PoolPlace pool) {
    long bytes = roots.bytes(r);
    String name = roots.name(r);
    String what = roots.describe(r);
    int home = storage.homeCore(r);
    switch (storage.kind(r)) {
      case STATIC, SEMAPHORE -> buffers.add(pool == null ? new StaticBuffer(name, bytes, 1, home, what)
          : new StaticBuffer(name, bytes, 1, home, what, poolName(pool.core()), pool.offset()));
      case DOUBLE -> buffers.add(new StaticBuffer(name, bytes, 2, home, what));
      case PIPELINED -> buffers.add(new StaticBuffer(name, bytes, storage.pipelinedCopies(r), home,
          what + " (used across passes of the pipelined loop: a copy per iteration in use)"));
      case SHARED -> {
        String why = in.plan.groupSlotsWhy(r.edge());
        buffers.add(new StaticBuffer(name, bytes, in.plan.groupSlots(r.edge()), home, what
            + " (merge group used by cores " + Cores.list(storage.users(r)) + (why.isEmpty() ? "" : "; " + why) + ")"));
      }
      case TRANSFER -> transfer(r, bytes);
      case CHANNEL -> {
        Channel channel = new Channel(channels.size(), "ch_" + name, storage.writerCore(r), storage.readerCore(r),
            r.delayState() ? Math.max(2, in.strategy.slots()) : Math.max(1, in.plan.slots(r.edge())), bytes,
            r.delayState(), what);
        channels.add(channel);
        channelOfRoot.put(r, channel);
      }
      default -> {
      }
    }
    if (storage.kind(r) == StorageKind.SEMAPHORE) {
      semaphoreOfRoot.put(r, semaphoreStarts.size());
      semaphoreStarts.add(0);
    }
  }

  /**
   * An inter-node transfer and its send and receive slots: the plan's k for the buffer, at least 2 so that the
   * sender can fill the next iteration's slot while the last message is on its way (the iteration barrier, where
   * there is one, holds only the cores of one node).
   */
  private void transfer(BufferId r, long bytes) {
    int slots = Math.max(2, in.plan.slots(r.edge()));
    String name = roots.name(r);
    int sender = storage.writerCore(r);
    int receiver = storage.readerCore(r);
    Transfer transfer = new Transfer(transfers.size(), name, name + "_send", name, bytes, slots, sender, receiver,
        in.plan.nodeOf(sender), in.plan.nodeOf(receiver), transfers.size(), roots.describe(r));
    transfers.add(transfer);
    transferOfRoot.put(r, transfer);
    buffers.add(new StaticBuffer(transfer.sendBuffer(), bytes, slots, sender, roots.describe(r)
        + " (send slots of transfer to node " + transfer.receiverNode() + ")"));
    buffers.add(new StaticBuffer(transfer.receiveBuffer(), bytes, slots, receiver, roots.describe(r)
        + " (receive slots of transfer from node " + transfer.senderNode() + ")"));
  }

  /**
   * The address space the allocator reserves (pages are touched when allocated): per allocated buffer twice its
   * aligned block plus the chunk a block spanning several chunks may leave unused, and slack per core.
   */
  private long heapBytes() {
    long heapBytes = 16L << 20;
    for (StaticBuffer buffer : buffers) {
      if (buffer.allocated()) {
        long all = saturatedMultiply(buffer.bytes(), buffer.copies());
        long block = saturatedMultiply(aligned(saturatedAdd(all, 64)), 2);
        heapBytes = saturatedAdd(heapBytes, saturatedAdd(block, 1L << 20));
      }
    }
    // absurd sizes saturate: the generated program refuses them at start (cf_gen_check_memory)
    return saturatedAdd(heapBytes, (long) in.plan.cores() * (4L << 20));
  }


  /** Bytes rounded up to the allocator's alignment. */
  private static long aligned(long bytes) {
    return bytes > Long.MAX_VALUE - ALIGNMENT ? Long.MAX_VALUE : (bytes + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
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
   * @param placement receives, per pooled root, its place
   * @return per core, the pool's size (0: no pool)
   */
  private long[] pools(Set<BufferId> initRoots, Map<BufferId, PoolPlace> placement) {
    boolean[] covered = whollyWritten();
    long[] sizes = new long[in.plan.cores()];
    for (int core = 0; core < in.plan.cores(); core++) {
      Map<BufferId, Span> span = spans(core);
      List<BufferId> candidates = new ArrayList<>();
      for (BufferId r : span.keySet()) {
        if (storage.kind(r) == StorageKind.STATIC && storage.homeCore(r) == core && !initRoots.contains(r)
            && !r.delayState() && covered[r.index()]) {
          candidates.add(r);
        }
      }
      if (candidates.size() >= 2) {
        sizes[core] = firstFit(core, candidates, span, placement);
      }
    }
    return sizes;
  }

  /** Places the candidates in the core's pool, first fit by offset in order of first use; the pool's size. */
  private long firstFit(int core, List<BufferId> candidates, Map<BufferId, Span> span,
      Map<BufferId, PoolPlace> placement) {
    candidates.sort(Comparator.comparingInt((BufferId r) -> span.get(r).first()).thenComparing(r -> r));
    List<Block> live = new ArrayList<>(); // by offset
    long size = 0;
    for (BufferId r : candidates) {
      int first = span.get(r).first();
      live.removeIf(block -> block.lastUse() < first);
      long bytes = aligned(roots.bytes(r));
      long offset = 0;
      int at = 0;
      while (at < live.size() && live.get(at).offset() - offset < bytes) {
        offset = live.get(at).end();
        at++;
      }
      live.add(at, new Block(offset, offset + bytes, span.get(r).last()));
      placement.put(r, new PoolPlace(core, offset));
      size = Math.max(size, offset + bytes);
    }
    return size;
  }

  /**
   * Per buffer index, whether every byte of the root is written each iteration, by actor firings (whole outputs,
   * where they lie in the root) or by copies.
   */
  private boolean[] whollyWritten() {
    List<List<ByteRange>> written = new ArrayList<>(Collections.nCopies(in.buffers(), (List<ByteRange>) null));
    for (int e = 0; e < in.edges; e++) {
      if (!in.isSpecial(in.srdag.edgeSource(e))) {
        long start = roots.offset(e);
        add(written, roots.root(e), new ByteRange(start, start + in.srdag.edgeBytes(e)));
      }
    }
    for (int v = 0; v < in.srdag.vertexCount(); v++) {
      for (Move move : uses.moves(v)) {
        if (!move.destination().delayState()) {
          long start = roots.offset(move.destination().edge()) + move.destinationOffset();
          add(written, roots.root(move.destination()), new ByteRange(start, start + move.bytes()));
        }
      }
    }
    boolean[] whole = new boolean[in.buffers()];
    for (int r = 0; r < in.edges; r++) {
      List<ByteRange> ranges = written.get(r);
      whole[r] = ranges != null && ByteRanges.cover(ranges, roots.bytes(BufferId.edge(r)));
    }
    return whole;
  }

  private static void add(List<List<ByteRange>> written, BufferId root, ByteRange range) {
    if (written.get(root.index()) == null) {
      written.set(root.index(), new ArrayList<>());
    }
    written.get(root.index()).add(range);
  }

  /**
   * Per root a core uses, the positions in the core's order of its first and last use. By position alone, also in a
   * pipelined loop: pools hold only {@link StorageKind#STATIC} roots, whose users share one offset, so their
   * lifetimes lie within one pass, where the positions order them.
   */
  private Map<BufferId, Span> spans(int core) {
    int[] order = in.plan.order(core);
    Map<BufferId, Span> span = new HashMap<>();
    for (int i = 0; i < order.length; i++) {
      int at = i;
      for (BufferId r : uses.of(order[i]).both()) {
        span.merge(r, new Span(at, at), (old, x) -> new Span(Math.min(old.first(), at), Math.max(old.last(), at)));
      }
    }
    return span;
  }
}
