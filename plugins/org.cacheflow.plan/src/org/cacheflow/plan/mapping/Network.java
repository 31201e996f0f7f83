package org.cacheflow.plan.mapping;

/**
 * How long a message between two nodes takes, in the scenario's time units: {@code latency + bytes / bandwidth}.
 * The planner charges it to every buffer whose producer and consumer run on different nodes when it list-schedules
 * (so that the schedule's makespan predicts an iteration's time), and the node partitioner weighs cut bytes with it.
 * Messages do not contend for the link (each transfer is charged alone). Immutable.
 *
 * <p>
 * Assumptions of {@link #LOOPBACK} (the default when the architecture gives no link speed): the transport is MPI
 * over shared memory on one machine (Open MPI's vader/sm BTL), about {@value #LOOPBACK_LATENCY_SECONDS} s per
 * message and {@value #LOOPBACK_BYTES_PER_SECOND} bytes per second for large messages; time units are nanoseconds
 * (PREESM's convention for timings measured in ns; a scenario in cycles of a ~1 GHz core is close). A scenario in
 * other units (the stereo example's are microseconds) needs {@link #loopback(double)} with its unit; a real
 * network, {@link #of} with its figures (an S-LAM com node's speed, say).
 *
 * @param latency time units per message
 * @param bytesPerTimeUnit bytes sent per time unit once a message is started (positive)
 */
public record Network(long latency, double bytesPerTimeUnit) {

  /** Seconds per message of MPI over shared memory on one machine. */
  public static final double LOOPBACK_LATENCY_SECONDS = 1e-6;

  /** Bytes per second of MPI over shared memory on one machine, for large messages. */
  public static final double LOOPBACK_BYTES_PER_SECOND = 4e9;

  /** Seconds per time unit when the scenario's times are nanoseconds. */
  public static final double NANOSECONDS = 1e-9;

  /** MPI over shared memory on one machine, in nanoseconds (see the class comment). */
  public static final Network LOOPBACK = loopback(NANOSECONDS);

  public Network {
    if (latency < 0) {
      throw new IllegalArgumentException("network latency must not be negative: " + latency);
    }
    if (!(bytesPerTimeUnit > 0) || Double.isInfinite(bytesPerTimeUnit)) {
      throw new IllegalArgumentException("network bandwidth must be positive: " + bytesPerTimeUnit);
    }
  }

  /**
   * A network from physical figures.
   *
   * @param latencySeconds seconds per message
   * @param bytesPerSecond bytes per second
   * @param secondsPerTimeUnit the scenario's time unit in seconds (1e-9 for nanoseconds, 1e-6 for microseconds)
   */
  public static Network of(double latencySeconds, double bytesPerSecond, double secondsPerTimeUnit) {
    if (!(secondsPerTimeUnit > 0)) {
      throw new IllegalArgumentException("the time unit must be positive: " + secondsPerTimeUnit);
    }
    return new Network(Math.round(latencySeconds / secondsPerTimeUnit), bytesPerSecond * secondsPerTimeUnit);
  }

  /** MPI over shared memory on one machine, for a scenario whose time unit is that many seconds. */
  public static Network loopback(double secondsPerTimeUnit) {
    return of(LOOPBACK_LATENCY_SECONDS, LOOPBACK_BYTES_PER_SECOND, secondsPerTimeUnit);
  }

  /** The same latency with another bandwidth. */
  public Network withBandwidth(double value) {
    return new Network(latency, value);
  }

  /** The time one message of that many bytes takes from the sender's end to the receiver's. */
  public long transferTime(long bytes) {
    double time = latency + Math.ceil(bytes / bytesPerTimeUnit);
    return time >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) time;
  }
}
