package org.cacheflow.plan.mapping;

import java.util.ArrayList;
import java.util.List;

import org.cacheflow.model.Architecture;

/**
 * The cores a graph is mapped onto, in a fixed order (their indices), grouped into nodes: cores of one node
 * share memory; cores of different nodes (machines, MPI ranks) exchange data by message passing. Nodes are
 * numbered from 0 without gaps and every node has at least one core. Immutable.
 */
public final class Platform {

  /** The core type of cores made up by {@link #generic(int)}. */
  public static final String GENERIC_TYPE = "generic";

  private final List<Core> cores;
  private final int nodes;
  private final Network network;

  /** Cores whose nodes (if several) talk through {@link Network#LOOPBACK}. */
  public Platform(List<Core> cores) {
    this(cores, Network.LOOPBACK);
  }

  /** Cores whose nodes (if several) talk through that network. */
  public Platform(List<Core> cores, Network network) {
    if (network == null) {
      throw new IllegalArgumentException("a platform needs a network model");
    }
    this.network = network;
    if (cores.isEmpty()) {
      throw new IllegalArgumentException("a platform needs at least one core");
    }
    for (int i = 0; i < cores.size(); i++) {
      if (cores.get(i).index() != i) {
        throw new IllegalArgumentException("core " + cores.get(i) + " has index " + cores.get(i).index()
            + " at position " + i);
      }
    }
    this.cores = List.copyOf(cores);
    int nodes = 0;
    for (Core core : cores) {
      if (core.node() < 0) {
        throw new IllegalArgumentException("core " + core + " has a negative node " + core.node());
      }
      nodes = Math.max(nodes, core.node() + 1);
    }
    int[] count = new int[nodes];
    for (Core core : cores) {
      count[core.node()]++;
    }
    for (int node = 0; node < nodes; node++) {
      if (count[node] == 0) {
        throw new IllegalArgumentException("node " + node + " has no core (nodes are numbered without gaps)");
      }
    }
    this.nodes = nodes;
  }

  /** {@code count} cores named {@code Core0 .. Core<count-1>} (PREESM's naming), all of one type. */
  public static Platform generic(int count) {
    return generic(1, count);
  }


  /**
   * {@code nodes} nodes of {@code coresPerNode} cores each, all of one type; cores are numbered node by node
   * and named {@code Core0 .. Core<n-1>} across nodes (so scenario constraints naming PREESM's cores apply).
   */
  public static Platform generic(int nodes, int coresPerNode) {
    if (nodes <= 0) {
      throw new IllegalArgumentException("node count must be positive: " + nodes);
    }
    if (coresPerNode <= 0) {
      throw new IllegalArgumentException("core count must be positive: " + coresPerNode);
    }
    List<Core> cores = new ArrayList<>();
    for (int node = 0; node < nodes; node++) {
      for (int i = 0; i < coresPerNode; i++) {
        int index = cores.size();
        cores.add(new Core(index, "Core" + index, GENERIC_TYPE, node));
      }
    }
    return new Platform(cores);
  }

  /**
   * The cores of an S-LAM architecture, in declaration order, with their nodes; on several nodes the network is
   * the loopback one ({@link Network}) with the architecture's network speed when it gives one, times in nanoseconds.
   */
  public static Platform of(Architecture architecture) {
    return of(architecture, Network.NANOSECONDS);
  }

  /**
   * As {@link #of(Architecture)}, for a scenario whose time unit is that many seconds: the network's latency
   * ({@link Network#LOOPBACK_LATENCY_SECONDS}) and speed (the architecture's, in bytes per second, else
   * {@link Network#LOOPBACK_BYTES_PER_SECOND}) in that unit.
   */
  public static Platform of(Architecture architecture, double secondsPerTimeUnit) {
    List<Core> cores = new ArrayList<>();
    for (org.cacheflow.model.Core core : architecture.getCores()) {
      String type = core.getType() == null || core.getType().isEmpty() ? GENERIC_TYPE : core.getType();
      cores.add(new Core(cores.size(), core.getName(), type, core.getNode()));
    }
    double speed = architecture.getNetworkSpeed() > 0 ? architecture.getNetworkSpeed()
        : Network.LOOPBACK_BYTES_PER_SECOND;
    return new Platform(cores, Network.of(Network.LOOPBACK_LATENCY_SECONDS, speed, secondsPerTimeUnit));
  }

  public List<Core> cores() {
    return cores;
  }

  public int size() {
    return cores.size();
  }

  /** How many nodes the cores form (1: one shared-memory machine). */
  public int nodes() {
    return nodes;
  }

  /** How the nodes exchange messages (unused on one node). */
  public Network network() {
    return network;
  }

  /** The same cores with another network model. */
  public Platform withNetwork(Network value) {
    return new Platform(cores, value);
  }

  /** The node of the core with that index. */
  public int nodeOf(int core) {
    return cores.get(core).node();
  }

  /** The indices of the node's cores, in order. */
  public int[] coresOf(int node) {
    return cores.stream().filter(core -> core.node() == node).mapToInt(Core::index).toArray();
  }

  public Core core(int index) {
    return cores.get(index);
  }

  /** The core with that name, or null. */
  public Core core(String name) {
    for (Core core : cores) {
      if (core.name().equals(name)) {
        return core;
      }
    }
    return null;
  }

  @Override
  public String toString() {
    return cores.toString();
  }
}
