package org.cacheflow.plan.memoryplan;

import org.cacheflow.plan.classify.BufferClass;
import org.cacheflow.plan.classify.BufferOrigin;
import org.cacheflow.plan.classify.ClassRule;
import org.cacheflow.plan.strategy.Decision;
import org.cacheflow.plan.strategy.PrestoreKind;
import org.cacheflow.plan.strategy.Strategy;

/**
 * The plan for one single-rate buffer (one edge of the single-rate graph): what the code generator emits.
 *
 * @param edge the single-rate edge
 * @param fifo the flat FIFO it belongs to
 * @param producer the vertex writing it (a firing, or the special vertex copying into it)
 * @param consumer the vertex reading it
 * @param bytes bytes it carries per iteration
 * @param bufferClass its class
 * @param classRule the rule that gave it that class (its evidence: {@link
 * org.cacheflow.plan.classify.Classification#evidence})
 * @param origin who fills it: the producer in place, a special vertex's copy, or a delay
 * @param crossCore whether producer and consumer run on different cores
 * @param producerCore the producer's core (index into the platform)
 * @param consumerCore the consumer's core
 * @param strategy how its data moves
 * @param prestore for PRESTORE the pre-store after writing; for CHANNEL the homing of the sender; else NONE
 * @param slots for CHANNEL the slot count k; else 0
 * @param homeCore the core whose caches the buffer should live in (first touch): the consumer's for a
 *     channel, the writer's otherwise
 * @param mergeRoot the edge whose memory holds it when it is in a merge group (itself for the root), else -1
 * @param baselineBytesCopied bytes the baseline (PREESM-like) code copies into it per iteration
 * @param bytesCopied bytes this plan copies into it per iteration (copy-on-write: pages consumers write are
 *     not counted, they are not known statically)
 * @param footprintBytes memory this plan allocates for it (0 when it lives in another buffer's memory; k
 *     slots for a channel)
 * @param rereadBytes bytes touched between its write and its read (see ReuseDistances)
 * @param rewriteBytes bytes its writer's core touches before writing it again
 * @param overridden whether a per-FIFO override chose the strategy
 * @param decision why this strategy: the rule that fired, with the figures behind it
 * @param specialCopy whether a special vertex fills it by copying (only the bytes its consumer reads: {@link
 * LiveBytes})
 */
public record BufferPlan(int edge, int fifo, int producer, int consumer, long bytes, BufferClass bufferClass,
    ClassRule classRule, BufferOrigin origin, boolean crossCore, int producerCore, int consumerCore,
    Strategy strategy, PrestoreKind prestore, int slots, int homeCore, int mergeRoot, long baselineBytesCopied,
    long bytesCopied, long footprintBytes, long rereadBytes, long rewriteBytes, boolean overridden, Decision decision,
    boolean specialCopy) {

  /**
   * The strategy with its parameters, as reports print it: {@code memcpy}, {@code prestore-clean},
   * {@code channel(k=2)}, {@code channel(k=1,demote)}.
   */
  public String strategyLabel() {
    return switch (strategy) {
      case PRESTORE -> "prestore-" + prestore.label;
      case CHANNEL -> "channel(k=" + slots + (prestore == PrestoreKind.NONE ? "" : "," + prestore.label) + ")";
      default -> strategy.label;
    };
  }
}
