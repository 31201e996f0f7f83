package org.cacheflow.plan.schedule;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.cacheflow.model.ActorKind;
import org.cacheflow.plan.mapping.MappingInputs;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.plan.strategy.MeasuredCosts;
import org.cacheflow.plan.strategy.PlanNote;

/**
 * Whether a schedule on several cores can beat one core once its hand-offs and the data crossing between the cores are
 * paid for. Generated code hands every cross-core dependency over through a rdy-ack flag (runtime-c's cf_flag): one
 * event per firing and receiving core, which costs both cores about {@link MeasuredCosts#handoffNanos()} (the raiser's
 * store takes the line, the waiter pulls it back; the slot-free event in the other direction costs the same). The data
 * moves too: every line of a buffer read on another core than the one that wrote it is pulled by the reader, and taken
 * back from the reader's cache by the writer when it writes the buffer again (next iteration):
 * {@link MeasuredCosts#lineNanos()} per line, charged to each of the two cores --
 * {@link MeasuredCosts#spanningLineNanos()} for a line of a merge group whose slots together span the L2
 * ({@link org.cacheflow.plan.strategy.GroupSlots}): the writer comes back to a slot after its lines left the reader's
 * cache, and the reader pulls them behind its work. Cores pipeline iterations, so an iteration takes about as long as
 * the busiest core: its work, its hand-offs and its lines; unless the cores' orders form a cycle across cores (a core
 * waits within an iteration for another core that waits for it, as a farm's emitter and collector on one core and its
 * workers split), which {@link SteadyState} finds by running the orders self-timed: then an iteration takes that
 * cycle's length. When that is not below the whole iteration's work on one core, the extra cores cannot help, and the
 * graph is better run on one core: fine-grained graphs whose firings take about what moving their data and flags
 * between the cores takes.
 *
 * <p>
 * Buffers are followed through the special vertices (fork, join, broadcast, round buffer) to the actor that wrote
 * them: merged by the memory scripts, these move no data themselves; the lines cross where an actor reads what an
 * actor on another core wrote.
 *
 * <p>
 * Needs the actors' timings in a known unit: every actor timed by the scenario and the target's
 * {@link MeasuredCosts#timeUnitNanos()} set; otherwise the schedule keeps its cores.
 */
public final class CoreCount {

  private CoreCount() {
  }

  /**
   * The check's outcome.
   *
   * @param cores the cores to map onto (the schedule's own count when it can gain from them)
   * @param note why, for the plan's report: fewer cores, or the figures by which the cores stay; null when the
   *     check could not weigh them (unknown timings or unit) or there is one core
   */
  public record Verdict(int cores, PlanNote.CoreVerdict note) {
  }

  /** Decides for a schedule made from {@code inputs}, with 64-byte cache lines. */
  public static Verdict check(Schedule schedule, MappingInputs inputs, MeasuredCosts costs) {
    return check(schedule, inputs, costs, 64);
  }

  /**
   * Decides for a schedule made from {@code inputs}.
   *
   * @param lineBytes the target's cache line: a cross-core buffer moves its bytes / this many lines
   */
  public static Verdict check(Schedule schedule, MappingInputs inputs, MeasuredCosts costs, long lineBytes) {
    return check(schedule, inputs, costs, lineBytes, MergeGroups.NONE);
  }

