package org.cacheflow.plan.schedule;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * How a generated program places its firings ({@code --schedule}): in a static order per core (the default), at run
 * time on whichever core is free ({@code dynamic}), or both ({@code hybrid}: a static order for steady actors, the
 * firings of the actors marked variable in a pool every core takes from).
 *
 * @param kind the choice
 * @param variable the actors marked variable ({@code --variable}), as the user named them
 */
public record RunSchedule(Kind kind, List<String> variable) {

  /** The choices of {@code --schedule}. */
  public enum Kind {
    STATIC, DYNAMIC, HYBRID;

    /** The option's word for it. */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<Kind> parse(String text) {
      return Arrays.stream(values()).filter(kind -> kind.label().equals(text)).findFirst();
    }

    /** {@code static | dynamic | hybrid}. */
    public static String labels() {
      return String.join(" | ", Arrays.stream(values()).map(Kind::label).toList());
    }
  }

  /** Today's static order per core. */
  public static final RunSchedule STATIC = new RunSchedule(Kind.STATIC, List.of());

  public RunSchedule {
    kind = kind == null ? Kind.STATIC : kind;
    variable = List.copyOf(variable);
  }

  /** Whether firings are placed at run time (dynamic or hybrid). */
  public boolean dispatched() {
    return kind != Kind.STATIC;
  }
}
