package org.cacheflow.plan.mapping;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.cacheflow.model.ActorKind;
import org.cacheflow.model.MappingConstraint;
import org.cacheflow.model.Scenario;
import org.cacheflow.model.Timing;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.model.expression.Expression;
import org.cacheflow.analysis.FlatActor;
import org.cacheflow.analysis.FlatGraph;
import org.cacheflow.analysis.srdag.Srdag;

/**
 * What mapping needs to know about each actor of a flat graph: its execution time on each core and the
 * cores it may run on. Built from a PREESM scenario ({@link #fromScenario}) or with defaults
 * ({@link #defaults}). Immutable.
 *
 * <p>
 * Times are in the scenario's units (PREESM: cycles or any consistent unit). An actor without a timing takes
 * {@link #DEFAULT_TIME}, PREESM's default for actors without one. Special actors (broadcast, fork, join,
 * round buffer) and the fork / join / init / end vertices the single-rate expansion inserts take
 * {@link #SPECIAL_TIME}: they only move data, and with memory-script merging most of them copy nothing.
 * The scenario's memcpy speeds are not read.
 */
public final class MappingInputs {

  /** PREESM's execution time for an actor the scenario gives no timing for. */
  public static final long DEFAULT_TIME = 100;

  /** The time of a special actor or inserted vertex. */
  public static final long SPECIAL_TIME = 1;

  private final Platform platform;
  /** Per flat actor, per core. */
  private final long[][] times;
  /** Per flat actor, per core. */
  private final boolean[][] allowed;
  /** Cores allowed to run inserted vertices (fork, join, init, end). */
  private final boolean[] specialAllowed;
  private final boolean[] timed;
  /**
   * Per flat FIFO, the row of times and constraints of its delay's actor when the scenario names it (PREESM's
   * delay actors, {@link DelayActors}: rows after the flat actors'), else -1; empty when no delay is named.
   */
  private final int[] delayRow;

  private MappingInputs(Platform platform, long[][] times, boolean[][] allowed, boolean[] specialAllowed,
      boolean[] timed, int[] delayRow) {
    this.platform = platform;
    this.times = times;
    this.allowed = allowed;
    this.specialAllowed = specialAllowed;
    this.timed = timed;
    this.delayRow = delayRow;
  }

  /** Default times, every actor allowed on every core. */
  public static MappingInputs defaults(FlatGraph graph, Platform platform) {
    return defaults(graph, platform, 0);
  }

  /** Default times and no constraint, with {@code delayRows} rows for delay actors after the actors' rows. */
  private static MappingInputs defaults(FlatGraph graph, Platform platform, int delayRows) {
    int rows = graph.actors().size() + delayRows;
    long[][] times = new long[rows][platform.size()];
    boolean[][] allowed = new boolean[rows][platform.size()];
    for (int r = 0; r < rows; r++) {
      boolean special = r >= graph.actors().size() || isSpecial(graph.actor(r).kind());
      Arrays.fill(times[r], special ? SPECIAL_TIME : DEFAULT_TIME);
      Arrays.fill(allowed[r], true);
    }
    boolean[] special = new boolean[platform.size()];
    Arrays.fill(special, true);
    return new MappingInputs(platform, times, allowed, special, new boolean[rows], new int[0]);
  }

