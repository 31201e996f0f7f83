package org.cacheflow.plan.mapping;

/** How the list scheduler picks a core for each single-rate vertex. */
public enum MappingPolicy {

  /**
   * Workload-based: each vertex goes to the allowed core where it finishes earliest (ties: the lowest core
   * index), balancing the scenario's execution times as the copy-on-write paper's mapping does.
   */
  LOAD_BALANCE("load"),

  /**
   * Memory-locality-aware: as {@link #LOAD_BALANCE}, but a vertex receiving large buffers (at least the
   * target's L1 data cache) goes to the allowed core that produced most of those bytes when the load allows
   * it: the vertex finishes there at most 10% of the ideal per-core load (total work / cores) later than on
   * the best core, or no later than the schedule built so far already reaches (it fills idle time).
   */
  LOCALITY("locality");

  /** The name used on the command line and in reports. */
  public final String label;

  MappingPolicy(String label) {
    this.label = label;
  }

  /** The policy with that label, or null. */
  public static MappingPolicy byLabel(String label) {
    for (MappingPolicy policy : values()) {
      if (policy.label.equals(label)) {
        return policy;
      }
    }
    return null;
  }
}
