package org.cacheflow.plan.strategy;

import org.cacheflow.plan.schedule.Schedule;

/**
 * A per-FIFO strategy override is malformed, names no FIFO, or asks for a strategy that cannot apply.
 *
 * <p>
 * For an override that cannot apply to any buffer of a FIFO, the exception carries why as a value
 * ({@link #refusal()}, with the buffer and the schedule it names cores and FIFOs by): the report bundle words it
 * ({@code org.cacheflow.report.DecisionText#message(OverrideException)}), which is the message the user reads; the
 * exception's own message then names the refusal's rule only.
 */
public final class OverrideException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final transient StrategyOverride override;
  private final String fifo;
  private final int edge;
  private final transient OverrideRefusal refusal;
  private final transient Schedule schedule;

  public OverrideException(String message) {
    super(message);
    this.override = null;
    this.fifo = null;
    this.edge = -1;
    this.refusal = null;
    this.schedule = null;
  }

  /** The override can apply to no buffer of {@code fifo}: for the first, {@code edge}, because of {@code refusal}. */
  OverrideException(StrategyOverride override, String fifo, int edge, OverrideRefusal refusal, Schedule schedule) {
    super("override '" + override.text() + "': " + override.strategy().label + " cannot apply to FIFO " + fifo + " ("
        + refusal.rule() + (refusal.cow() == null ? "" : " " + refusal.cow().rule()) + ")");
    this.override = override;
    this.fifo = fifo;
    this.edge = edge;
    this.refusal = refusal;
    this.schedule = schedule;
  }

  /** The override that cannot apply, or null when the exception is about its text or the FIFOs it names. */
  public StrategyOverride override() {
    return override;
  }

  /** The name of the FIFO it cannot apply to ({@code source -> target}), or null. */
  public String fifo() {
    return fifo;
  }

  /** The single-rate edge the refusal is about, or -1. */
  public int edge() {
    return edge;
  }

  /** Why the override cannot apply, or null. */
  public OverrideRefusal refusal() {
    return refusal;
  }

  /** The schedule the refusal's cores and vertices belong to, or null. */
  public Schedule schedule() {
    return schedule;
  }
}