  /**
   * Decides for a schedule made from {@code inputs} whose buffers lie in merge groups.
   *
   * @param lineBytes the target's cache line: a cross-core buffer moves its bytes / this many lines
   */
  public static Verdict check(Schedule schedule, MappingInputs inputs, MeasuredCosts costs, long lineBytes,
      MergeGroups groups) {
    int cores = schedule.coreCount();
    if (cores <= 1 || costs.timeUnitNanos() <= 0) {
      return new Verdict(cores, null);
    }
    Charges charges = charges(schedule, inputs, costs, lineBytes, groups);
    if (charges == null) {
      return new Verdict(cores, null); // an actor's time is PREESM's default, not a measurement
    }
    Busiest busiest = busiest(schedule, charges, costs);
    SteadyState.Result steady = SteadyState.of(schedule, charges.duration(), groups.roots());
    boolean cycle = steady.period() > busiest.nanos() * (1 + 1e-9) + 1e-6;
    double period = cycle ? steady.period() : busiest.nanos();
    PlanNote.Rule rule = period * (1 + MARGIN) <= busiest.work() ? PlanNote.Rule.KEPT_CORES
        : period < busiest.work() ? PlanNote.Rule.FEWER_CORES_WITHIN_MARGIN : PlanNote.Rule.FEWER_CORES_COSTLY;
    int core = busiest.core();
    PlanNote.CoreLoad load = new PlanNote.CoreLoad(core, busiest.nanos(), busiest.busy()[core],
        busiest.events()[core], busiest.lines()[core], busiest.spanningLines()[core]);
    PlanNote.CoreVerdict note = new PlanNote.CoreVerdict(rule, cores, busiest.work(), load, costs,
        cycle ? cycle(schedule, steady) : null, steady.iterations(), period, MARGIN);
    return new Verdict(rule == PlanNote.Rule.KEPT_CORES ? cores : 1, note);
  }

  /**
   * The whole iteration's work on one core and, per core, its work, hand-offs and lines; the busiest core and what
   * it alone would take an iteration, in ns.
   */
  private record Busiest(double work, double[] busy, long[] events, long[] lines, long[] spanningLines, int core,
      double nanos) {
  }

  private static Busiest busiest(Schedule schedule, Charges charges, MeasuredCosts costs) {
    int cores = schedule.coreCount();
    double unit = costs.timeUnitNanos();
    double work = 0;
    double[] busy = new double[cores];
    long[] events = new long[cores];
    long[] lines = new long[cores];
    long[] spanningLines = new long[cores];
    for (int v = 0; v < schedule.srdag().vertexCount(); v++) {
      int core = schedule.coreOf(v);
      double nanos = (schedule.end(v) - schedule.start(v)) * unit;
      work += nanos;
      busy[core] += nanos;
      events[core] += charges.events()[v];
      lines[core] += charges.lines()[v];
      spanningLines[core] += charges.spanningLines()[v];
    }
    double period = 0;
    int busiest = 0;
    for (int c = 0; c < cores; c++) {
      double time = busy[c] + events[c] * (double) costs.handoffNanos() + lines[c] * costs.lineNanos()
          + spanningLines[c] * costs.spanningLineNanos();
      if (time > period) {
        period = time;
        busiest = c;
      }
    }
    return new Busiest(work, busy, events, lines, spanningLines, busiest, period);
  }

  /**
   * The gain more cores must promise: below it the prediction cannot tell them from break-even (the scenario's
   * actor times move by 20-50% between measurements, bench/RESULTS.md; a 2-core map at 168x168 predicted 1.01x ran
   * at 0.83x), so the cores are not worth their risk.
   */
  static final double MARGIN = 0.05;

  /**
   * Per vertex: its firing's duration in ns (its work, and its hand-offs and lines at the target's costs), the
   * hand-off events and the cache lines charged to it (at the line cost; of merge groups spanning the L2 apart).
   */
  record Charges(double[] duration, long[] events, long[] lines, long[] spanningLines) {
  }

  /**
   * What each firing of the schedule costs on its core, in ns: its work (the actor's time x the target's unit),
   * a hand-off for every other core it raises a flag for or first waits on, and the lines of the cross-core
   * buffers it reads or writes again. Null when the unit is unknown or an actor has no scenario timing.
   */
  static Charges charges(Schedule schedule, MappingInputs inputs, MeasuredCosts costs, long lineBytes) {
    return charges(schedule, inputs, costs, lineBytes, MergeGroups.NONE);
  }

