package org.cacheflow.plan.schedule;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.cacheflow.analysis.srdag.Srdag;

/**
 * The period of a static schedule run self-timed, as generated code runs it: every core fires its order in a loop,
 * a firing starts when its core's previous firing has ended, its inputs of the same iteration are written, and
 * every buffer it writes for another core has been read {@link #SLOTS} iterations before (the strategies' default
 * k slots per cross-core buffer, freed by the rdy-ack flags); an init vertex waits for its end vertex of the
 * previous iteration (persistent delays). A memory-script merge group several cores use is, as generated code
 * keeps it, k copies of its root's memory (iteration i in copy i % k) freed per group, not per edge: a core's first
 * firing that uses the group in iteration i waits until every other core's last firing using it in iteration i - k
 * has ended, whichever edges of the group they touch (codegen's StorageChoice/CoreSchedules "done with the slot"
 * flags); its edges across cores wait only for their data. With iteration offsets ({@link Schedule#skew}, software
 * pipelining) the loop's pass p fires each vertex for iteration p - skew: the run is in passes, and a wait for
 * iteration j of a vertex becomes a wait for the pass that fires it (a consumer one iteration behind its producer
 * waits for the producer's previous pass; a producer ahead of a slot's reader waits one pass longer). The
 * period is the length of the heaviest cycle of these dependencies per iteration it spans: each core's own loop
 * gives its busy time, but a core whose order waits on another core that waits on it within the same iteration
 * (a farm's emitter and collector on core 0, its workers split) forms a cycle across cores, and then an iteration
 * costs that cycle's length, more than the busiest core's time.
 *
 * <p>
 * Computed by running {@link #ITERATIONS} iterations (a max-plus linear system reaches its periodic regime after a
 * transient) and taking the mean period of the second half; the critical cycle is followed back from the last
 * firing through the dependencies that delayed each firing. Cost: O(ITERATIONS x (V + E)) time, O(V + E) memory.
 */
final class SteadyState {

  /** Iterations run; the period is measured over the last half (60 is divisible by every cyclicity up to 6). */
  static final int ITERATIONS = 120;

