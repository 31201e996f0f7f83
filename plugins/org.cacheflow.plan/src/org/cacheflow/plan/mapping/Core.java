package org.cacheflow.plan.mapping;

/**
 * A core actors can be mapped to.
 *
 * @param index position in {@link Platform#cores()}, the number schedules and plans use
 * @param name the core's name as the architecture (or {@code --cores}) gives it, e.g. {@code Core0}
 * @param type the core type scenario timings are given for, e.g. {@code x86}
 * @param node the node (machine, MPI rank) the core belongs to: cores of one node share memory, cores of
 *     different nodes communicate through MPI; 0 on a single-node platform
 */
public record Core(int index, String name, String type, int node) {

  /** A core of node 0 (a single-node platform). */
  public Core(int index, String name, String type) {
    this(index, name, type, 0);
  }

  @Override
  public String toString() {
    return name;
  }
}
