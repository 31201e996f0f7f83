package org.cacheflow.plan.mapping;

import java.util.ArrayList;
import java.util.List;

import org.cacheflow.model.Architecture;

/** The cores a graph is mapped onto, in a fixed order (their indices). Immutable. */
public final class Platform {

  /** The core type of cores made up by {@link #generic(int)}. */
  public static final String GENERIC_TYPE = "generic";

  private final List<Core> cores;

  public Platform(List<Core> cores) {
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
  }

  /** {@code count} cores named {@code Core0 .. Core<count-1>} (PREESM's naming), all of one type. */
  public static Platform generic(int count) {
    if (count <= 0) {
      throw new IllegalArgumentException("core count must be positive: " + count);
    }
    List<Core> cores = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      cores.add(new Core(i, "Core" + i, GENERIC_TYPE));
    }
    return new Platform(cores);
  }

  /** The cores of an S-LAM architecture, in declaration order. */
  public static Platform of(Architecture architecture) {
    List<Core> cores = new ArrayList<>();
    for (org.cacheflow.model.Core core : architecture.getCores()) {
      String type = core.getType() == null || core.getType().isEmpty() ? GENERIC_TYPE : core.getType();
      cores.add(new Core(cores.size(), core.getName(), type));
    }
    return new Platform(cores);
  }

  public List<Core> cores() {
    return cores;
  }

  public int size() {
    return cores.size();
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
