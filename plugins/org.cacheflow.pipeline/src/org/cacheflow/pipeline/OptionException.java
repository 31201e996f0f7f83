package org.cacheflow.pipeline;

/**
 * A setting the caller gave is not valid (a strategy name, an override, a core count beyond the generated program's
 * limit): the message names the option ({@code --cores}, {@code slots=K}) as users wrote it. The command line turns
 * it into a usage error; the workflow runner reports it at the task setting it came from.
 */
public final class OptionException extends RuntimeException {

  /** The option of {@code --override} (slots=K, pipelining=on|off, per-FIFO overrides). */
  public static final String OVERRIDE = "--override";
  /** The option of the core count (of each node). */
  public static final String CORES = "--cores";
  /** The option of the node count. */
  public static final String NODES = "--nodes";
  /** The option of the run-time schedule (static, dynamic, hybrid). */
  public static final String SCHEDULE = "--schedule";
  /** The option marking an actor variable (hybrid schedules). */
  public static final String VARIABLE = "--variable";
  /** The option giving an actor's cost spread. */
  public static final String COST_SPREAD = "--cost-spread";

  private static final long serialVersionUID = 1L;

  /** The option the setting was given as ({@link #OVERRIDE}, {@link #CORES}, ...), or null when unknown. */
  private final String option;

  public OptionException(String message) {
    this(null, message);
  }

  /** @param option the option the setting was given as, so that a front end can point at where it was given */
  public OptionException(String option, String message) {
    super(message, null, false, false);
    this.option = option;
  }

  /** The option the setting was given as ({@link #OVERRIDE}, {@link #CORES}, {@link #NODES}), or null. */
  public String option() {
    return option;
  }
}
