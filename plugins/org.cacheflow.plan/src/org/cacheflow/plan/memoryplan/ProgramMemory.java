package org.cacheflow.plan.memoryplan;

import java.util.Comparator;
import java.util.List;

/**
 * The memory the generated program will hold while it runs, as its code model lays it out (pools of buffers with
 * disjoint lifetimes, a copy per iteration in flight, channels' slots, copy-on-write sources): what {@code plan}
 * reports and what {@code generate} checks against the target's memory before writing anything. Bytes are those
 * the program touches; the allocator also reserves address space beyond them ({@link #reservedBytes}), which costs
 * no memory until touched.
 *
 * @param perCore bytes allocated by each core (a buffer is allocated, and first touched, by the core that reads it)
 * @param poolBytes per core, the bytes of its pool of buffers with disjoint lifetimes (0: no pool)
 * @param inFlightBytes bytes of the copies beyond the first: a buffer's second copy while the next iteration fills
 *     it (persistent delays, pipelined loops, merge groups with several slots), channels' and transfers' slots
 * @param copyOnWriteBytes bytes of copy-on-write sources (their views share these pages)
 * @param reservedBytes the address space the program's allocator reserves at start
 * @param largest the largest buffers, largest first (at most {@link #LISTED})
 */
public record ProgramMemory(List<Long> perCore, List<Long> poolBytes, long inFlightBytes, long copyOnWriteBytes,
    long reservedBytes, List<Buffer> largest) {

  /** How many of the largest buffers are named. */
  public static final int LISTED = 3;

  /**
   * One buffer (or channel, pool, copy-on-write source) of the program.
   *
   * @param name the generated code's name for it
   * @param bytes all its copies
   * @param copies its copies (slots)
   * @param description what lives in it
   */
  public record Buffer(String name, long bytes, int copies, String description) {
  }

  public ProgramMemory {
    perCore = List.copyOf(perCore);
    poolBytes = List.copyOf(poolBytes);
    largest = List.copyOf(largest);
  }

  /** The largest of {@code buffers}, largest first, then by name: at most {@link #LISTED}. */
  public static List<Buffer> largestOf(List<Buffer> buffers) {
    return buffers.stream().sorted(Comparator.comparingLong(Buffer::bytes).reversed()
        .thenComparing(Buffer::name)).limit(LISTED).toList();
  }

  /** Everything the program touches: every core's allocations (pools and copies in flight included) and sources. */
  public long totalBytes() {
    long total = copyOnWriteBytes;
    for (long bytes : perCore) {
      total = saturatedAdd(total, bytes);
    }
    return total;
  }

  /** {@code a + b}, or {@link Long#MAX_VALUE} when that overflows (absurd sizes stay comparable). */
  public static long saturatedAdd(long a, long b) {
    long sum = a + b;
    return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
  }

  /** {@code a * b} for non-negative values, or {@link Long#MAX_VALUE} when that overflows. */
  public static long saturatedMultiply(long a, long b) {
    return b != 0 && a > Long.MAX_VALUE / b ? Long.MAX_VALUE : a * b;
  }
}
