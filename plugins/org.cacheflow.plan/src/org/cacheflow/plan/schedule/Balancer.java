package org.cacheflow.plan.schedule;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

import org.cacheflow.plan.mapping.MappingInputs;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.plan.strategy.MeasuredCosts;
import org.cacheflow.plan.strategy.PlanNote;

/**
 * Refines a list schedule's mapping for pipelined execution. Generated code overlaps iterations (every core loops
 * over its order, k = 2 slots per cross-core buffer), so an iteration costs the self-timed period
 * ({@link SteadyState}: the busiest core's time, or a cycle across cores), not the one-iteration makespan the list
 * scheduler minimises; a list schedule may leave one core idle much of the period. This local search moves single
 * firings, and then swaps pairs of firings, from the cores on the critical cycle to other cores while the predicted
 * period strictly decreases (by more than {@link #EPSILON} of it). The period is predicted with each firing charged
 * its work and, when the target's time unit is known, the hand-offs and cache lines {@link CoreCount} charges it;
 * with pure work otherwise. A candidate keeps the mapping constraints; the cores' orders follow the list
 * schedule's start times (ties in topological order), so one topological order makes them all and a moved firing
 * keeps its place in time among its new core's firings. Candidates that a core's work alone rules out (it would
 * reach the period) are not run; the others are tried in order of how close they come to halving the gap between
 * the two cores' loads (then by vertex and core index), the first that lowers the period accepted; a firing goes
 * only to the {@link #TARGETS} least loaded other cores. Deterministic. Runs only when every actor has a scenario
 * timing.
 *
 * <p>
 * Cost: at most {@link #PASSES} passes of at most V accepted moves (or swaps) each, every candidate an
 * O(V + E) timing of one iteration and a self-timed run (O(ITERATIONS x (V + E))), and in all at most
 * {@link #BUDGET} / (V + E) candidates run (at least {@link #MIN_EVALUATIONS}).
 */
public final class Balancer {

  /**
   * A candidate must lower the period by more than this fraction of it: gains below the timings' precision do
   * not churn the mapping (and the generated code).
   */
  static final double EPSILON = 1e-3;

  /** Passes of moves then swaps; the search stops earlier when a pass finds nothing. */
  static final int PASSES = 4;

  /** Bound on candidates run x (V + E): keeps large graphs' plans fast. */
  static final long BUDGET = 2_000_000;

  /** Cores a firing may move to from a critical core: the least loaded (many cores stay cheap). */
  static final int TARGETS = 8;

  /** Candidates always allowed, however large the graph. */
  static final int MIN_EVALUATIONS = 16;

  private Balancer() {
  }

  /**
   * The outcome.
   *
   * @param schedule the refined schedule (the given one when nothing lowered the period)
   * @param note the period before and after, for the plan's notes; null when the mapping did not change
   */
  public record Result(Schedule schedule, PlanNote.Balanced note) {
  }

  /**
   * Balances a single-node schedule made from {@code inputs}.
   *
   * @param lineBytes the target's cache line (for the lines of cross-core buffers)
   */
  public static Result balance(Schedule schedule, MappingInputs inputs, MeasuredCosts costs, long lineBytes) {
    return balance(schedule, inputs, costs, lineBytes, MergeGroups.NONE);
  }

  /**
   * Balances a single-node schedule made from {@code inputs} whose buffers lie in merge groups.
   *
   * @param lineBytes the target's cache line (for the lines of cross-core buffers)
   */
  public static Result balance(Schedule schedule, MappingInputs inputs, MeasuredCosts costs, long lineBytes,
      MergeGroups groups) {
    Srdag srdag = schedule.srdag();
    if (schedule.coreCount() <= 1 || !CoreCount.timed(srdag, inputs)) {
      return new Result(schedule, null);
    }
    Search search = new Search(schedule, inputs, costs, lineBytes, groups);
    double before = search.period;
    int moves = 0;
    int swaps = 0;
    for (int pass = 0; pass < PASSES; pass++) {
      int accepted = 0;
      while (accepted < srdag.vertexCount() && search.move()) {
        accepted++;
        moves++;
      }
      while (accepted < srdag.vertexCount() && search.swap()) {
        accepted++;
        swaps++;
      }
      if (accepted == 0) {
        break;
      }
    }
    if (moves + swaps == 0) {
      return new Result(schedule, null);
    }
    double shown = search.scale > 0 ? 1e-3 : 1;
    return new Result(search.schedule, new PlanNote.Balanced(before * shown, search.period * shown, search.scale > 0,
        moves, swaps));
  }

