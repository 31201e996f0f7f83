package org.cacheflow.plan.schedule;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import org.cacheflow.plan.srdag.Srdag;

/**
 * The period of a static schedule run self-timed, as generated code runs it: every core fires its order in a loop,
 * a firing starts when its core's previous firing has ended, its inputs of the same iteration are written, and
 * every buffer it writes for another core has been read in the previous iteration (one slot per cross-core buffer,
 * the rdy-ack flags); an init vertex waits for its end vertex of the previous iteration (persistent delays). The
 * period is the length of the heaviest cycle of these dependencies per iteration it spans: each core's own loop
 * gives its busy time, but a core whose order waits on another core that waits on it within the same iteration
 * (a farm's emitter and collector on core 0, its workers split) forms a cycle across cores, and then an iteration
 * costs that cycle's length, more than the busiest core's time.
 *
 * <p>
 * Computed by running {@link #ITERATIONS} iterations (a max-plus linear system reaches its periodic regime after a
 * transient) and taking the mean period of the second half; the critical cycle is followed back from the last
 * firing through the dependencies that delayed each firing. Cost: O(ITERATIONS x (V + E)).
 */
final class SteadyState {

  /** Iterations run; the period is measured over the last half (60 is divisible by every cyclicity up to 6). */
  static final int ITERATIONS = 120;

  /** One firing on the critical cycle: the vertex and its core. */
  record Step(int vertex, int core) {
  }

  /**
   * The outcome.
   *
   * @param period the mean time per iteration in the periodic regime
   * @param cycle the critical cycle's firings in execution order (one period of it), or empty when none was found
   * @param iterations how many iterations the critical cycle spans
   */
  record Result(double period, List<Step> cycle, int iterations) {
  }

  private SteadyState() {
  }

  /**
   * Runs the schedule self-timed with the given firing durations.
   *
   * @param duration per vertex, the time its firing takes (work and the overheads charged to it)
   */
  static Result of(Schedule schedule, double[] duration) {
    Srdag srdag = schedule.srdag();
    int vertices = srdag.vertexCount();
    int cores = schedule.coreCount();
    // the order within an iteration: data edges and per-core orders (acyclic: one topological order made both)
    int[] order = topological(schedule);
    int[] endOf = new int[vertices]; // init vertex -> its end vertex, or -1
    Arrays.fill(endOf, -1);
    for (int i = 0; i < srdag.persistentDelayCount(); i++) {
      endOf[srdag.persistentInit(i)] = srdag.persistentEnd(i);
    }
    int[] last = new int[cores]; // the last vertex of each core's order, or -1
    for (int c = 0; c < cores; c++) {
      last[c] = schedule.orderLength(c) == 0 ? -1 : schedule.vertexAt(c, schedule.orderLength(c) - 1);
    }
    double[][] end = new double[ITERATIONS][vertices];
    // the firing that delayed each firing most: vertex * ITERATIONS + iteration, or -1 when it started at 0
    int[][] cause = new int[ITERATIONS][vertices];
    double[] iterationEnd = new double[ITERATIONS];
    for (int k = 0; k < ITERATIONS; k++) {
      for (int v : order) {
        double start = 0;
        int by = -1;
        int core = schedule.coreOf(v);
        int position = schedule.position(v);
        // the core's previous firing
        int previous = position > 0 ? schedule.vertexAt(core, position - 1) : last[core];
        int previousIteration = position > 0 ? k : k - 1;
        if (previousIteration >= 0 && end[previousIteration][previous] > start) {
          start = end[previousIteration][previous];
          by = previous * ITERATIONS + previousIteration;
        }
        for (int e : srdag.incomingEdges(v)) {
          int u = srdag.edgeSource(e);
          if (end[k][u] > start) {
            start = end[k][u];
            by = u * ITERATIONS + k;
          }
        }
        if (k > 0) {
          for (int e : srdag.outgoingEdges(v)) {
            int t = srdag.edgeTarget(e);
            if (schedule.coreOf(t) != core && end[k - 1][t] > start) {
              start = end[k - 1][t]; // the slot is free once the reader of the previous iteration is done
              by = t * ITERATIONS + k - 1;
            }
          }
          if (endOf[v] >= 0 && end[k - 1][endOf[v]] > start) {
            start = end[k - 1][endOf[v]];
            by = endOf[v] * ITERATIONS + k - 1;
          }
        }
        end[k][v] = start + duration[v];
        cause[k][v] = by;
        iterationEnd[k] = Math.max(iterationEnd[k], end[k][v]);
      }
    }
    int half = ITERATIONS / 2;
    double period = (iterationEnd[ITERATIONS - 1] - iterationEnd[half - 1]) / (ITERATIONS - half);
    return critical(period, end[ITERATIONS - 1], cause, schedule);
  }

  /** Follows the delaying firings back from the last iteration's last firing until a vertex repeats. */
  private static Result critical(double period, double[] lastEnd, int[][] cause, Schedule schedule) {
    int v = 0;
    for (int u = 1; u < lastEnd.length; u++) {
      if (lastEnd[u] > lastEnd[v]) {
        v = u;
      }
    }
    int k = ITERATIONS - 1;
    int[] seenAt = new int[lastEnd.length]; // the walk's step at which a vertex was met, + 1
    int[] seenIteration = new int[lastEnd.length];
    List<Integer> walk = new ArrayList<>();
    while (true) {
      if (seenAt[v] != 0) {
        List<Step> cycle = new ArrayList<>();
        for (int i = seenAt[v] - 1; i < walk.size(); i++) {
          cycle.add(new Step(walk.get(i), schedule.coreOf(walk.get(i))));
        }
        Collections.reverse(cycle);
        return new Result(period, cycle, seenIteration[v] - k);
      }
      walk.add(v);
      seenAt[v] = walk.size();
      seenIteration[v] = k;
      int by = cause[k][v];
      if (by < 0) {
        return new Result(period, List.of(), 0);
      }
      v = by / ITERATIONS;
      k = by % ITERATIONS;
    }
  }

  /** Vertices in an order that respects the data edges and every core's order. */
  private static int[] topological(Schedule schedule) {
    Srdag srdag = schedule.srdag();
    int vertices = srdag.vertexCount();
    int[] pending = new int[vertices];
    for (int v = 0; v < vertices; v++) {
      pending[v] = srdag.incomingEdges(v).length + (schedule.position(v) > 0 ? 1 : 0);
    }
    ArrayDeque<Integer> ready = new ArrayDeque<>();
    for (int v = 0; v < vertices; v++) {
      if (pending[v] == 0) {
        ready.add(v);
      }
    }
    int[] order = new int[vertices];
    int n = 0;
    while (!ready.isEmpty()) {
      int v = ready.poll();
      order[n++] = v;
      for (int e : srdag.outgoingEdges(v)) {
        if (--pending[srdag.edgeTarget(e)] == 0) {
          ready.add(srdag.edgeTarget(e));
        }
      }
      int core = schedule.coreOf(v);
      int next = schedule.position(v) + 1;
      if (next < schedule.orderLength(core) && --pending[schedule.vertexAt(core, next)] == 0) {
        ready.add(schedule.vertexAt(core, next));
      }
    }
    if (n != vertices) {
      throw new IllegalStateException("the per-core orders contradict the graph's edges");
    }
    return order;
  }
}