  /**
   * Times and constraints from a scenario.
   *
   * <p>
   * Timings: the scenario's timing for the actor and the core's type; when none matches the type (e.g.
   * {@code --cores N} made generic cores), the actor's first timing; else {@link #DEFAULT_TIME}. Timing
   * expressions may use the actor's parameters (its config input values).
   *
   * <p>
   * Constraints: an actor may run on the cores of the constraint groups naming it; an actor no group names
   * may run anywhere (PREESM would refuse to map it; a warning says so). Constraints naming a core the
   * platform lacks are ignored with a warning. Special actors and inserted vertices run on the scenario's
   * special-vertex operators when given (and present), else anywhere.
   *
   * @param specialVertexOperators core names from the scenario's {@code specialVertexOperators}; may be empty
   * @throws org.cacheflow.model.diagnostics.InputException for a timing expression that cannot be evaluated
   */
  public static MappingInputs fromScenario(FlatGraph graph, Platform platform, Scenario scenario,
      List<String> specialVertexOperators, Diagnostics diagnostics) {
    if (scenario == null) {
      return defaults(graph, platform);
    }
    Diagnostics warnings = diagnostics == null ? new Diagnostics() : diagnostics;
    ActorNames names = ActorNames.of(graph);
    DelayActors delays = DelayActors.of(graph, names.top(), scenario);
    MappingInputs base = defaults(graph, platform, delays.rows());
    applyTimings(graph, platform, scenario, names, delays, base.times, base.timed);
    Set<Integer> constrained = applyConstraints(graph, platform, scenario, names, delays, base.allowed, warnings);
    applySpecialOperators(graph, platform, specialVertexOperators, constrained, base.allowed, base.specialAllowed);
    // a delay actor no constraint names runs where inserted vertices run
    for (int r = delays.firstRow(); r < delays.firstRow() + delays.rows(); r++) {
      if (!constrained.contains(r)) {
        base.allowed[r] = base.specialAllowed.clone();
      }
    }
    return new MappingInputs(platform, base.times, base.allowed, base.specialAllowed, base.timed,
        delays.rows() > 0 ? delays.rowOfFifo() : new int[0]);
  }

  /** The flat graph's actors by their path relative to the top graph, as scenarios name them. */
  private record ActorNames(String top, Map<String, FlatActor> byName) {

    static ActorNames of(FlatGraph graph) {
      String top = topName(graph);
      Map<String, FlatActor> byName = new HashMap<>();
      for (FlatActor actor : graph.actors()) {
        byName.put(relative(top, actor.path()), actor);
      }
      return new ActorNames(top, byName);
    }

    /** The actor a scenario's path names, or null. */
    FlatActor actor(String path) {
      return byName.get(relative(top, normalise(path)));
    }

    String name(FlatActor actor) {
      return relative(top, actor.path());
    }
  }

  /**
   * Timings: per actor (and per named delay actor, whose expressions see the delay's config values), by core type;
   * the first timing seen for an actor is its fallback.
   */
  private static void applyTimings(FlatGraph graph, Platform platform, Scenario scenario, ActorNames names,
      DelayActors delays, long[][] times, boolean[] timed) {
    Map<Integer, Map<String, Timing>> timingsByRow = new HashMap<>();
    for (Timing timing : scenario.getTimings()) {
      FlatActor actor = names.actor(timing.getActorPath());
      Integer row = actor != null ? Integer.valueOf(actor.index()) : delays.row(timing.getActorPath(), names.top());
      if (row == null) {
        continue; // timings of hierarchical actors or absent actors do not apply to the flat graph
      }
      timingsByRow.computeIfAbsent(row, k -> new LinkedHashMap<>())
          .putIfAbsent(timing.getCoreType() == null ? "" : timing.getCoreType(), timing);
    }
    for (Map.Entry<Integer, Map<String, Timing>> entry : timingsByRow.entrySet()) {
      int row = entry.getKey();
      Map<String, Long> values = row < graph.actors().size() ? graph.actor(row).configValues()
          : graph.fifo(delays.fifoOf(row)).delayConfig();
      Timing first = entry.getValue().values().iterator().next();
      for (Core core : platform.cores()) {
        Timing timing = entry.getValue().getOrDefault(core.type(), first);
        times[row][core.index()] = evaluate(timing, values);
      }
      timed[row] = true;
    }
  }

