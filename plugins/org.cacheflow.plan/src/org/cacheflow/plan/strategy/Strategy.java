package org.cacheflow.plan.strategy;

/**
 * How one single-rate buffer's data moves: what the code generator emits for it. Parameters (pre-store kind,
 * channel slots, home core) are in {@link org.cacheflow.plan.memoryplan.BufferPlan}.
 */
public enum Strategy {
  /** Shares memory with other buffers (memory-script merge group): no copy, no allocation of its own. */
  ALIAS("alias"),
  /**
   * The producer writes the buffer and the consumer reads the same memory: nothing is copied (PREESM's
   * generated code does this for every actor-to-actor FIFO, across cores too, with shared memory).
   */
  DIRECT("direct"),
  /** The special vertex copies the data with {@code cf_copy} (memcpy). */
  MEMCPY("memcpy"),
  /**
   * The consumer gets a copy-on-write view of the special vertex's source buffer ({@code cow.h}): pages are
   * copied only when the consumer writes them.
   */
  COW("cow"),
  /** The special vertex copies with non-temporal (streaming) stores, {@code cf_ntm_copy}. */
  NTM("ntm"),
  /**
   * After the buffer is written (by its producer's firing, or by the special vertex's copy), a pre-store of
   * the kind given moves its lines down the hierarchy ({@code cf_prestore} / {@code cf_prestore_write}).
   */
  PRESTORE("prestore"),
  /**
   * A home-forwarded rdy-ack channel ({@code channel.h}) with k slots, homed at the consumer's core: the
   * producer fills a slot in place ({@code cf_channel_reserve / commit}), the consumer reads it in place
   * ({@code cf_channel_acquire / release}).
   */
  CHANNEL("channel"),
  /**
   * Producer and consumer run on different nodes (machines, MPI ranks): an MPI point-to-point transfer. The
   * producer's node writes the buffer in memory of its own (a special vertex copies into it) and sends it whole each
   * iteration; the consumer's node receives it into memory of its own and the consumer reads that copy. Never in a
   * merge group, never a copy-on-write view or a channel: nodes share no memory. Chosen for every buffer crossing
   * nodes and only for those; overrides cannot change it.
   */
  SEND("send");

  /** The name used in reports, JSON and overrides. */
  public final String label;

  Strategy(String label) {
    this.label = label;
  }

  /**
   * Whether the buffer's code is the same whichever core runs its producer and consumers (a merge, a direct buffer,
   * a plain or non-temporal copy), so that a firing dispatched to any core at run time keeps it; copy-on-write views,
   * pre-stores, channels and transfers depend on the cores of a static schedule.
   */
  public boolean holdsOnAnyCore() {
    return switch (this) {
      case ALIAS, DIRECT, MEMCPY, NTM -> true;
      default -> false;
    };
  }
}
