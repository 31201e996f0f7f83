package org.cacheflow.plan.schedule;

import org.cacheflow.plan.mapping.MappingInputs;
import org.cacheflow.plan.srdag.Srdag;
import org.cacheflow.plan.strategy.MeasuredCosts;

/**
 * Whether a schedule on several cores can beat one core once its hand-offs are paid for. Generated code hands
 * every cross-core dependency over through a rdy-ack flag (runtime-c's cf_flag): one event per firing and
 * receiving core, which costs both cores about {@link MeasuredCosts#handoffNanos()} (the raiser's store takes the
 * line, the waiter pulls it and the data back; the slot-free event in the other direction costs the same). Cores
 * pipeline iterations, so an iteration takes about as long as the busiest core: its work plus its hand-offs.
 * When that is not below the whole iteration's work on one core, the extra cores cannot help, and the graph is
 * better run on one core: fine-grained graphs whose firings take less than a few hand-offs.
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
   * @param note why fewer cores, for the plan's report; null when the count stays
   */
  public record Verdict(int cores, String note) {
  }

  /** Decides for a schedule made from {@code inputs}. */
  public static Verdict check(Schedule schedule, MappingInputs inputs, MeasuredCosts costs) {
    int cores = schedule.coreCount();
    if (cores <= 1 || costs.timeUnitNanos() <= 0) {
      return new Verdict(cores, null);
    }
    Srdag srdag = schedule.srdag();
    double unit = costs.timeUnitNanos();
    double work = 0;
    double[] busy = new double[cores];
    long[] events = new long[cores];
    for (int v = 0; v < srdag.vertexCount(); v++) {
      int actor = srdag.vertexActor(v);
      if (actor >= 0 && !inputs.hasTiming(actor) && !isSpecialOrInserted(srdag, v)) {
        return new Verdict(cores, null); // an actor's time is PREESM's default, not a measurement
      }
      double nanos = (schedule.end(v) - schedule.start(v)) * unit;
      work += nanos;
      int core = schedule.coreOf(v);
      busy[core] += nanos;
      long receivers = 0;
      for (int e : srdag.outgoingEdges(v)) {
        int other = schedule.coreOf(srdag.edgeTarget(e));
        if (other != core && (receivers >>> other & 1) == 0) {
          receivers |= 1L << Math.min(other, 63);
          events[other]++;
          events[core]++;
        }
      }
    }
    double period = 0;
    int busiest = 0;
    for (int c = 0; c < cores; c++) {
      double time = busy[c] + events[c] * (double) costs.handoffNanos();
      if (time > period) {
        period = time;
        busiest = c;
      }
    }
    if (period < work) {
      return new Verdict(cores, null);
    }
    String note = String.format(java.util.Locale.ROOT,
        "mapped to 1 core instead of %d: one iteration's work is %.2f us (actor timings x %.3g ns), and on %d cores "
            + "core %d alone would take %.2f us (%.2f us of work and %d hand-offs at %d ns): the cross-core "
            + "hand-offs cost more than the work they would share",
        cores, work / 1e3, unit, cores, busiest, period / 1e3, busy[busiest] / 1e3, events[busiest],
        costs.handoffNanos());
    return new Verdict(1, note);
  }

  private static boolean isSpecialOrInserted(Srdag srdag, int vertex) {
    return srdag.vertexActor(vertex) < 0
        || srdag.flatGraph().actor(srdag.vertexActor(vertex)).kind() != org.cacheflow.model.ActorKind.NORMAL;
  }
}