  /**
   * As {@link #charges(Schedule, MappingInputs, MeasuredCosts, long)}, the lines of merge groups spanning the L2 at
   * their own cost.
   */
  static Charges charges(Schedule schedule, MappingInputs inputs, MeasuredCosts costs, long lineBytes,
      MergeGroups groups) {
    if (costs.timeUnitNanos() <= 0 || !timed(schedule.srdag(), inputs)) {
      return null;
    }
    Srdag srdag = schedule.srdag();
    double unit = costs.timeUnitNanos();
    double[] duration = new double[srdag.vertexCount()];
    long[] vertexEvents = new long[srdag.vertexCount()];
    long[] vertexLines = new long[srdag.vertexCount()];
    long[] vertexSpanning = new long[srdag.vertexCount()];
    // per (written edge, slice of it, reading core): {lines, the core's first reading vertex}
    Map<Pull, long[]> pulls = new LinkedHashMap<>();
    for (int v = 0; v < srdag.vertexCount(); v++) {
      duration[v] = (schedule.end(v) - schedule.start(v)) * unit;
      int core = schedule.coreOf(v);
      long receivers = 0;
      for (int e : srdag.outgoingEdges(v)) {
        int other = schedule.coreOf(srdag.edgeTarget(e));
        if (other != core && (receivers >>> other & 1) == 0) {
          receivers |= 1L << Math.min(other, 63);
          vertexEvents[v]++;
          vertexEvents[firstReceiver(schedule, v, other)]++; // the other core's wait, before its first reader
        }
      }
      if (!isSpecialOrInserted(srdag, v)) {
        for (int e : srdag.incomingEdges(v)) {
          pulls(schedule, e, -1, srdag.edgeBytes(e), v, Math.max(1, lineBytes), pulls, 0);
        }
      }
    }
    // a core pulls a written buffer's lines once per iteration, however many of its firings read them (a
    // broadcast's readers after the first find them in the core's cache), and the writer takes each line back once
    Map<Pull, Long> takeBack = new LinkedHashMap<>();
    for (Map.Entry<Pull, long[]> pull : pulls.entrySet()) {
      long lines = pull.getValue()[0];
      (groups.spans(pull.getKey().edge()) ? vertexSpanning : vertexLines)[(int) pull.getValue()[1]] += lines;
      takeBack.merge(new Pull(pull.getKey().edge(), pull.getKey().slice(), -1), lines, Math::max);
    }
    for (Map.Entry<Pull, Long> back : takeBack.entrySet()) {
      int edge = back.getKey().edge();
      (groups.spans(edge) ? vertexSpanning : vertexLines)[srdag.edgeSource(edge)] += back.getValue();
    }
    for (int v = 0; v < srdag.vertexCount(); v++) {
      duration[v] += vertexEvents[v] * (double) costs.handoffNanos() + vertexLines[v] * costs.lineNanos()
          + vertexSpanning[v] * costs.spanningLineNanos();
    }
    return new Charges(duration, vertexEvents, vertexLines, vertexSpanning);
  }

  /**
   * Each firing's duration for a self-timed run: its work and charges in ns ({@link #charges}) when the target's time
   * unit is known, else its scenario time (work only, scenario units).
   */
  static double[] durations(Schedule schedule, MappingInputs inputs, MeasuredCosts costs, long lineBytes) {
    return durations(schedule, inputs, costs, lineBytes, MergeGroups.NONE);
  }

  /**
   * As {@link #durations(Schedule, MappingInputs, MeasuredCosts, long)}, the lines of merge groups spanning the L2 at
   * their own cost.
   */
  static double[] durations(Schedule schedule, MappingInputs inputs, MeasuredCosts costs, long lineBytes,
      MergeGroups groups) {
    if (costs.timeUnitNanos() > 0) {
      return charges(schedule, inputs, costs, lineBytes, groups).duration();
    }
    double[] duration = new double[schedule.srdag().vertexCount()];
    for (int v = 0; v < duration.length; v++) {
      duration[v] = schedule.end(v) - schedule.start(v);
    }
    return duration;
  }

  /** Whether every actor of the graph has a scenario timing (special and inserted vertices need none). */
  static boolean timed(Srdag srdag, MappingInputs inputs) {
    for (int v = 0; v < srdag.vertexCount(); v++) {
      int actor = srdag.vertexActor(v);
      if (actor >= 0 && !inputs.hasTiming(actor) && !isSpecialOrInserted(srdag, v)) {
        return false;
      }
    }
    return true;
  }

  /** Recursion limit through chains of special vertices (deeper chains are charged where they stop). */
  private static final int MAX_DEPTH = 64;

