package org.cacheflow.plan.mapping;

/**
 * A core actors can be mapped to.
 *
 * @param index position in {@link Platform#cores()}, the number schedules and plans use
 * @param name the core's name as the architecture (or {@code --cores}) gives it, e.g. {@code Core0}
 * @param type the core type scenario timings are given for, e.g. {@code x86}
 */
public record Core(int index, String name, String type) {

  @Override
  public String toString() {
    return name;
  }
}
