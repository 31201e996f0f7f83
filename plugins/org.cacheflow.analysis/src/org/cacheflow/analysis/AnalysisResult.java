package org.cacheflow.analysis;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@link GraphAnalysis#analyse} found: the flat graph (with the repetition vector and evaluated FIFOs)
 * and the buffer of each FIFO. Immutable. The single-rate graph is built from it by
 * {@code org.cacheflow.analysis.srdag.SingleRateExpansion.expand(result.flatGraph(), ...)}.
 *
 * @param flatGraph the flattened graph
 * @param repetitions firings per iteration by actor path, in actor order
 * @param buffers the data each FIFO carries per iteration, indexed like {@link FlatGraph#fifos()}
 */
public record AnalysisResult(FlatGraph flatGraph, Map<String, Long> repetitions, List<FifoBuffer> buffers) {

  public AnalysisResult {
    repetitions = Collections.unmodifiableMap(new LinkedHashMap<>(repetitions));
    buffers = List.copyOf(buffers);
  }

  /** The repetition count of the actor with that path. */
  public long repetitions(String actorPath) {
    Long count = repetitions.get(actorPath);
    if (count == null) {
      throw new IllegalArgumentException("no actor " + actorPath);
    }
    return count;
  }

  /** The sum of all FIFOs' bytes per iteration. */
  public long totalBufferBytes() {
    long total = 0;
    for (FifoBuffer buffer : buffers) {
      total = FlatGraph.saturatedAdd(total, buffer.bytesPerIteration());
    }
    return total;
  }
}
