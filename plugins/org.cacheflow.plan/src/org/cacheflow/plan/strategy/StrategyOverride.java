package org.cacheflow.plan.strategy;

import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A per-FIFO strategy override, {@code PATTERN=STRATEGY}. PATTERN names FIFOs by one of their ends,
 * {@code actor.port}, with actor names relative to the top graph and hierarchy joined by {@code /} (as
 * {@code cacheflow inspect} prints them); {@code *} matches any run of characters and {@code ?} one. STRATEGY is
 * one of {@code alias}, {@code direct}, {@code memcpy}, {@code cow}, {@code ntm}, {@code prestore} (kind by the
 * reuse rule), {@code prestore-demote}, {@code prestore-clean}, {@code prestore-skip}, {@code channel} or
 * {@code homeforward} (slots chosen), {@code channel:K} / {@code homeforward:K} (K slots).
 *
 * @param pattern the FIFO pattern
 * @param strategy the strategy
 * @param prestore the pre-store kind for PRESTORE (null: chosen by the reuse rule), NONE otherwise
 * @param slots channel slots, 0 to let the plan choose
 * @param text the override as written
 */
public record StrategyOverride(String pattern, Strategy strategy, PrestoreKind prestore, int slots, String text) {

  /** What an override may name, in the order messages, help and editors list them. */
  public enum Choice {
    ALIAS("alias", Strategy.ALIAS, PrestoreKind.NONE),
    DIRECT("direct", Strategy.DIRECT, PrestoreKind.NONE),
    MEMCPY("memcpy", Strategy.MEMCPY, PrestoreKind.NONE),
    COW("cow", Strategy.COW, PrestoreKind.NONE),
    NTM("ntm", Strategy.NTM, PrestoreKind.NONE),
    /** The kind chosen by the pre-stores paper's reuse rule. */
    PRESTORE("prestore", Strategy.PRESTORE, null),
    PRESTORE_DEMOTE("prestore-demote", Strategy.PRESTORE, PrestoreKind.DEMOTE),
    PRESTORE_CLEAN("prestore-clean", Strategy.PRESTORE, PrestoreKind.CLEAN),
    PRESTORE_SKIP("prestore-skip", Strategy.PRESTORE, PrestoreKind.BYPASS),
    /** A channel; {@code channel:K} gives its slot count. */
    CHANNEL("channel", Strategy.CHANNEL, PrestoreKind.NONE),
    /** The same as {@link #CHANNEL} (a home-forwarded channel), {@code homeforward:K}. */
    HOMEFORWARD("homeforward", Strategy.CHANNEL, PrestoreKind.NONE);

    /** The name as overrides write it. */
    public final String label;
    private final Strategy strategy;
    private final PrestoreKind prestore;

    Choice(String label, Strategy strategy, PrestoreKind prestore) {
      this.label = label;
      this.strategy = strategy;
      this.prestore = prestore;
    }

    /** Whether the name takes a slot count, {@code NAME:K}. */
    public boolean takesSlots() {
      return strategy == Strategy.CHANNEL;
    }
  }

  /** The strategy names an override accepts, for messages: every {@link Choice}, with the {@code :K} forms. */
  public static final String NAMES = String.join(", ", Arrays.stream(Choice.values())
      .map(choice -> choice.takesSlots() ? choice.label + ", " + choice.label + ":K" : choice.label).toList());

  /** Parses {@code PATTERN=STRATEGY}. */
  public static StrategyOverride parse(String text) {
    int equals = text.lastIndexOf('=');
    if (equals <= 0 || equals == text.length() - 1) {
      throw new OverrideException("override '" + text + "' must be 'actor.port=STRATEGY' (e.g. 'Broadcast0.out1=cow')");
    }
    String pattern = text.substring(0, equals).trim();
    String name = text.substring(equals + 1).trim().toLowerCase(Locale.ROOT);
    if (!pattern.contains(".")) {
      throw new OverrideException("override '" + text + "': '" + pattern
          + "' names no port; FIFO ends are written actor.port (e.g. 'Read_PPM0.rgb')");
    }
    int slots = 0;
    int colon = name.indexOf(':');
    if (colon >= 0) {
      String base = name.substring(0, colon);
      if (Arrays.stream(Choice.values()).noneMatch(choice -> choice.takesSlots() && choice.label.equals(base))) {
        throw new OverrideException("override '" + text + "': only channel:K takes a parameter");
      }
      try {
        slots = Integer.parseInt(name.substring(colon + 1));
      } catch (NumberFormatException e) {
        slots = -1;
      }
      if (slots <= 0 || slots > 1 << 20) {
        throw new OverrideException("override '" + text + "': the slot count K of channel:K must be 1 to 1048576");
      }
      name = base;
    }
    for (Choice choice : Choice.values()) {
      if (choice.label.equals(name)) {
        return new StrategyOverride(pattern, choice.strategy, choice.prestore, slots, text);
      }
    }
    throw new OverrideException("override '" + text + "': unknown strategy '" + name + "' (known: " + NAMES + ")");
  }

  /** Whether the pattern matches a FIFO end written {@code actor.port}. */
  public boolean matches(String end) {
    return toRegex(pattern).matcher(end).matches();
  }

  static Pattern toRegex(String glob) {
    StringBuilder regex = new StringBuilder();
    for (char c : glob.toCharArray()) {
      switch (c) {
        case '*' -> regex.append(".*");
        case '?' -> regex.append('.');
        default -> regex.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return Pattern.compile(regex.toString());
  }
}
