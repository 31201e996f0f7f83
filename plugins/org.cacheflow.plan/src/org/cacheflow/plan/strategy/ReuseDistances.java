package org.cacheflow.plan.strategy;

import java.util.Arrays;

import org.cacheflow.plan.schedule.Schedule;
import org.cacheflow.analysis.srdag.Srdag;

/**
 * The static counterpart of the pre-stores paper's re-read and re-write distances (DirtBuster, Sect. 6.2.3,
 * measured there in instructions between accesses to a cache line): for each single-rate buffer, how many
 * bytes the cores touch between the buffer's write and
 * <ul>
 * <li>its <b>re-read</b> by the consumer: on the same core, the bytes the firings in between touch; across
 * cores, the bytes every core touches from the producer's end to the consumer's start (schedule times);</li>
 * <li>its <b>re-write</b>: the producer fires again one iteration later, so the bytes its core touches in the
 * rest of the iteration.</li>
 * </ul>
 * A firing touches the bytes of its input and output buffers; a special vertex those of the copies it makes
 * (twice: read and written), nothing when its outputs are merged.
 */
public final class ReuseDistances {

  private final long[] reread;
  private final long[] rewrite;

  private ReuseDistances(long[] reread, long[] rewrite) {
    this.reread = reread;
    this.rewrite = rewrite;
  }

  /**
   * @param schedule the static schedule
   * @param touched bytes each vertex touches per firing, indexed by vertex
   */
  public static ReuseDistances compute(Schedule schedule, long[] touched) {
    Srdag srdag = schedule.srdag();
    int cores = schedule.coreCount();
    long[][] prefix = new long[cores][];
    long[][] starts = new long[cores][];
    for (int c = 0; c < cores; c++) {
      int n = schedule.orderLength(c);
      prefix[c] = new long[n + 1];
      starts[c] = new long[n];
      for (int i = 0; i < n; i++) {
        int v = schedule.vertexAt(c, i);
        prefix[c][i + 1] = saturated(prefix[c][i], touched[v]);
        starts[c][i] = schedule.start(v);
      }
    }
    int edges = srdag.edgeCount();
    long[] reread = new long[edges];
    long[] rewrite = new long[edges];
    for (int e = 0; e < edges; e++) {
      int producer = srdag.edgeSource(e);
      int consumer = srdag.edgeTarget(e);
      int pc = schedule.coreOf(producer);
      int cc = schedule.coreOf(consumer);
      long[] p = prefix[pc];
      rewrite[e] = p[p.length - 1] - touched[producer];
      if (pc == cc) {
        int from = schedule.position(producer) + 1;
        int to = schedule.position(consumer);
        reread[e] = to > from ? p[to] - p[from] : 0;
      } else {
        long begin = schedule.end(producer);
        long end = schedule.start(consumer);
        long total = 0;
        if (end > begin) {
          for (int c = 0; c < cores; c++) {
            int from = lowerBound(starts[c], begin);
            int to = lowerBound(starts[c], end);
            total = saturated(total, prefix[c][to] - prefix[c][from]);
          }
        }
        reread[e] = total;
      }
    }
    return new ReuseDistances(reread, rewrite);
  }

  private static int lowerBound(long[] sorted, long key) {
    int index = Arrays.binarySearch(sorted, key);
    if (index < 0) {
      return -index - 1;
    }
    while (index > 0 && sorted[index - 1] == key) {
      index--;
    }
    return index;
  }

  private static long saturated(long a, long b) {
    long sum = a + b;
    return sum < 0 ? Long.MAX_VALUE : sum;
  }

  /** Bytes touched between the buffer's write and its read by the consumer. */
  public long rereadBytes(int edge) {
    return reread[edge];
  }

  /** Bytes the producer's core touches between the buffer's write and its next write. */
  public long rewriteBytes(int edge) {
    return rewrite[edge];
  }
}
