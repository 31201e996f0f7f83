package org.cacheflow.scripts;

import org.cacheflow.model.MemoryAnnotation;

/**
 * One buffer of an actor instance as its script sees it: the port it is attached to, the single-rate FIFO
 * behind it, how many tokens the instance consumes or produces there and how big a token is.
 *
 * @param port port name; the script sees it as {@code i_<port>} or {@code o_<port>}
 * @param fifoId identifies the FIFO behind the buffer: the producer's output buffer and the consumer's input
 *          buffer of one FIFO carry the same id
 * @param nbTokens tokens exchanged per firing
 * @param tokenSize size of one token, in bits when the scenario says sizes are in bits, else in bytes
 * @param consumerAnnotation annotation of the FIFO's consumer port (for an input, this actor's own port); it
 *          decides PREESM's mergeability
 */
public record BufferSpec(String port, String fifoId, long nbTokens, long tokenSize,
    MemoryAnnotation consumerAnnotation) {

  /** PREESM's rule: a buffer may share memory with readers of the same data if its consumer never writes it. */
  public boolean mergeable() {
    return consumerAnnotation == MemoryAnnotation.READ_ONLY || consumerAnnotation == MemoryAnnotation.UNUSED;
  }
}
