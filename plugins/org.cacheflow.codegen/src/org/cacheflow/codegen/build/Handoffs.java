package org.cacheflow.codegen.build;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.cacheflow.codegen.model.Channel;
import org.cacheflow.codegen.model.Statement;
import org.cacheflow.codegen.model.Transfer;
import org.cacheflow.plan.strategy.PrestoreKind;

/**
 * The statements around a root's uses on a core in one iteration: before its first use, waiting for it (a
 * channel's reserve or acquire, a semaphore, a transfer's slot, a shared group's slot, a copy-on-write write or
 * view); after its last use, handing it on (commit or release, posts, pre-stores, sends, publications).
 */
final class Handoffs {

  private final BuildInput in;
  private final Roots roots;
  private final CowViews cow;
  private final Storage storage;
  private final Signals signals;
  private final Layout layout;
  private final Addresses addresses;

  Handoffs(BuildInput in, Roots roots, CowViews cow, Storage storage, Signals signals, Layout layout,
      Addresses addresses) {
    this.in = in;
    this.roots = roots;
    this.cow = cow;
    this.storage = storage;
    this.signals = signals;
    this.layout = layout;
    this.addresses = addresses;
  }

  /** What a core does before its first use of a root; {@code declared} receives the pointers it sets. */
  void before(BufferId r, int core, List<Statement> loop, Set<String> declared) {
    switch (storage.kind(r)) {
      case TRANSFER -> {
        Transfer transfer = layout.transferOfRoot().get(r);
        loop.add(transfer.sender() == core ? new Statement.TransferSendWait(transfer)
            : new Statement.TransferReceiveWait(transfer));
      }
      case CHANNEL -> {
        declared.add(addresses.pointer(r));
        Channel channel = layout.channelOfRoot().get(r);
        loop.add(channel.sender() == core ? new Statement.ChannelReserve(channel, addresses.pointer(r))
            : new Statement.ChannelAcquire(channel, addresses.pointer(r)));
      }
      case SEMAPHORE -> {
        if (storage.readerCore(r) == core) {
          loop.add(new Statement.SemaphoreWait(layout.semaphoreOfRoot().get(r), roots.describe(r)));
        }
      }
      case SHARED -> {
        // the slot of this iteration was used k iterations ago: every other core must be done with it
        slotSemaphores(r).forEach((pair, semaphore) -> {
          if (pair.to() == core) {
            loop.add(new Statement.SemaphoreWait(semaphore, "core " + pair.from() + " done with the slot of "
                + roots.name(r)));
          }
        });
      }
      case COW -> {
        declared.add(addresses.pointer(r));
        if (cow.isSource(r)) {
          loop.add(new Statement.CowWriteBegin(cow.cowOf(r), cowPart(r, core), addresses.pointer(r)));
        } else {
          loop.add(new Statement.CowAcquire(cow.viewOf(r.edge()), cow.viewIndex(r.edge()), addresses.pointer(r)));
        }
      }
      default -> {
      }
    }
  }

  /** What a core does after its last use of a root (for a copy-on-write memory it alone writes, its last write). */
  void after(BufferId r, int core, List<Statement> loop) {
    if (storage.handedOver(r) && storage.writerCore(r) == core && !r.delayState()) {
      beforeHandingOver(r, core, loop);
    }
    switch (storage.kind(r)) {
      case TRANSFER -> {
        Transfer transfer = layout.transferOfRoot().get(r);
        loop.add(transfer.sender() == core ? new Statement.TransferSend(transfer)
            : new Statement.TransferReceivePost(transfer));
      }
      case CHANNEL -> {
        Channel channel = layout.channelOfRoot().get(r);
        loop.add(channel.sender() == core ? new Statement.ChannelCommit(channel)
            : new Statement.ChannelRelease(channel));
      }
      case SEMAPHORE -> {
        if (storage.writerCore(r) == core) {
          loop.add(new Statement.SemaphorePost(layout.semaphoreOfRoot().get(r), roots.describe(r)));
        }
      }
      case SHARED -> slotSemaphores(r).forEach((pair, semaphore) -> {
        if (pair.from() == core) {
          loop.add(new Statement.SemaphorePost(semaphore, "core " + core + " done with the slot of " + roots.name(r)));
        }
      });
      case COW -> {
        if (cow.isSource(r)) {
          // this core's part is done this iteration (its last use, or its last write where it alone writes the
          // memory): once every part is published, the views may read it
          loop.add(new Statement.CowPublish(cow.cowOf(r), cowPart(r, core)));
        } else {
          loop.add(new Statement.CowRelease(cow.viewOf(r.edge()), cow.viewIndex(r.edge())));
        }
      }
      default -> {
      }
    }
  }

  /**
   * On the writer of data another core reads, before handing it over: a fence after copies that skipped the cache,
   * and the plan's pre-store (on one core a pre-store only adds write-backs).
   */
  private void beforeHandingOver(BufferId r, int core, List<Statement> loop) {
    if (storage.skipWritten(r)) {
      loop.add(new Statement.Fence());
    }
    PrestoreKind prestore = in.plan.prestore(r.edge(), roots.bytes(r));
    if (prestore != PrestoreKind.NONE) {
      loop.add(new Statement.Prestore(addresses.base(r, core, false), roots.bytes(r), prestore));
    }
  }

  private Map<CorePair, Integer> slotSemaphores(BufferId r) {
    return signals.slotSemaphores().getOrDefault(r, Map.of());
  }

  /** A copy-on-write buffer's writer part on a core: the core's rank among the cores that use its memory. */
  private int cowPart(BufferId r, int core) {
    return Long.bitCount(storage.users(r) & ((1L << core) - 1));
  }
}
