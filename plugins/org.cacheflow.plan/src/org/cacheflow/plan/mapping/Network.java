package org.cacheflow.plan.mapping;

/**
 * How long a message between two nodes takes, in the scenario's time units: {@code latency + bytes / bandwidth}.
 * The planner charges it to every buffer whose producer and consumer run on different nodes when it list-schedules
 * (so that the schedule's makespan predicts an iteration's time), and the node partitioner weighs cut bytes with it.
 * Messages do not contend for the link (each transfer is charged alone). Immutable.
 *
 * <p>
 * Assumptions of {@link #LOOPBACK} (the default when the architecture gives no link speed): time units are
 * nanoseconds (PREESM's convention for timings measured in ns; a scenario in cycles of a ~1 GHz core is close), and
 * the transport is MPI over shared memory on one machine (Open MPI's vader/sm BTL): about 1 us per message and about
 * 4 bytes per ns (4 GB/s) for large messages. Real networks: give the S-LAM link's speed
 * ({@link #withBandwidth}).
 *
 * @param latency time units per message
 * @param bytesPerTimeUnit bytes sent per time unit once a message is started (positive)
 */
public record Network(long latency, double bytesPerTimeUnit) {

  /** MPI over shared memory on one machine, in nanoseconds (see the class comment). */
  public static final Network LOOPBACK = new Network(1000, 4.0);

  public Network {
    if (latency < 0) {
      throw new IllegalArgumentException("network latency must not be negative: " + latency);
    }
    if (!(bytesPerTimeUnit > 0) || Double.isInfinite(bytesPerTimeUnit)) {
      throw new IllegalArgumentException("network bandwidth must be positive: " + bytesPerTimeUnit);
    }
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
