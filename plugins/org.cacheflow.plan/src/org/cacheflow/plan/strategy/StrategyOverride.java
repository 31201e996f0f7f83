package org.cacheflow.plan.strategy;

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

  /** The strategy names an override accepts, for messages. */
  public static final String NAMES = "alias, direct, memcpy, cow, ntm, prestore, prestore-demote, prestore-clean, "
      + "prestore-skip, channel, channel:K, homeforward, homeforward:K";

  /** Parses {@code PATTERN=STRATEGY}. */
  public static StrategyOverride parse(String text) {
    int equals = text.lastIndexOf('=');
    if (equals <= 0 || equals == text.length() - 1) {
      throw new OverrideException("override '" + text + "' must be 'actor.port=STRATEGY' (e.g. 'Broadcast0.out1=cow')");
    }
    String pattern = text.substring(0, equals).trim();
    String name = text.substring(equals + 1).trim().toLowerCase(java.util.Locale.ROOT);
    if (!pattern.contains(".")) {
      throw new OverrideException("override '" + text + "': '" + pattern
          + "' names no port; FIFO ends are written actor.port (e.g. 'Read_PPM0.rgb')");
    }
    int slots = 0;
    int colon = name.indexOf(':');
    if (colon >= 0) {
      String base = name.substring(0, colon);
      if (!base.equals("channel") && !base.equals("homeforward")) {
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
    return switch (name) {
      case "alias" -> new StrategyOverride(pattern, Strategy.ALIAS, PrestoreKind.NONE, 0, text);
      case "direct" -> new StrategyOverride(pattern, Strategy.DIRECT, PrestoreKind.NONE, 0, text);
      case "memcpy" -> new StrategyOverride(pattern, Strategy.MEMCPY, PrestoreKind.NONE, 0, text);
      case "cow" -> new StrategyOverride(pattern, Strategy.COW, PrestoreKind.NONE, 0, text);
      case "ntm" -> new StrategyOverride(pattern, Strategy.NTM, PrestoreKind.NONE, 0, text);
      case "prestore" -> new StrategyOverride(pattern, Strategy.PRESTORE, null, 0, text);
      case "prestore-demote" -> new StrategyOverride(pattern, Strategy.PRESTORE, PrestoreKind.DEMOTE, 0, text);
      case "prestore-clean" -> new StrategyOverride(pattern, Strategy.PRESTORE, PrestoreKind.CLEAN, 0, text);
      case "prestore-skip" -> new StrategyOverride(pattern, Strategy.PRESTORE, PrestoreKind.SKIP, 0, text);
      case "channel", "homeforward" -> new StrategyOverride(pattern, Strategy.CHANNEL, PrestoreKind.NONE, slots, text);
      default -> throw new OverrideException("override '" + text + "': unknown strategy '" + name + "' (known: "
          + NAMES + ")");
    };
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
