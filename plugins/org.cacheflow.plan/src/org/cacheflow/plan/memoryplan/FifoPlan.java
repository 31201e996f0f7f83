package org.cacheflow.plan.memoryplan;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.cacheflow.plan.classify.BufferClass;
import org.cacheflow.plan.strategy.Strategy;

/**
 * The plan summarised for one FIFO of the flat graph (its single-rate buffers are in
 * {@link MemoryPlan#buffersOf(int)}).
 *
 * @param fifo the flat FIFO's index
 * @param source its producer end, {@code actor.port} relative to the top graph
 * @param target its consumer end
 * @param bytes bytes it carries per iteration
 * @param buffers how many single-rate buffers it has
 * @param producerCores the cores its buffers' writers run on, ascending
 * @param consumerCores the cores its buffers' readers run on, ascending
 * @param bufferClass the class holding most of its buffers' bytes
 * @param bytesByClass buffer bytes per class, largest first
 * @param strategy the strategy applied to most of its buffers' bytes
 * @param bytesByStrategy buffer bytes per strategy label ({@link BufferPlan#strategyLabel()}), largest first
 * @param reasonEdge its largest buffer with that strategy, whose decision reports give as the FIFO's; -1 when it has
 *     no buffer
 * @param baselineBytesCopied bytes the baseline copies per iteration into its buffers
 * @param planBytesCopied bytes this plan copies per iteration into its buffers
 * @param footprintBytes memory this plan allocates for its buffers
 * @param crossCore whether any of its buffers crosses cores
 */
public record FifoPlan(int fifo, String source, String target, long bytes, int buffers, List<Integer> producerCores,
    List<Integer> consumerCores, BufferClass bufferClass, Map<BufferClass, Long> bytesByClass, Strategy strategy,
    Map<String, Long> bytesByStrategy, int reasonEdge, long baselineBytesCopied, long planBytesCopied,
    long footprintBytes, boolean crossCore) {

  public FifoPlan {
    producerCores = List.copyOf(producerCores);
    consumerCores = List.copyOf(consumerCores);
    bytesByClass = Collections.unmodifiableMap(new LinkedHashMap<>(bytesByClass));
    bytesByStrategy = Collections.unmodifiableMap(new LinkedHashMap<>(bytesByStrategy));
  }

  /** {@code source -> target}. */
  public String name() {
    return source + " -> " + target;
  }
}
