package org.cacheflow.codegen.build;

import org.cacheflow.codegen.model.BufferRef;
import org.cacheflow.codegen.model.Transfer;

/**
 * Where a buffer's bytes are on a core in the current iteration: a static array, the iteration's slot or copy, a
 * delay state's read or written copy, or the pointer a channel or copy-on-write buffer hands out.
 */
final class Addresses {

  private final BuildInput in;
  private final Roots roots;
  private final CowViews cow;
  private final Storage storage;
  private final Layout layout;

  Addresses(BuildInput in, Roots roots, CowViews cow, Storage storage, Layout layout) {
    this.in = in;
    this.roots = roots;
    this.cow = cow;
    this.storage = storage;
    this.layout = layout;
  }

  /** The C pointer that holds a channel's or copy-on-write buffer's bytes for the iteration. */
  String pointer(BufferId root) {
    if (!root.delayState() && cow.isView(root.edge())) {
      return "p_" + cow.viewOf(root.edge()).name() + "_v" + cow.viewIndex(root.edge());
    }
    return "p_" + roots.name(root);
  }

  /** Where a root's first byte is on a core this iteration; for a delay state, the copy read or written. */
  BufferRef base(BufferId root, int core, boolean delayWrite) {
    String name = roots.name(root);
    return switch (storage.kind(root)) {
      case STATIC, SEMAPHORE -> BufferRef.of(name);
      case DOUBLE -> BufferRef.of(new BufferRef.DelayCopy(name, roots.bytes(root), delayWrite));
      case PIPELINED -> BufferRef.of(new BufferRef.IterationSlot(name, storage.pipelinedCopies(root),
          roots.bytes(root)));
      case SHARED -> {
        int slots = in.plan.groupSlots(root.edge());
        yield slots == 1 ? BufferRef.of(name) : BufferRef.of(new BufferRef.IterationSlot(name, slots,
            roots.bytes(root)));
      }
      case TRANSFER -> {
        // the sender writes its send slot, the receiver reads its receive slot in place: iteration i in slot i % k
        Transfer transfer = layout.transferOfRoot().get(root);
        String slots = transfer.sender() == core ? transfer.sendBuffer() : transfer.receiveBuffer();
        yield BufferRef.of(new BufferRef.IterationSlot(slots, transfer.slots(), roots.bytes(root)));
      }
      default -> BufferRef.of(pointer(root));
    };
  }

  /** Where an edge's first byte is on a core this iteration. */
  BufferRef of(int edge, int core) {
    return base(roots.root(edge), core, false).plus(roots.offset(edge));
  }

  /** Where byte {@code offset} of a buffer is on a core: a delay state's copy read, or written. */
  BufferRef of(BufferId buffer, long offset, int core, boolean delayWrite) {
    return buffer.delayState() ? base(buffer, core, delayWrite) : of(buffer.edge(), core).plus(offset);
  }
}
