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
    String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
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
}
