package org.cacheflow.plan.strategy;

import java.util.Map;

/**
 * Re-read distances measured by a profile ({@code cacheflow profile}), by flat FIFO: for each FIFO between two
 * measured actors, the bytes the firings between its write and its first re-read touched in the profiled program's
 * order. With them the planner pre-stores a buffer only where the profile shows the pre-stores paper's pattern (Wu,
 * Lepers, Zwaenepoel, EuroSys '25, Sect. 6.2.3 and 7.5: DirtBuster suggests a pre-store for data that is not re-read
 * soon, and none where the written data fits the cache and is re-read soon, where cleaning it cost a 3x slowdown):
 * a buffer whose reader runs on its writer's core and whose measured re-read distance, with the buffer itself,
 * fits the target's L2 is re-read soon by the writer, and is not pre-stored ({@link #rereadSoon}).
 *
 * @param byFifo the measured distance in bytes, by flat FIFO index
 * @param source where the figures come from (the profile's file name), for the report
 */
public record MeasuredRereads(Map<Integer, Long> byFifo, String source) {

  /** No profile: the planner's own reuse distances decide alone. */
  public static final MeasuredRereads NONE = new MeasuredRereads(Map.of(), null);

  public MeasuredRereads {
    byFifo = Map.copyOf(byFifo);
  }

  /** The measured distance of a FIFO, or null when the profile has none. */
  public Long distance(int fifo) {
    return byFifo.get(fifo);
  }

  /**
   * Whether a buffer of {@code bytes} with the measured re-read distance {@code distance} is re-read soon by a writer
   * with an L2 of {@code l2Bytes}: the distance and the buffer fit it.
   */
  public static boolean rereadSoon(long distance, long bytes, long l2Bytes) {
    return distance <= l2Bytes && bytes <= l2Bytes - distance;
  }
}
