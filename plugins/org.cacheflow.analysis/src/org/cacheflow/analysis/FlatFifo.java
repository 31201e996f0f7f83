package org.cacheflow.analysis;

import java.util.Map;
import org.cacheflow.model.Fifo;
import org.cacheflow.model.PersistenceLevel;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * A FIFO of the flattened graph with its rates, delay and token size evaluated.
 *
 * <p>
 * Delays follow PREESM's persistence rules (see {@link Flattener}): the delay's tokens are split into
 * {@code delaySegments} independent runs per top-level iteration, each starting with {@code delay} initial
 * tokens and ending with {@code delay} final tokens. Only when {@code delayPersistent} holds do the final
 * tokens of one iteration become the initial tokens of the next. With a setter, each run's initial tokens are
 * the output of the setter's firings of that run instead (the setter fires {@code delay / setter rate} times
 * per run); with a getter, each run's final tokens go to the getter's firings. A delay with a setter or
 * getter is never persistent.
 *
 * @param index position in {@link FlatGraph#fifos()}
 * @param source index of the producing {@link FlatActor}
 * @param sourcePort name of its output port
 * @param target index of the consuming {@link FlatActor}
 * @param targetPort name of its input port
 * @param production tokens produced per firing of the source
 * @param consumption tokens consumed per firing of the target
 * @param delay initial tokens (per segment), 0 without a delay
 * @param persistence the delay's persistence level as written (null without a delay)
 * @param delaySegments independent delay runs per top-level iteration (1 without a delay)
 * @param delayPersistent whether final tokens feed the next iteration's initial tokens
 * @param type the data type name, or null when the input gave none
 * @param tokenBits bits per token used for sizes ({@link #DEFAULT_TOKEN_BITS} when unknown)
 * @param tokenBitsDefaulted whether the input gave no token size and the default is used
 * @param location where the FIFO was read from
 * @param origin the model FIFO it comes from (for a FIFO merged through an interface, the outer one)
 * @param delayConfig the values reaching the config input ports of the delay's own actor, by port name (what
 *     its init refinement is called with; empty without a delay)
 * @param setter the flat actor whose firings give each delay run's initial tokens in place of an init vertex
 *     (PiSDF's delay setter), or -1
 * @param setterPort the setter's output port that feeds the delay (null without a setter)
 * @param getter the flat actor whose firings take each delay run's final tokens in place of an end vertex
 *     (PiSDF's delay getter), or -1
 * @param getterPort the getter's input port the delay feeds (null without a getter)
 */
public record FlatFifo(int index, int source, String sourcePort, int target, String targetPort,
    long production, long consumption, long delay, PersistenceLevel persistence, long delaySegments,
    boolean delayPersistent, String type, long tokenBits, boolean tokenBitsDefaulted, SourceLocation location,
    Fifo origin, Map<String, Long> delayConfig, int setter, String setterPort, int getter, String getterPort) {

  /** Makes an unmodifiable copy of the delay's config values. */
  public FlatFifo {
    delayConfig = delayConfig == null ? Map.of() : Map.copyOf(delayConfig);
  }

  /**
   * Bits per token assumed when the input gives no size (SDF3 graphs without tokenSize, PiSDF types the
   * scenario does not size): one byte, PREESM's {@code char} default for untyped FIFOs.
   */
  public static final long DEFAULT_TOKEN_BITS = 8;

  /** Whether the FIFO carries tokens at all (both rates 0 means no data ever flows). */
  public boolean carriesTokens() {
    return production != 0 || consumption != 0;
  }

  /** Whether a setter actor gives the delay's initial tokens (only meaningful with a delay). */
  public boolean hasSetter() {
    return setter >= 0 && delay > 0;
  }

  /** Whether a getter actor takes the delay's final tokens (only meaningful with a delay). */
  public boolean hasGetter() {
    return getter >= 0 && delay > 0;
  }

  /** Whether the FIFO has initial tokens. */
  public boolean hasDelay() {
    return delay > 0;
  }

  /**
   * The bytes {@code tokens} tokens occupy: {@code ceil(tokens * tokenBits / 8)}.
   *
   * @throws InputException at the FIFO's location when the size does not fit a long
   */
  public long bytesFor(long tokens) {
    try {
      long bits = Math.multiplyExact(tokens, tokenBits);
      return bits / 8 + (bits % 8 == 0 ? 0 : 1);
    } catch (ArithmeticException e) {
      throw new InputException(location, "the size of " + tokens + " tokens of " + tokenBits
          + " bits on FIFO " + sourcePort + " -> " + targetPort + " exceeds 2^63 bits");
    }
  }
}