  /** Iterations a cross-core buffer holds (codegen's default slot count k). */
  static final int SLOTS = 2;

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
    return of(schedule, duration, null);
  }

  /**
   * Runs the schedule self-timed with the given firing durations and merge groups.
   *
   * @param duration per vertex, the time its firing takes (work and the overheads charged to it)
   * @param group per edge, the root edge of the merge group whose memory holds it, or -1; null: no merge groups
   *     (every cross-core edge has slots of its own)
   */
  static Result of(Schedule schedule, double[] duration, int[] group) {
    // per vertex, what it waits for: (vertex, 0) of the same iteration, (vertex, j) of j iterations before
    Waits waits = Waits.of(schedule, group);
    // the order within an iteration: data edges and per-core orders (acyclic: one topological order made both)
    int[] order = topological(schedule);
    int vertices = schedule.srdag().vertexCount();
    double[][] end = new double[ROWS][vertices]; // pass k's end times in row k % ROWS
    // the wait that delayed each firing most (encoded), for the last TRACE iterations; -1 when it started at 0
    int[][] cause = new int[TRACE][vertices];
    double[] iterationEnd = new double[ITERATIONS];
    for (int k = 0; k < ITERATIONS; k++) {
      int[] by = cause[k % TRACE];
      double[] current = end[k % ROWS];
      for (int v : order) {
        double start = 0;
        int delayedBy = -1;
        for (int i = waits.offsets()[v]; i < waits.offsets()[v + 1]; i++) {
          int wait = waits.waits()[i];
          int u = wait >> SHIFT;
          int back = wait & MASK;
          if (back > k) {
            continue;
          }
          double ready = end[(k - back) % ROWS][u];
          if (ready > start) {
            start = ready;
            delayedBy = wait;
          }
        }
        current[v] = start + duration[v];
        by[v] = delayedBy;
        iterationEnd[k] = Math.max(iterationEnd[k], current[v]);
      }
    }
    int half = ITERATIONS / 2;
    double period = (iterationEnd[ITERATIONS - 1] - iterationEnd[half - 1]) / (ITERATIONS - half);
    return critical(period, end[(ITERATIONS - 1) % ROWS], cause, schedule);
  }

  /**
   * Per vertex, the firings it waits for (encoded: vertex and iterations back), in CSR form.
   *
   * @param offsets per vertex, where its waits start in {@code waits}; one more entry for the end
   * @param waits the waits of every vertex
   */
  private record Waits(int[] offsets, int[] waits) {

    static Waits of(Schedule schedule, int[] group) {
      Srdag srdag = schedule.srdag();
      int vertices = srdag.vertexCount();
      // per vertex, the groups' slot waits that start at it: (vertex, SLOTS) of another core's last use
      List<List<Integer>> groupWaits = groupWaits(schedule, group);
      int[] endOf = new int[vertices]; // init vertex -> its end vertex, or -1
      Arrays.fill(endOf, -1);
      for (int i = 0; i < srdag.persistentDelayCount(); i++) {
        endOf[srdag.persistentInit(i)] = srdag.persistentEnd(i);
      }
      int[] offsets = new int[vertices + 1];
      int groupWaitCount = 0;
      for (List<Integer> list : groupWaits) {
        groupWaitCount += list.size();
      }
      int[] waits = new int[2 * srdag.edgeCount() + 2 * vertices + groupWaitCount];
      int n = 0;
      for (int v = 0; v < vertices; v++) {
        offsets[v] = n;
        int core = schedule.coreOf(v);
        int skew = schedule.skew(v);
        n = previousFiring(schedule, v, waits, n);
        for (int e : srdag.incomingEdges(v)) {
          int u = srdag.edgeSource(e);
          waits[n++] = encode(u, skew - schedule.skew(u)); // iteration j of u: skew(v) - skew(u) passes back
        }
        for (int e : srdag.outgoingEdges(v)) {
          int t = srdag.edgeTarget(e);
          if (schedule.coreOf(t) != core && (group == null || group[e] < 0)) {
            // the slot is free once its reader is done with iteration j - SLOTS
            waits[n++] = encode(t, SLOTS + skew - schedule.skew(t));
          }
        }
        for (int wait : groupWaits.get(v)) {
          waits[n++] = wait;
        }
        if (endOf[v] >= 0) {
          waits[n++] = encode(endOf[v], 1 + skew - schedule.skew(endOf[v]));
        }
      }
      offsets[vertices] = n;
      return new Waits(offsets, waits);
    }

    /** Adds the wait for the core's previous firing: of this pass, or the last one of the previous pass. */
    private static int previousFiring(Schedule schedule, int v, int[] waits, int n) {
      int core = schedule.coreOf(v);
      int position = schedule.position(v);
      waits[n] = position > 0 ? encode(schedule.vertexAt(core, position - 1), 0)
          : encode(schedule.vertexAt(core, schedule.orderLength(core) - 1), 1);
      return n + 1;
    }
  }

  /**
   * Per vertex, the slot waits of the merge groups it is the first user of on its core: for every other core
   * using the group, that core's last user {@link #SLOTS} iterations before (encoded). Empty lists without groups.
   */
  private static List<List<Integer>> groupWaits(Schedule schedule, int[] group) {
    Srdag srdag = schedule.srdag();
    int vertices = srdag.vertexCount();
    List<List<Integer>> waits = new ArrayList<>(Collections.nCopies(vertices, List.<Integer>of()));
    if (group == null || schedule.coreCount() <= 1) {
      return waits;
    }
    // per group (by root edge) and core: the first and last user in the core's order
    Map<Integer, Map<Integer, int[]>> users = new TreeMap<>();
    for (int e = 0; e < srdag.edgeCount(); e++) {
      if (group[e] < 0) {
        continue;
      }
      Map<Integer, int[]> byCore = users.computeIfAbsent(group[e], k -> new TreeMap<>());
      for (int v : new int[] {srdag.edgeSource(e), srdag.edgeTarget(e)}) {
        int[] span = byCore.computeIfAbsent(schedule.coreOf(v), k -> new int[] {v, v});
        if (passOrder(schedule, v) < passOrder(schedule, span[0])) {
          span[0] = v;
        }
        if (passOrder(schedule, v) > passOrder(schedule, span[1])) {
          span[1] = v;
        }
      }
    }
    for (Map<Integer, int[]> byCore : users.values()) {
      if (byCore.size() < 2) {
        continue; // one core: one copy, its own order keeps the uses apart
      }
      for (Map.Entry<Integer, int[]> user : byCore.entrySet()) {
        int first = user.getValue()[0];
        for (Map.Entry<Integer, int[]> other : byCore.entrySet()) {
          if (!other.getKey().equals(user.getKey())) {
            if (waits.get(first).isEmpty()) {
              waits.set(first, new ArrayList<>());
            }
            int last = other.getValue()[1];
            waits.get(first).add(encode(last, SLOTS + schedule.skew(first) - schedule.skew(last)));
          }
        }
      }
    }
    return waits;
  }

  /**
   * Where a vertex's firing of one iteration comes in its core's loop: by offset first (a vertex one iteration behind
   * fires that iteration in the next pass), then by position. The first and last use of a group on a core follow it.
   */
  static long passOrder(Schedule schedule, int v) {
    return (long) schedule.skew(v) * (schedule.srdag().vertexCount() + 1) + schedule.position(v);
  }

  /** The largest offset in passes a wait may have: SLOTS plus one pass of iteration offset. */
  static final int MAX_BACK = SLOTS + 1;

  /** Rows of end times kept: passes k - MAX_BACK .. k. */
  private static final int ROWS = MAX_BACK + 1;

  /** Iterations of causes kept: a critical cycle spanning more is reported without its firings. */
  private static final int TRACE = 16;

  private static final int SHIFT = 2;
  private static final int MASK = (1 << SHIFT) - 1;

  private static int encode(int vertex, int iterationsBack) {
    if (iterationsBack < 0 || iterationsBack > MAX_BACK) {
      throw new IllegalStateException("a wait " + iterationsBack + " passes back (iteration offsets must not decrease"
          + " along an edge and stay at most 1): vertex " + vertex);
    }
    return vertex << SHIFT | iterationsBack;
  }

  /** Follows the delaying firings back from the last iteration's last firing until a vertex repeats. */
  private static Result critical(double period, double[] lastEnd, int[][] cause, Schedule schedule) {
    int v = 0;
    for (int u = 1; u < lastEnd.length; u++) {
      if (lastEnd[u] > lastEnd[v]) {
        v = u;
      }
    }
    int back = 0; // iterations back from the last
    int[] seenAt = new int[lastEnd.length]; // the walk's step at which a vertex was met, + 1
    int[] seenBack = new int[lastEnd.length];
    List<Integer> walk = new ArrayList<>();
    while (back < TRACE) {
      if (seenAt[v] != 0) {
        List<Step> cycle = new ArrayList<>();
        for (int i = seenAt[v] - 1; i < walk.size(); i++) {
          cycle.add(new Step(walk.get(i), schedule.coreOf(walk.get(i))));
        }
        Collections.reverse(cycle);
        return new Result(period, cycle, back - seenBack[v]);
      }
      walk.add(v);
      seenAt[v] = walk.size();
      seenBack[v] = back;
      int by = cause[(ITERATIONS - 1 - back) % TRACE][v];
      if (by < 0) {
        break;
      }
      v = by >> SHIFT;
      back += by & MASK;
    }
    return new Result(period, List.of(), 0);
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
