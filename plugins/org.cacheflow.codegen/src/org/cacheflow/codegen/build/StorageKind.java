package org.cacheflow.codegen.build;

/** How a root buffer is kept and handed between cores ({@link StorageChoice}). */
enum StorageKind {
  /** A static array one core uses. */
  STATIC,
  /** A static array one core writes and another reads, signalled with a semaphore (baseline). */
  SEMAPHORE,
  /** A rdy-ack channel from its writer core to its reader core. */
  CHANNEL,
  /** A copy-on-write buffer or one of its views. */
  COW,
  /** A persistent delay's state used on one core (or under the barrier): two copies, read and written. */
  DOUBLE,
  /** A merge group several cores use: k slots, semaphores per cross-core edge and per pair of cores. */
  SHARED,
  /** An inter-node transfer (MPI). */
  TRANSFER,
  /**
   * One core's buffer used across passes of its pipelined loop (its users have different iteration offsets): one
   * copy per graph iteration it holds at once (the spread of its users' offsets plus one), iteration i in copy
   * i % copies; never pooled.
   */
  PIPELINED
}