  /** The search's state: the current schedule, its period and the cores its critical cycle runs through. */
  private static final class Search {
    private final Srdag srdag;
    private final MappingInputs inputs;
    private final MeasuredCosts costs;
    private final long lineBytes;
    private final MergeGroups groups;
    /** ns per scenario time unit, or 0 when unknown (periods then in scenario units, pure work). */
    private final double scale;
    private final int budget;
    /** The vertices in the order the first schedule started them: every candidate's orders follow it. */
    private final int[] rank;
    private int evaluations;
    private Schedule schedule;
    private double period;
    private double[] load; // per core: its firings' durations
    private double[] work; // per core: its firings' work alone
    private boolean[] critical; // per core: on the critical cycle (or the busiest)

    Search(Schedule schedule, MappingInputs inputs, MeasuredCosts costs, long lineBytes, MergeGroups groups) {
      this.srdag = schedule.srdag();
      this.groups = groups;
      this.inputs = inputs;
      this.costs = costs;
      this.lineBytes = lineBytes;
      this.scale = costs.timeUnitNanos() > 0 ? costs.timeUnitNanos() : 0;
      long size = Math.max(1, srdag.vertexCount() + (long) srdag.edgeCount());
      this.budget = (int) Math.max(MIN_EVALUATIONS, Math.min(Integer.MAX_VALUE, BUDGET / size));
      Topology topology = Topology.of(srdag);
      int[] topological = new int[srdag.vertexCount()];
      Integer[] byStart = new Integer[srdag.vertexCount()];
      for (int i = 0; i < byStart.length; i++) {
        topological[topology.topological(i)] = i;
        byStart[i] = i;
      }
      Arrays.sort(byStart, Comparator.<Integer>comparingLong(schedule::start).thenComparingLong(schedule::end)
          .thenComparingInt(v -> topological[v]));
      this.rank = new int[byStart.length];
      for (int i = 0; i < byStart.length; i++) {
        rank[i] = byStart[i];
      }
      accept(schedule, evaluate(schedule));
    }

    /**
     * The schedule with the given cores, each core firing its vertices in the order the first schedule started
     * them (ties in topological order): one topological order makes all orders. Times: one iteration run alone.
     */
    private Schedule ordered(int[] cores) {
      int vertices = srdag.vertexCount();
      int coreCount = schedule.coreCount();
      long[] start = new long[vertices];
      long[] end = new long[vertices];
      long[] free = new long[coreCount];
      int[] count = new int[coreCount];
      for (int v : rank) {
        int core = cores[v];
        long ready = free[core];
        for (int e : srdag.incomingEdges(v)) {
          ready = Math.max(ready, end[srdag.edgeSource(e)]);
        }
        int actor = inputs.row(srdag, v);
        start[v] = ready;
        end[v] = ready + (actor >= 0 ? inputs.time(actor, core) : MappingInputs.SPECIAL_TIME);
        free[core] = end[v];
        count[core]++;
      }
      int[][] order = new int[coreCount][];
      for (int c = 0; c < coreCount; c++) {
        order[c] = new int[count[c]];
        count[c] = 0;
      }
      for (int v : rank) {
        order[cores[v]][count[cores[v]]++] = v;
      }
      // a firing keeps its iteration offset wherever it goes (the offsets depend on the edges, not the cores)
      return new Schedule(srdag, schedule.platform(), schedule.policy(), cores, start, end, order)
          .withSkew(schedule.offsets());
    }

    /** The firing's work on a core, in the period's unit. */
    private double time(int v, int core) {
      int actor = inputs.row(srdag, v);
      long t = actor >= 0 ? inputs.time(actor, core) : MappingInputs.SPECIAL_TIME;
      return scale > 0 ? t * scale : t;
    }

    private boolean allowed(int v, int core) {
      int actor = inputs.row(srdag, v);
      return actor >= 0 ? inputs.allowed(actor, core) : inputs.specialAllowed(core);
    }

    /** The schedule's firing durations and self-timed run. */
    private Evaluation evaluate(Schedule candidate) {
      evaluations++;
      double[] duration = CoreCount.durations(candidate, inputs, costs, lineBytes, groups);
      return new Evaluation(duration, SteadyState.of(candidate, duration, groups.roots()));
    }

    private record Evaluation(double[] duration, SteadyState.Result steady) {
    }

    private void accept(Schedule next, Evaluation evaluation) {
      schedule = next;
      period = evaluation.steady().period();
      int cores = next.coreCount();
      load = new double[cores];
      work = new double[cores];
      for (int v = 0; v < srdag.vertexCount(); v++) {
        load[next.coreOf(v)] += evaluation.duration()[v];
        work[next.coreOf(v)] += time(v, next.coreOf(v));
      }
      critical = new boolean[cores];
      for (SteadyState.Step step : evaluation.steady().cycle()) {
        critical[step.core()] = true;
      }
      int busiest = 0;
      for (int c = 1; c < cores; c++) {
        if (load[c] > load[busiest]) {
          busiest = c;
        }
      }
      critical[busiest] = true;
    }

