package org.cacheflow.plan.schedule;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.plan.mapping.MappingInputs;
import org.cacheflow.plan.strategy.MeasuredCosts;
import org.cacheflow.plan.strategy.PlanNote;

/**
 * Software pipelining of the cores' loops: lets some firings run one iteration behind the rest of their core's loop
 * when that shortens the self-timed period ({@link SteadyState}).
 *
 * <p>
 * Generated code runs every core's order in a loop, and a core fires its part of iteration i + 1 only after its
 * part of iteration i. When a core's order returns to it after the other cores' work (stereo's core 0 generates an
 * iteration's costs, core 1 aggregates them, and core 0 evaluates the result), the core waits at the end of every
 * iteration, and the period is the whole chain across the cores, not the busiest core's load. With an iteration
 * offset ({@link Schedule#skew}) the returning firings fire iteration i - 1 in the loop's pass i, after the core's
 * part of iteration i: the core starts the next iteration instead of waiting, the wait moves one pass later, and
 * the chain spans two iterations.
 *
 * <p>
 * The set of firings behind is closed under the graph's edges (a firing's consumers are behind when it is, so no
 * consumer runs ahead of its producer) and under persistent delays (a delay's end behind means its init is too: the
 * state passes from one iteration to the next in one order). Candidates are the firings of the critical cycle, each
 * with its closure, kept when the offsets alone do not lengthen the period; the offsets change which firings wait
 * for which, so the {@link #TRIES} best of them (then the fewest firings behind) have their cores balanced anew
 * ({@link Balancer}), and the best result is taken if it lowers the period by more than {@link #MIN_GAIN} of it:
 * each buffer one core uses before and after the offset is kept twice (one copy per iteration in flight). Runs
 * only on one node, with every actor timed, under strategies that pipeline iterations (the caller's check);
 * deterministic. Cost: at most V self-timed runs, each O(ITERATIONS x (V + E)), and TRIES balancings.
 */
public final class Pipelining {

  /** A candidate must lower the period by more than this fraction of it. */
  static final double MIN_GAIN = 0.01;

  /** Candidates balanced anew ({@link Balancer}), the best offsets alone predict first. */
  static final int TRIES = 3;

  /** Bound on candidates run x (V + E) (as the balancer's): keeps large graphs' plans fast. */
  static final long BUDGET = 2_000_000;

  private Pipelining() {
  }

  /**
   * The outcome.
   *
   * @param schedule the schedule with the chosen offsets (the given one when none lowered the period)
   * @param note the period before and after and the firings behind, for the plan's notes; null when unchanged
   */
  public record Result(Schedule schedule, PlanNote.Pipelined note) {
  }

