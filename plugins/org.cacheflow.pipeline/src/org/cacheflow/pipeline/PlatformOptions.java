package org.cacheflow.pipeline;

import java.util.ArrayList;
import java.util.List;

import org.cacheflow.codegen.model.Core;
import org.cacheflow.model.Architecture;
import org.cacheflow.plan.mapping.Network;
import org.cacheflow.plan.mapping.Platform;
import org.cacheflow.plan.strategy.TargetCache;

/**
 * The {@code --nodes N}, {@code --cores C} and {@code --max-memory SIZE} options of {@code plan}, {@code generate}
 * and {@code run-workflow}: {@code --cores C} alone is C cores on one machine; with {@code --nodes N} it is the cores
 * of each of N nodes (PREESM's SimSDP style). Neither: the scenario's architecture decides, nodes included.
 * {@code --max-memory} is the memory a program may use, in place of the target's {@code memory}.
 *
 * @param nodes the {@code --nodes} value, or null
 * @param cores the {@code --cores} value, or null
 * @param maxMemory the {@code --max-memory} value in bytes (0: no limit), or null for the target's
 */
public record PlatformOptions(Integer nodes, Integer cores, Long maxMemory) {

  /**
   * The most cores a generated program runs on, counted across its nodes (cores are numbered across nodes in the
   * generated code): the code model's {@link Core#MOST}.
   */
  public static final int MAX_CORES = Core.MOST;

  /** The most cores {@code --nodes} may describe in all, for {@code plan} too (beyond, no graph could use them). */
  public static final int MAX_PLANNED_CORES = 65536;

  /** Neither option: the scenario's architecture decides. */
  public static final PlatformOptions ARCHITECTURE = new PlatformOptions(null, null);

  /** The target's memory limit. */
  public PlatformOptions(Integer nodes, Integer cores) {
    this(nodes, cores, null);
  }

  public PlatformOptions {
    if (maxMemory != null && maxMemory < 0) {
      throw new OptionException("--max-memory", "--max-memory must be a size of zero (no limit) or more, got "
          + maxMemory);
    }
  }

  /** The same with {@code --max-memory} (bytes; 0: no limit; null: the target's). */
  public PlatformOptions withMaxMemory(Long bytes) {
    return new PlatformOptions(nodes, cores, bytes);
  }

  /** The memory a program may use: {@code --max-memory} when given, else the target's (0: no limit). */
  public long memoryLimit(TargetCache target) {
    return maxMemory != null ? maxMemory : target.memoryBytes();
  }

  /** What sets {@link #memoryLimit}, in words: {@code --max-memory} or {@code target zen4-vm's memory}. */
  public String memoryLimitSource(TargetCache target) {
    return maxMemory != null ? "--max-memory" : "target " + target.name() + "'s memory";
  }

  /** Whether the command line describes the platform itself (then the scenario's architecture may be absent). */
  public boolean given() {
    return nodes != null || cores != null;
  }

  /**
   * The platform {@code plan} maps on: the command line's, else the scenario's architecture with its own cores,
   * else one node of the target's cores ({@link #platform(Architecture, TargetCache, Fallback)}).
   *
   * @param architecture the scenario's architecture, or null
   */
  public Platform forPlan(Architecture architecture, TargetCache target) {
    return platform(architecture, target, new Fallback(target.cores(), false));
  }

  /**
   * The platform {@code generate} writes a program for: the command line's, else the scenario's architecture (a
   * one-node one as that many cores named {@code Core0..} of one type, as the generated program numbers them), else
   * one core. It may exceed {@link #MAX_CORES}: {@link #checkGenerated(Platform)} says so.
   *
   * @param architecture the scenario's architecture, or null
   */
  public Platform forGenerate(Architecture architecture, TargetCache target) {
    return platform(architecture, target, new Fallback(1, true));
  }

  /**
   * What a command assumes where neither the command line nor the architecture says.
   *
   * @param cores the cores of a node when nothing gives them
   * @param oneNodeGeneric whether a one-node architecture becomes as many cores named {@code Core0..} of one type
   *     rather than its own cores
   */
  private record Fallback(int cores, boolean oneNodeGeneric) {
  }

  /**
   * The command line's platform, else the architecture's, else one node of the fallback's cores. With
   * {@code --nodes} and without {@code --cores}, every node has as many cores as a node of the architecture has (its
   * largest), else the fallback's. The nodes talk through the network the architecture describes (its link speed),
   * else MPI over shared memory ({@link Network}), in the scenario's time unit: the target's {@code timing.ns} when
   * it gives one, else nanoseconds.
   */
  private Platform platform(Architecture architecture, TargetCache target, Fallback fallback) {
    double timeUnit = target.costs().timeUnitNanos() > 0 ? target.costs().timeUnitNanos() * 1e-9
        : Network.NANOSECONDS;
    Platform described = architecture == null || architecture.getCores().isEmpty() ? null
        : Platform.of(architecture, timeUnit);
    if (described != null && fallback.oneNodeGeneric() && described.nodes() == 1) {
      described = Platform.generic(described.size());
    }
    Network network = described != null ? described.network() : Network.loopback(timeUnit);
    if (nodes == null) {
      return cores != null ? Platform.generic(cores).withNetwork(network)
          : described != null ? described : Platform.generic(fallback.cores()).withNetwork(network);
    }
    int perNode = cores != null ? cores : described != null ? largestNode(described) : fallback.cores();
    if ((long) nodes * perNode > MAX_PLANNED_CORES) {
      throw new OptionException(OptionException.NODES, "--nodes " + nodes + " x " + perNode + " cores per node is "
          + (long) nodes * perNode + " cores; at most " + MAX_PLANNED_CORES + " in all");
    }
    return Platform.generic(nodes, perNode).withNetwork(network);
  }

  /**
   * Refuses a platform of more than {@link #MAX_CORES} cores in all, naming the options that made it (a generated
   * program's limit; {@code plan} has none).
   */
  public void checkGenerated(Platform platform) {
    if (platform.size() <= MAX_CORES) {
      return;
    }
    if (nodes != null) {
      throw new OptionException(OptionException.NODES, "--nodes " + nodes + " x " + platform.coresOf(0).length
          + " cores per node is " + platform.size() + " cores; a generated program runs on at most " + MAX_CORES
          + " cores in total");
    }
    if (cores != null) {
      throw new OptionException(OptionException.CORES, "--cores must be at most " + MAX_CORES + ", got " + cores);
    }
    throw new OptionException("the scenario's architecture has " + platform.size() + " cores; a generated program "
        + "runs on at most " + MAX_CORES + " (choose fewer with --cores, or --nodes and --cores)");
  }

  /**
   * The platform's nodes and cores in words: {@code 2 cores}, {@code 2 nodes x 2 cores}, or
   * {@code 3 nodes (2+2+1 cores)} when nodes differ.
   */
  public static String describe(Platform platform) {
    if (platform.nodes() == 1) {
      return platform.size() + (platform.size() == 1 ? " core" : " cores");
    }
    List<String> counts = new ArrayList<>();
    for (int node = 0; node < platform.nodes(); node++) {
      counts.add(Integer.toString(platform.coresOf(node).length));
    }
    boolean even = counts.stream().distinct().count() == 1;
    return platform.nodes() + " nodes " + (even ? "x " + counts.get(0) + (counts.get(0).equals("1") ? " core"
        : " cores") : "(" + String.join("+", counts) + " cores)");
  }

  private static int largestNode(Platform platform) {
    int largest = 0;
    for (int node = 0; node < platform.nodes(); node++) {
      largest = Math.max(largest, platform.coresOf(node).length);
    }
    return largest;
  }
}