    /** Whether a core's work alone after the change stays below the period (else it cannot lower it). */
    private boolean fits(double coreWork) {
      return coreWork < period * (1 - EPSILON);
    }

    /** Tries candidate assignments in order; accepts the first that lowers the period. */
    private boolean tryInOrder(List<int[]> candidates) {
      for (int[] changes : candidates) {
        if (evaluations >= budget) {
          return false;
        }
        int[] cores = new int[srdag.vertexCount()];
        for (int v = 0; v < cores.length; v++) {
          cores[v] = schedule.coreOf(v);
        }
        for (int i = 0; i < changes.length; i += 2) {
          cores[changes[i]] = changes[i + 1];
        }
        Schedule next = ordered(cores);
        Evaluation evaluation = evaluate(next);
        if (evaluation.steady().period() < period * (1 - EPSILON)) {
          accept(next, evaluation);
          return true;
        }
      }
      return false;
    }

    /** The (from, to) core pairs a change may relieve: every critical core, each with its targets. */
    private List<int[]> directions() {
      List<int[]> pairs = new ArrayList<>();
      for (int from = 0; from < schedule.coreCount(); from++) {
        if (critical[from]) {
          for (int to : targets(from)) {
            pairs.add(new int[] {from, to});
          }
        }
      }
      return pairs;
    }

    /** The {@link #TARGETS} least loaded cores other than {@code from} (ties: the lower index). */
    private int[] targets(int from) {
      return IntStream.range(0, load.length).filter(c -> c != from).boxed()
          .sorted(Comparator.<Integer>comparingDouble(c -> load[c]).thenComparingInt(c -> c)).limit(TARGETS)
          .mapToInt(Integer::intValue).toArray();
    }

    /** One move of a firing from a critical core to another core, if one lowers the period. */
    boolean move() {
      List<Candidate> candidates = new ArrayList<>();
      for (int[] pair : directions()) {
        int from = pair[0];
        int to = pair[1];
        double half = (load[from] - load[to]) / 2;
        for (int v : schedule.order(from)) {
          if (allowed(v, to) && fits(work[to] + time(v, to))) {
            candidates.add(new Candidate(Math.abs(time(v, from) - half), new int[] {v, to}));
          }
        }
      }
      return tryInOrder(sorted(candidates));
    }

    /**
     * One swap of a firing on a critical core with a lighter firing on another core, if one lowers the period:
     * for every firing, the two on the other core whose difference comes nearest to halving the gap.
     */
    boolean swap() {
      List<Candidate> candidates = new ArrayList<>();
      for (int[] pair : directions()) {
        int from = pair[0];
        int to = pair[1];
        double half = (load[from] - load[to]) / 2;
        int[] others = schedule.order(to);
        Integer[] byTime = new Integer[others.length];
        for (int i = 0; i < others.length; i++) {
          byTime[i] = others[i];
        }
        Arrays.sort(byTime, Comparator.<Integer>comparingDouble(w -> time(w, from)).thenComparingInt(w -> w));
        double[] times = new double[byTime.length];
        for (int i = 0; i < byTime.length; i++) {
          times[i] = time(byTime[i], from);
        }
        for (int u : schedule.order(from)) {
          // the other firing's time nearest to time(u) - half
          int at = Arrays.binarySearch(times, time(u, from) - half);
          int near = at >= 0 ? at : -at - 1;
          for (int i = Math.max(0, near - 1); i <= Math.min(byTime.length - 1, near); i++) {
            int w = byTime[i];
            double gain = time(u, from) - time(w, from);
            if (gain > 0 && allowed(u, to) && allowed(w, from)
                && fits(work[to] - time(w, to) + time(u, to)) && fits(work[from] - time(u, from) + time(w, from))) {
              candidates.add(new Candidate(Math.abs(gain - half), new int[] {u, to, w, from}));
            }
          }
        }
      }
      return tryInOrder(sorted(candidates));
    }

    private static List<int[]> sorted(List<Candidate> candidates) {
      candidates.sort(Comparator.comparingDouble(Candidate::miss).thenComparing(Candidate::changes, Arrays::compare));
      List<int[]> result = new ArrayList<>(candidates.size());
      for (Candidate candidate : candidates) {
        result.add(candidate.changes());
      }
      return result;
    }
  }

  /**
   * A candidate change.
   *
   * @param miss how far the firings' time moved is from half the two cores' gap
   * @param changes pairs (vertex, new core)
   */
  private record Candidate(double miss, int[] changes) {
  }
}