  /**
   * Records the lines of {@code bytes} of edge {@code e}, read on {@code reader}'s core, when the actor that wrote
   * them ran on another core: per written edge and reading core the most lines, charged to the core's first reader
   * (its pulls) and, once per written edge, to the writer (its take-backs); follows special vertices back to their
   * inputs.
   */
  private static void pulls(Schedule schedule, int e, int slice, long bytes, int reader, long lineBytes,
      Map<Pull, long[]> pulls, int depth) {
    Srdag srdag = schedule.srdag();
    int source = srdag.edgeSource(e);
    int[] inputs = srdag.incomingEdges(source);
    if (isSpecialOrInserted(srdag, source) && inputs.length > 0 && depth < MAX_DEPTH) {
      // a broadcast's outputs are the same bytes (also an inserted vertex that repeats its one input whole, as a
      // hierarchy's input interface read by every firing); any other special vertex's outputs are slices
      int part = repeats(srdag, source) ? slice : e;
      long total = 0;
      for (int in : inputs) {
        total += srdag.edgeBytes(in);
      }
      for (int in : inputs) {
        // one input (fork, broadcast): the edge's bytes come from it; several (join): each its share
        long share = inputs.length == 1 ? Math.min(bytes, srdag.edgeBytes(in))
            : total <= 0 ? 0 : Math.round((double) bytes * srdag.edgeBytes(in) / total);
        pulls(schedule, in, part, share, reader, lineBytes, pulls, depth + 1);
      }
      return;
    }
    int core = schedule.coreOf(reader);
    if (schedule.coreOf(source) != core && bytes > 0) {
      long n = (bytes + lineBytes - 1) / lineBytes;
      long[] pull = pulls.computeIfAbsent(new Pull(e, slice, core), k -> new long[] {0, reader});
      pull[0] = Math.max(pull[0], n);
      if (schedule.position(reader) < schedule.position((int) pull[1])) {
        pull[1] = reader;
      }
    }
  }

  /** Whether a special vertex's outputs are each its one input whole (a broadcast). */
  private static boolean repeats(Srdag srdag, int vertex) {
    int[] inputs = srdag.incomingEdges(vertex);
    int actor = srdag.vertexActor(vertex);
    if (actor >= 0 && srdag.flatGraph().actor(actor).kind() == ActorKind.BROADCAST) {
      return true;
    }
    if (inputs.length != 1) {
      return false;
    }
    for (int out : srdag.outgoingEdges(vertex)) {
      if (srdag.edgeBytes(out) != srdag.edgeBytes(inputs[0])) {
        return false;
      }
    }
    return srdag.outgoingEdges(vertex).length > 1;
  }

  /** The lines of a written edge's slice (-1: all of it) a core reads (core -1: every core, for take-backs). */
  private record Pull(int edge, int slice, int core) {
  }

  /** The first vertex in {@code core}'s order that reads an output of {@code v}. */
  private static int firstReceiver(Schedule schedule, int v, int core) {
    int first = -1;
    for (int e : schedule.srdag().outgoingEdges(v)) {
      int t = schedule.srdag().edgeTarget(e);
      if (schedule.coreOf(t) == core && (first < 0 || schedule.position(t) < schedule.position(first))) {
        first = t;
      }
    }
    return first;
  }

  /**
   * The critical cycle for the note: its actors, and the special vertices on cores no actor of the cycle runs on
   * (where it crosses through them); empty when its critical firings are inserted vertices.
   */
  private static List<PlanNote.CycleStep> cycle(Schedule schedule, SteadyState.Result steady) {
    Set<Integer> actorCores = new HashSet<>();
    for (SteadyState.Step step : steady.cycle()) {
      if (!isSpecialOrInserted(schedule.srdag(), step.vertex())) {
        actorCores.add(step.core());
      }
    }
    List<PlanNote.CycleStep> steps = new ArrayList<>();
    for (SteadyState.Step step : steady.cycle()) {
      if (!isSpecialOrInserted(schedule.srdag(), step.vertex()) || !actorCores.contains(step.core())) {
        steps.add(new PlanNote.CycleStep(step.vertex(), step.core()));
      }
    }
    return steps;
  }

  private static boolean isSpecialOrInserted(Srdag srdag, int vertex) {
    return srdag.vertexActor(vertex) < 0
        || srdag.flatGraph().actor(srdag.vertexActor(vertex)).kind() != ActorKind.NORMAL;
  }
}
