package org.cacheflow.plan.mapping;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

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

  /**
   * The policy a user's value names: a label, trimmed and case-insensitive, as {@code --policy}, the workflow task's
   * {@code Mapping policy} and the Maven plugin's {@code <policy>} take it.
   */
  public static Optional<MappingPolicy> parse(String value) {
    return Optional.ofNullable(byLabel(value.trim().toLowerCase(Locale.ROOT)));
  }

  /** Every label in order: {@code [load, locality]}. */
  public static List<String> labelList() {
    return Stream.of(values()).map(policy -> policy.label).toList();
  }

  /** Every label in order, for messages: {@code load, locality}. */
  public static String labels() {
    return String.join(", ", labelList());
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