  /**
   * Constraints: restricts the actors the constraint groups name to their groups' cores; returns those actors.
   */
  private static Set<Integer> applyConstraints(FlatGraph graph, Platform platform, Scenario scenario,
      ActorNames names, DelayActors delays, boolean[][] allowed, Diagnostics warnings) {
    Set<Integer> constrained = new LinkedHashSet<>();
    boolean[][] fromGroups = new boolean[allowed.length][platform.size()];
    Set<String> missingCores = new LinkedHashSet<>();
    for (MappingConstraint constraint : scenario.getConstraints()) {
      Core core = platform.core(constraint.getCoreName());
      if (core == null) {
        if (missingCores.add(constraint.getCoreName())) {
          warnings.warn(location(constraint), "mapping constraints name core '" + constraint.getCoreName()
              + "', which the platform " + platform + " does not have; they are ignored");
        }
        continue;
      }
      for (String path : constraint.getActorPaths()) {
        FlatActor actor = names.actor(path);
        Integer row = actor != null ? Integer.valueOf(actor.index()) : delays.row(path, names.top());
        if (row != null) {
          fromGroups[row][core.index()] = true;
          constrained.add(row);
        }
      }
    }
    for (int r = delays.firstRow(); r < delays.firstRow() + delays.rows(); r++) {
      if (constrained.contains(r)) {
        allowed[r] = fromGroups[r];
      }
    }
    if (!constrained.isEmpty()) {
      List<String> free = new ArrayList<>();
      for (FlatActor actor : graph.actors()) {
        if (constrained.contains(actor.index())) {
          allowed[actor.index()] = fromGroups[actor.index()];
        } else if (!isSpecial(actor.kind())) {
          free.add(names.name(actor));
        }
      }
      if (!free.isEmpty()) {
        warnings.warn(scenario.getFile() == null ? new SourceLocation("<scenario>", 0, 0)
            : new SourceLocation(scenario.getFile(), scenario.getLine(), scenario.getColumn()),
            "no mapping constraint names " + summarise(free) + "; mapped to any core");
      }
    }
    return constrained;
  }

  /**
   * Special-vertex operators: when the platform has any of them, inserted vertices and the special actors no
   * constraint names run on them only.
   */
  private static void applySpecialOperators(FlatGraph graph, Platform platform, List<String> specialVertexOperators,
      Set<Integer> constrained, boolean[][] allowed, boolean[] special) {
    List<Core> specialCores = new ArrayList<>();
    for (String name : specialVertexOperators) {
      Core core = platform.core(name);
      if (core != null) {
        specialCores.add(core);
      }
    }
    if (!specialCores.isEmpty()) {
      Arrays.fill(special, false);
      specialCores.forEach(core -> special[core.index()] = true);
      for (FlatActor actor : graph.actors()) {
        if (isSpecial(actor.kind()) && !constrained.contains(actor.index())) {
          allowed[actor.index()] = special.clone();
        }
      }
    }
  }

  /**
   * A copy where every actor may run on every core of the platform: for a platform the scenario's
   * constraints were not written for.
   */
  public MappingInputs unconstrained() {
    boolean[][] all = new boolean[allowed.length][platform.size()];
    for (boolean[] row : all) {
      Arrays.fill(row, true);
    }
    boolean[] special = new boolean[platform.size()];
    Arrays.fill(special, true);
    return new MappingInputs(platform, times, all, special, timed, delayRow);
  }

  public Platform platform() {
    return platform;
  }

  /**
   * The same inputs on the platform's first {@code count} cores; null when an actor, or the inserted vertices,
   * may run on none of them.
   */
  public MappingInputs firstCores(int count) {
    if (count <= 0 || count > platform.size()) {
      throw new IllegalArgumentException("core count " + count + " outside 1.." + platform.size());
    }
    long[][] cutTimes = new long[times.length][];
    boolean[][] cutAllowed = new boolean[allowed.length][];
    for (int a = 0; a < times.length; a++) {
      cutTimes[a] = Arrays.copyOf(times[a], count);
      cutAllowed[a] = Arrays.copyOf(allowed[a], count);
      boolean any = false;
      for (boolean ok : cutAllowed[a]) {
        any |= ok;
      }
      if (!any) {
        return null;
      }
    }
    boolean[] cutSpecial = Arrays.copyOf(specialAllowed, count);
    boolean anySpecial = false;
    for (boolean ok : cutSpecial) {
      anySpecial |= ok;
    }
    return anySpecial ? new MappingInputs(new Platform(platform.cores().subList(0, count), platform.network()),
        cutTimes, cutAllowed, cutSpecial, timed, delayRow) : null;
  }

