package org.cacheflow.io.profile;

import java.util.List;

/**
 * A profile written by {@code cacheflow profile} ({@code profile.json}): what a run of the real actors did, per actor
 * and port, and what it suggests. The planner takes it with {@code --profile}; this bundle knows its syntax only.
 *
 * @param cacheflowProfile the format's version ({@link #VERSION})
 * @param graph the graph profiled
 * @param iterations the graph iterations each run made
 * @param cores the cores the profiled program ran on
 * @param instrumentation how it was measured: granularity and cost
 * @param actors per actor of the flat graph that fired
 * @param buffers per FIFO between two measured actors: its re-read distance
 * @param unwrittenDigests the FIFOs whose {@code --validate} digest covers bytes no actor writes (so the digest
 *     depends on the memory layout and may differ between strategies), one sentence each
 */
public record ProfileFile(int cacheflowProfile, String graph, int iterations, int cores,
    Instrumentation instrumentation, List<ActorProfile> actors, List<BufferProfile> buffers,
    List<String> unwrittenDigests) {

  /** The format version this bundle reads and writes. */
  public static final int VERSION = 1;

  /** The actor of that path (as the flat graph names it, e.g. {@code stereo/costParallel/aggregate}), or null. */
  public ActorProfile actor(String path) {
    for (ActorProfile actor : actors) {
      if (actor.actor().equals(path)) {
        return actor;
      }
    }
    return null;
  }

  /**
   * How the run was instrumented.
   *
   * @param granularity what each fact is measured at, in words
   * @param runs the runs made, with their wall time
   * @param pageBytes the page size of the page-protection run (0 without one)
   * @param exactFaults whether a page fault told a read from a write
   */
  public record Instrumentation(String granularity, List<RunCost> runs, long pageBytes, boolean exactFaults) {
  }

  /**
   * One run of the program.
   *
   * @param mode {@code plain} (no instrumentation), {@code time}, {@code canary} or {@code pages}
   * @param seconds its wall time (process start to end)
   * @param slowdown its time over the plain run's
   */
  public record RunCost(String mode, double seconds, double slowdown) {
  }

  /**
   * An actor's firings.
   *
   * @param actor its path in the flat graph
   * @param firings firings timed (every call site, every iteration)
   * @param time time per firing, in nanoseconds
   * @param ports its data ports
   */
  public record ActorProfile(String actor, long firings, TimeStats time, List<PortProfile> ports) {

    /** The port of that name, or null. */
    public PortProfile port(String name) {
      for (PortProfile port : ports) {
        if (port.port().equals(name)) {
          return port;
        }
      }
      return null;
    }
  }

  /**
   * Time per firing.
   *
   * @param medianNs the median
   * @param q1Ns the first quartile
   * @param q3Ns the third quartile
   * @param minNs the fastest
   * @param maxNs the slowest
   * @param cv the coefficient of variation (standard deviation over mean)
   */
  public record TimeStats(double medianNs, double q1Ns, double q3Ns, double minNs, double maxNs, double cv) {
  }

  /**
   * What the firings did with one data port.
   *
   * @param port the port's name
   * @param input whether it is an input
   * @param bytesPerFiring the bytes the port gives a firing
   * @param declared the annotation the graph declares ({@code NONE} without one)
   * @param measured what the run shows: {@code READ_ONLY} (an input never written), {@code WRITE_ONLY} (an output
   *     never read before written), {@code UNUSED} (never touched), {@code NONE} (a written input, or an output read
   *     before written)
   * @param firings firings measured
   * @param writtenFirings inputs: firings that changed it
   * @param storedFirings inputs: firings that stored to one of its pages (even the same value)
   * @param readFirstFirings outputs: firings whose first access to one of its pages was a read
   * @param writtenBytesPerFiring outputs: bytes written per firing; inputs: bytes changed per firing
   * @param readBytesPerFiring bytes on pages the firing read, per firing (page granularity; -1 unmeasured)
   * @param unwrittenBytes outputs: bytes no firing wrote
   * @param unwrittenRanges outputs: those bytes as [from, to) ranges (at most 64)
   */
  public record PortProfile(String port, boolean input, long bytesPerFiring, String declared, String measured,
      long firings, long writtenFirings, long storedFirings, long readFirstFirings, double writtenBytesPerFiring,
      double readBytesPerFiring, long unwrittenBytes, List<List<Long>> unwrittenRanges) {
  }

  /**
   * A FIFO's data between its write and its first re-read (the DirtBuster pattern: written, then not re-read soon).
   *
   * @param fifo the FIFO, as {@code source.port -> target.port}
   * @param bytes its bytes per iteration
   * @param reReadDistanceBytes bytes the firings between the write and the first re-read touched (the one-core order)
   * @param sameCore whether the reader runs on the writer's core in the plan of the profiled cores
   */
  public record BufferProfile(String fifo, long bytes, long reReadDistanceBytes, boolean sameCore) {
  }
}
