package org.cacheflow.bench;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.cacheflow.cli.UsageException;

/** One cache level given to cachegrind: {@code --NAME=BYTES,WAYS,LINE}. */
record DemoCache(String level, long bytes, int ways, int lineBytes) {

  /** Parses {@code LEVEL=BYTES,WAYS,LINE} (LEVEL one of I1, D1, LL), as cachegrind's options take it. */
  static DemoCache parse(String text) {
    Matcher matcher = Pattern.compile("(I1|D1|LL)=(\\d+),(\\d+),(\\d+)").matcher(text.trim());
    if (!matcher.matches()) {
      throw new UsageException("--cache expects LEVEL=BYTES,WAYS,LINE with LEVEL I1, D1 or LL (e.g. "
          + "D1=49152,12,64), got '" + text + "'");
    }
    DemoCache cache = new DemoCache(matcher.group(1), Long.parseLong(matcher.group(2)),
        Integer.parseInt(matcher.group(3)), Integer.parseInt(matcher.group(4)));
    cache.checkSets("--cache " + text);
    return cache;
  }

  /** The same cache with {@code 1/divisor} of the capacity (fewer sets, same ways and lines). */
  DemoCache shrunk(int divisor) {
    DemoCache cache = new DemoCache(level, bytes / divisor, ways, lineBytes);
    cache.checkSets(level + " divided by " + divisor);
    return cache;
  }

  /** cachegrind accepts only a power-of-two number of sets. */
  private void checkSets(String what) {
    long setBytes = (long) ways * lineBytes;
    long sets = setBytes == 0 ? 0 : bytes / setBytes;
    if (ways <= 0 || lineBytes <= 0 || sets == 0 || bytes % setBytes != 0 || Long.bitCount(sets) != 1) {
      throw new UsageException(what + ": cachegrind needs a power-of-two number of sets, and " + bytes + " B / ("
          + ways + " ways x " + lineBytes + " B) is not one");
    }
  }

  String option() {
    return "--" + level + "=" + bytes + "," + ways + "," + lineBytes;
  }

  String describe() {
    String size = bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? (bytes >> 20) + " MiB"
        : bytes % 1024 == 0 ? (bytes >> 10) + " KiB" : bytes + " B";
    return size + " " + ways + "-way";
  }
}