  /**
   * Chooses iteration offsets for a single-node schedule made from {@code inputs} whose buffers may lie in merge
   * groups ({@link MergeGroups#NONE}: none).
   */
  public static Result pipeline(Schedule schedule, MappingInputs inputs, MeasuredCosts costs, long lineBytes,
      MergeGroups groups) {
    Srdag srdag = schedule.srdag();
    if (schedule.coreCount() <= 1 || schedule.platform().nodes() > 1 || !CoreCount.timed(srdag, inputs)) {
      return new Result(schedule, null);
    }
    double scale = costs.timeUnitNanos() > 0 ? costs.timeUnitNanos() : 0;
    double[] duration = CoreCount.durations(schedule, inputs, costs, lineBytes, groups);
    SteadyState.Result before = SteadyState.of(schedule, duration, groups.roots());
    long size = Math.max(1, srdag.vertexCount() + (long) srdag.edgeCount());
    long budget = Math.max(8, BUDGET / size);
    // every firing of the critical cycle with its closure, as offsets alone predict them
    Set<List<Integer>> tried = new HashSet<>();
    List<Candidate> candidates = new ArrayList<>();
    boolean[] none = new boolean[srdag.vertexCount()];
    for (SteadyState.Step step : before.cycle()) {
      if (candidates.size() >= budget) {
        break;
      }
      boolean[] behind = closure(srdag, none, step.vertex());
      int count = count(behind);
      if (count == srdag.vertexCount() || !tried.add(members(behind))) {
        continue; // every firing behind is the same loop as none
      }
      double period = SteadyState.of(schedule.withSkew(offsets(behind)), duration, groups.roots()).period();
      if (period <= before.period() * (1 + 1e-9)) {
        candidates.add(new Candidate(behind, count, period));
      }
    }
    // the offsets change which firings wait for which: the cores' loads can be balanced anew, so the best few
    // candidates are balanced, and the best result taken
    candidates.sort(Comparator.comparingDouble(Candidate::period).thenComparingInt(Candidate::count));
    Schedule best = null;
    double bestPeriod = before.period() * (1 - MIN_GAIN);
    boolean[] bestBehind = null;
    PlanNote.Balanced balanceNote = null;
    for (Candidate candidate : candidates.subList(0, Math.min(TRIES, candidates.size()))) {
      Schedule skewed = schedule.withSkew(offsets(candidate.behind()));
      Balancer.Result balanced = Balancer.balance(skewed, inputs, costs, lineBytes, groups);
      Schedule result = balanced.schedule();
      double period = SteadyState.of(result, CoreCount.durations(result, inputs, costs, lineBytes, groups),
          groups.roots()).period();
      if (period < bestPeriod) {
        best = result;
        bestPeriod = period;
        bestBehind = candidate.behind();
        balanceNote = balanced.note();
      }
    }
    if (best == null) {
      return new Result(schedule, null);
    }
    double shown = scale > 0 ? 1e-3 : 1;
    return new Result(best, new PlanNote.Pipelined(behind(best, bestBehind), count(bestBehind), balanceNote != null,
        before.period() * shown, bestPeriod * shown, scale > 0));
  }

  /** A set of firings behind and the period offsets alone give it. */
  private record Candidate(boolean[] behind, int count, double period) {
  }

  /** The set with {@code vertex} added, closed under edges and persistent delays (end behind: init behind). */
  static boolean[] closure(Srdag srdag, boolean[] behind, int vertex) {
    boolean[] result = behind.clone();
    int[] initOfEnd = new int[srdag.vertexCount()];
    Arrays.fill(initOfEnd, -1);
    for (int i = 0; i < srdag.persistentDelayCount(); i++) {
      initOfEnd[srdag.persistentEnd(i)] = srdag.persistentInit(i);
    }
    ArrayDeque<Integer> work = new ArrayDeque<>();
    if (!result[vertex]) {
      result[vertex] = true;
      work.add(vertex);
    }
    while (!work.isEmpty()) {
      int v = work.poll();
      List<Integer> next = new ArrayList<>();
      for (int e : srdag.outgoingEdges(v)) {
        next.add(srdag.edgeTarget(e));
      }
      if (initOfEnd[v] >= 0) {
        next.add(initOfEnd[v]);
      }
      for (int u : next) {
        if (!result[u]) {
          result[u] = true;
          work.add(u);
        }
      }
    }
    return result;
  }

  private static int[] offsets(boolean[] behind) {
    int[] result = new int[behind.length];
    for (int v = 0; v < behind.length; v++) {
      result[v] = behind[v] ? 1 : 0;
    }
    return result;
  }

  private static int count(boolean[] set) {
    int n = 0;
    for (boolean b : set) {
      n += b ? 1 : 0;
    }
    return n;
  }

  private static List<Integer> members(boolean[] set) {
    List<Integer> result = new ArrayList<>();
    for (int v = 0; v < set.length; v++) {
      if (set[v]) {
        result.add(v);
      }
    }
    return result;
  }

  /** The firings behind, per core (at most a few named, then how many more). */
  private static List<PlanNote.CoreFirings> behind(Schedule schedule, boolean[] behind) {
    List<PlanNote.CoreFirings> parts = new ArrayList<>();
    for (int core = 0; core < schedule.coreCount(); core++) {
      List<Integer> named = new ArrayList<>();
      int more = 0;
      for (int v : schedule.order(core)) {
        if (behind[v]) {
          if (named.size() < 4) {
            named.add(v);
          } else {
            more++;
          }
        }
      }
      if (!named.isEmpty()) {
        parts.add(new PlanNote.CoreFirings(core, named, more));
      }
    }
    return parts;
  }
}
