package org.cacheflow.analysis;

import java.util.ArrayList;
import java.util.List;

/**
 * The data one FIFO carries per iteration of the top graph.
 *
 * @param fifo the FIFO's index in {@link FlatGraph#fifos()}
 * @param tokensPerIteration tokens produced (and consumed) per iteration: production x r(source)
 * @param bytesPerIteration those tokens in bytes, {@code ceil(tokens x tokenBits / 8)}
 * @param delayBytes the initial tokens in bytes (per delay segment)
 * @param tokenBits bits per token used
 * @param tokenBitsDefaulted whether the token size is the default because the input gave none
 */
public record FifoBuffer(int fifo, long tokensPerIteration, long bytesPerIteration, long delayBytes,
    long tokenBits, boolean tokenBitsDefaulted) {

  /** Computes the buffer of every FIFO of the graph, in FIFO order. */
  public static List<FifoBuffer> of(FlatGraph graph) {
    List<FifoBuffer> buffers = new ArrayList<>();
    for (FlatFifo fifo : graph.fifos()) {
      long tokens;
      try {
        tokens = Math.multiplyExact(fifo.production(), graph.actor(fifo.source()).repetitions());
      } catch (ArithmeticException overflow) {
        throw new org.cacheflow.model.diagnostics.InputException(fifo.location(), "tokens per iteration on FIFO "
            + graph.describe(fifo) + " do not fit 64-bit integers");
      }
      buffers.add(new FifoBuffer(fifo.index(), tokens, fifo.bytesFor(tokens), fifo.bytesFor(fifo.delay()),
          fifo.tokenBits(), fifo.tokenBitsDefaulted()));
    }
    return List.copyOf(buffers);
  }
}
