package org.cacheflow.plan.strategy;

import java.util.Locale;

/** Byte counts as people read them. */
public final class Bytes {

  private Bytes() {
  }

  /** {@code 512 B}, {@code 64 KiB}, {@code 9.4 MiB}, {@code 1.2 GiB}: exact units when the count is a multiple. */
  public static String human(long bytes) {
    if (bytes == Long.MAX_VALUE) {
      return "unbounded";
    }
    String[] units = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double value = bytes;
    int unit = 0;
    while (Math.abs(value) >= 1024 && unit < units.length - 1) {
      value /= 1024;
      unit++;
    }
    if (unit == 0) {
      return bytes + " B";
    }
    if (value == Math.rint(value)) {
      return (long) value + " " + units[unit];
    }
    return String.format(Locale.ROOT, value < 10 ? "%.2f %s" : value < 100 ? "%.1f %s" : "%.0f %s", value,
        units[unit]);
  }

  /**
   * A size as people write it: {@code 4096}, {@code 32K}, {@code 32 KiB}, {@code 1M}, {@code 1.5MiB}, {@code 24G},
   * {@code 1T} (binary units, case and spaces ignored).
   *
   * @throws NumberFormatException for anything else, or a size beyond a long
   */
  public static long parse(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT).replace(" ", "");
    long multiplier = 1;
    String[][] suffixes = {{"kib", "10"}, {"mib", "20"}, {"gib", "30"}, {"tib", "40"}, {"kb", "10"}, {"mb", "20"},
        {"gb", "30"}, {"tb", "40"}, {"k", "10"}, {"m", "20"}, {"g", "30"}, {"t", "40"}, {"b", "0"}};
    for (String[] suffix : suffixes) {
      if (t.endsWith(suffix[0])) {
        multiplier = 1L << Integer.parseInt(suffix[1]);
        t = t.substring(0, t.length() - suffix[0].length());
        break;
      }
    }
    try {
      if (t.contains(".")) {
        double value = Double.parseDouble(t) * multiplier;
        if (!Double.isFinite(value) || value > Long.MAX_VALUE / 2) {
          throw new NumberFormatException("too large: " + text);
        }
        return Math.round(value);
      }
      return Math.multiplyExact(Long.parseLong(t), multiplier);
    } catch (ArithmeticException e) {
      throw new NumberFormatException("too large: " + text);
    }
  }
}
