package org.cacheflow.plan.schedule;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * How a generated program places its firings ({@code --schedule}): in a static order per core (the default), at run
 * time on whichever core is free ({@code dynamic}), or both ({@code hybrid}: a static order for steady actors, the
 * firings of the variable actors in a pool every core takes from).
 *
 * <p>An actor is variable when it is marked ({@code --variable}) or when its cost spread, the coefficient of
 * variation of its firing times (standard deviation over mean), is above {@link #VARIABLE_ABOVE}. The spreads come
 * from {@code --cost-spread ACTOR=CV}; a front end that measures them (a profile of a run) passes its map here, in
 * {@link #withSpread}.
 *
 * @param kind the choice
 * @param variable the actors marked variable ({@code --variable}), as the user named them
 * @param spread the coefficient of variation of actors' firing times, by actor name as the user named them
 */
public record RunSchedule(Kind kind, List<String> variable, Map<String, Double> spread) {

  /** The choices of {@code --schedule}. */
  public enum Kind {
    STATIC, DYNAMIC, HYBRID;

    /** The option's word for it. */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<Kind> parse(String text) {
      return Arrays.stream(values()).filter(kind -> kind.label().equalsIgnoreCase(text.trim())).findFirst();
    }

    /** {@code static | dynamic | hybrid}. */
    public static String labels() {
      return String.join(" | ", Arrays.stream(values()).map(Kind::label).toList());
    }
  }

  /** The coefficient of variation above which an actor's firings go to a hybrid schedule's pool. */
  public static final double VARIABLE_ABOVE = 0.3;

  /** Today's static order per core. */
  public static final RunSchedule STATIC = new RunSchedule(Kind.STATIC, List.of());

  public RunSchedule {
    kind = kind == null ? Kind.STATIC : kind;
    variable = List.copyOf(variable);
    spread = spread == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(spread));
  }

  /** Without cost spreads. */
  public RunSchedule(Kind kind, List<String> variable) {
    this(kind, variable, Map.of());
  }

  /** Whether firings are placed at run time (dynamic or hybrid). */
  public boolean dispatched() {
    return kind != Kind.STATIC;
  }

  /** The same choice with these cost spreads added to (and replacing) ours, e.g. measured ones. */
  public RunSchedule withSpread(Map<String, Double> more) {
    Map<String, Double> all = new LinkedHashMap<>(spread);
    all.putAll(more);
    return new RunSchedule(kind, variable, all);
  }

  /**
   * The actors whose firings a hybrid schedule pools: the marked ones, then those whose spread is above
   * {@link #VARIABLE_ABOVE}, each once.
   */
  public List<String> pooled() {
    Set<String> names = new LinkedHashSet<>(variable);
    spread.forEach((name, cv) -> {
      if (cv > VARIABLE_ABOVE) {
        names.add(name);
      }
    });
    return new ArrayList<>(names);
  }

  /** Why {@code name} (one of {@link #pooled}) is variable, in the words of the plan report. */
  public String reason(String name) {
    Double cv = spread.get(name);
    boolean marked = variable.contains(name);
    String measured = cv == null || cv <= VARIABLE_ABOVE ? "" : "cost spread " + format(cv) + " above "
        + format(VARIABLE_ABOVE);
    return marked && !measured.isEmpty() ? "marked with --variable; " + measured : marked ? "marked with --variable"
        : measured;
  }

  /**
   * A {@code --cost-spread} entry, {@code ACTOR=CV} with CV a coefficient of variation (a number at least 0).
   *
   * @throws IllegalArgumentException saying what is wrong with it
   */
  public static Map.Entry<String, Double> parseSpread(String entry) {
    int eq = entry.lastIndexOf('=');
    String name = eq < 0 ? "" : entry.substring(0, eq).trim();
    double cv;
    try {
      cv = eq < 0 ? Double.NaN : Double.parseDouble(entry.substring(eq + 1).trim());
    } catch (NumberFormatException e) {
      cv = Double.NaN;
    }
    if (name.isEmpty() || !(cv >= 0) || Double.isInfinite(cv)) {
      throw new IllegalArgumentException("cost spread '" + entry.trim() + "' is not ACTOR=CV with CV a coefficient "
          + "of variation (a number at least 0, e.g. Tile=0.6)");
    }
    return Map.entry(name, cv);
  }

  /**
   * {@code --cost-spread} entries by actor ({@link #parseSpread}); later entries win.
   *
   * @throws IllegalArgumentException for the first entry that is not one
   */
  public static Map<String, Double> parseSpreads(List<String> entries) {
    Map<String, Double> spreads = new LinkedHashMap<>();
    for (String entry : entries) {
      Map.Entry<String, Double> parsed = parseSpread(entry);
      spreads.put(parsed.getKey(), parsed.getValue());
    }
    return spreads;
  }

  private static String format(double value) {
    return String.format(Locale.ROOT, "%.2f", value);
  }
}