  /** The execution time of a firing of the flat actor on the core. */
  public long time(int flatActor, int core) {
    return times[flatActor][core];
  }

  /** Whether the scenario gave the actor a timing (otherwise a default is used). */
  public boolean hasTiming(int flatActor) {
    return timed[flatActor];
  }

  /** Whether the flat actor may run on the core. */
  public boolean allowed(int flatActor, int core) {
    return allowed[flatActor][core];
  }

  /**
   * The row of times and constraints a single-rate vertex uses ({@link #time}, {@link #allowed},
   * {@link #hasTiming}): its flat actor's for a firing; for the init and end vertices of a delay whose actor the
   * scenario names, that delay actor's; -1 for the other inserted vertices ({@link #specialAllowed},
   * {@link #SPECIAL_TIME}).
   */
  public int row(Srdag srdag, int vertex) {
    int actor = srdag.vertexActor(vertex);
    if (actor >= 0 || delayRow.length == 0) {
      return actor;
    }
    ActorKind kind = srdag.vertexKind(vertex);
    int fifo = kind == ActorKind.INIT || kind == ActorKind.END ? srdag.vertexFifo(vertex) : -1;
    return fifo >= 0 && fifo < delayRow.length ? delayRow[fifo] : -1;
  }

  /** Whether inserted vertices (fork, join, init, end) may run on the core. */
  public boolean specialAllowed(int core) {
    return specialAllowed[core];
  }

  static boolean isSpecial(ActorKind kind) {
    return kind != ActorKind.NORMAL;
  }

  private static long evaluate(Timing timing, Map<String, Long> values) {
    SourceLocation location = timing.getFile() == null ? new SourceLocation("<scenario>", 0, 0)
        : new SourceLocation(timing.getFile(), timing.getLine(), timing.getColumn());
    long value = Expression.parse(timing.getExpression(), location).evaluate(values);
    if (value < 0) {
      throw new org.cacheflow.model.diagnostics.InputException(location, "timing of " + timing.getActorPath()
          + " is negative: " + timing.getExpression() + " = " + value);
    }
    return value;
  }

  private static SourceLocation location(MappingConstraint constraint) {
    return constraint.getFile() == null ? new SourceLocation("<scenario>", 0, 0)
        : new SourceLocation(constraint.getFile(), constraint.getLine(), constraint.getColumn());
  }

  /** The first path segment of the flat graph's actors: the top graph's name. */
  static String topName(FlatGraph graph) {
    if (graph.actors().isEmpty()) {
      return graph.name();
    }
    String path = graph.actors().get(0).path();
    int slash = path.indexOf('/');
    return slash < 0 ? path : path.substring(0, slash);
  }

  /** A path relative to the top graph ({@code top/a/b -> a/b}; paths without the top's name are kept). */
  static String relative(String top, String path) {
    return path.startsWith(top + "/") ? path.substring(top.length() + 1) : path;
  }

  static String normalise(String path) {
    if (path == null) {
      return "";
    }
    StringBuilder result = new StringBuilder();
    for (String segment : path.trim().split("/")) {
      if (!segment.isEmpty()) {
        result.append(result.length() == 0 ? "" : "/").append(segment);
      }
    }
    return result.toString();
  }

  private static String summarise(List<String> names) {
    return names.size() <= 5 ? String.join(", ", names)
        : String.join(", ", names.subList(0, 5)) + " and " + (names.size() - 5) + " more actors";
  }
}
