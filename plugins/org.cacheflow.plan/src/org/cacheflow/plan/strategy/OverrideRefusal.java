package org.cacheflow.plan.strategy;

/**
 * Why a per-FIFO override cannot apply to a buffer. A value; the report bundle words it.
 *
 * @param rule which refusal
 * @param vertex for {@link Rule#FILLED_BY_COPY}, the special vertex copying into the buffer; else -1
 * @param core for {@link Rule#SAME_CORE}, the core both ends run on; else -1
 * @param producerNode for {@link Rule#OTHER_NODES}, the producer's node; else -1
 * @param consumerNode for {@link Rule#OTHER_NODES}, the consumer's node; else -1
 * @param cow for {@link Rule#COW}, why no view can apply; else null
 */
public record OverrideRefusal(Rule rule, int vertex, int core, int producerNode, int consumerNode, CowRefusal cow) {

  /** Every reason an override cannot apply. */
  public enum Rule {
    /** Producer and consumer on different nodes: only {@code send} applies. */
    OTHER_NODES,
    /** {@code alias}: memory scripts did not merge it. */
    NOT_MERGED,
    /** {@code direct}: a special vertex fills it by copying and it is not merged. */
    FILLED_BY_COPY,
    /** {@code memcpy}/{@code ntm}: a delay's initial tokens, nothing copied. */
    DELAY_NOTHING_COPIED,
    /** {@code memcpy}/{@code ntm}: its producer writes it in place. */
    NOTHING_COPIED,
    /** {@code cow}: no view can apply ({@link #cow()}). */
    COW,
    /** {@code prestore}: a delay's initial tokens, written once. */
    DELAY_WRITTEN_ONCE,
    /** {@code channel}: both ends on one core. */
    SAME_CORE,
    /** {@code channel}: it shares memory with its merge group. */
    MERGED,
    /** {@code channel}: it carries a delay's tokens. */
    DELAY_TOKENS,
    /** {@code send}: both ends on one node. */
    ONE_NODE,
    /** It hosts its merge group's other buffers: override those. */
    HOSTS_GROUP
  }

  /** A refusal without figures. */
  static OverrideRefusal of(Rule rule) {
    return new OverrideRefusal(rule, -1, -1, -1, -1, null);
  }
}
