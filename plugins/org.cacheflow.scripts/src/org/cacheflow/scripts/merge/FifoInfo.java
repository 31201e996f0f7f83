package org.cacheflow.scripts.merge;

/**
 * A single-rate FIFO as the merger needs it.
 *
 * @param id the id its buffers carry ({@link org.cacheflow.scripts.BufferSpec#fifoId()})
 * @param producer name of the producing actor instance
 * @param consumer name of the consuming actor instance
 * @param sizeBits size of the FIFO in bits
 * @param mergeable its consumer port is READ_ONLY or UNUSED: the consumer never writes it
 * @param mergeAllowed false for FIFOs whose memory must stay their own (delays, persistent state)
 * @param producerAliases the producer is a fork, join, broadcast or roundbuffer: it writes nothing, its
 *     outputs are views of its inputs, so placing this FIFO over its input does not modify the input
 */
public record FifoInfo(String id, String producer, String consumer, long sizeBits, boolean mergeable,
    boolean mergeAllowed, boolean producerAliases) {

  /** A FIFO produced by an actor that computes (not a fork, join, broadcast or roundbuffer). */
  public FifoInfo(String id, String producer, String consumer, long sizeBits, boolean mergeable,
      boolean mergeAllowed) {
    this(id, producer, consumer, sizeBits, mergeable, mergeAllowed, false);
  }

  public long sizeBytes() {
    return (sizeBits + 7) / 8;
  }
}
