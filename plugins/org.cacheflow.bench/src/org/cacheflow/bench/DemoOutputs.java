package org.cacheflow.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.cacheflow.pipeline.PathText;

/**
 * What a stereo program prints with {@code --validate}: the MD5 of every sink FIFO, the runtime's statistics, the
 * time and the quality line, parsed into a {@link DemoResult}; and the check that every strategy computed the same.
 */
final class DemoOutputs {

  private static final Pattern DIGEST = Pattern.compile("^(\\S.* -> .*\\S) : ([0-9a-f]{32})$");
  private static final Pattern STATS = Pattern.compile("^stats: bytes copied (\\d+), non-temporal (\\d+), "
      + "cow pages shared (\\d+), faulted (\\d+), re-shared (\\d+), pre-stores (\\d+) \\((\\d+) lines\\)");
  private static final Pattern TIME = Pattern.compile("^time: ([0-9.]+) s for (\\d+) iterations");
  private static final Pattern QUALITY = Pattern.compile("^stereo: .*bad pixels.*");

  private DemoOutputs() {
  }

  /** Parses one {@code --validate} run into the result; returns the program's quality line. */
  static String parseRun(String output, DemoResult result, Path log) {
    Map<String, String> digests = new LinkedHashMap<>();
    String quality = null;
    boolean sawStats = false;
    boolean sawTime = false;
    for (String line : output.split("\n")) {
      Matcher matcher;
      if ((matcher = DIGEST.matcher(line)).matches()) {
        digests.put(matcher.group(1), matcher.group(2));
      } else if ((matcher = STATS.matcher(line)).find()) {
        result.bytesCopied = Long.parseLong(matcher.group(1));
        result.bytesStreamed = Long.parseLong(matcher.group(2));
        result.cowShared = Long.parseLong(matcher.group(3));
        result.cowPages = Long.parseLong(matcher.group(4));
        result.cowReshared = Long.parseLong(matcher.group(5));
        result.prestores = Long.parseLong(matcher.group(6));
        sawStats = true;
      } else if ((matcher = TIME.matcher(line)).find()) {
        int iterations = Integer.parseInt(matcher.group(2));
        result.iterations = iterations;
        result.millisPerIteration.add(Double.parseDouble(matcher.group(1)) * 1000 / iterations);
        sawTime = true;
      } else if (quality == null && QUALITY.matcher(line).matches()) {
        quality = line;
      }
    }
    if (digests.isEmpty() || !sawStats || !sawTime) {
      throw new DemoFailure(result.strategy + " printed no " + (digests.isEmpty() ? "MD5 lines" : !sawStats
          ? "statistics line" : "time line") + "; its output is in " + PathText.display(log));
    }
    if (!result.digests.isEmpty() && !result.digests.equals(digests)) {
      throw new DemoFailure(result.strategy + " printed different MD5s in two runs: " + result.digests + " and "
          + digests);
    }
    result.digests = digests;
    return quality;
  }

  /** Every strategy must compute exactly what the first one (the baseline by default) computed. */
  static void checkDigests(Map<String, DemoResult> results) {
    DemoResult reference = results.values().iterator().next();
    List<String> differences = new ArrayList<>();
    for (DemoResult result : results.values()) {
      if (!result.digests.keySet().equals(reference.digests.keySet())) {
        differences.add(result.strategy + " has sink FIFOs " + result.digests.keySet() + ", " + reference.strategy
            + " has " + reference.digests.keySet());
        continue;
      }
      reference.digests.forEach((fifo, md5) -> {
        if (!md5.equals(result.digests.get(fifo))) {
          differences.add(fifo + ": " + reference.strategy + " " + md5 + ", " + result.strategy + " "
              + result.digests.get(fifo));
        }
      });
    }
    if (!differences.isEmpty()) {
      throw new DemoFailure("the strategies' outputs differ:\n  " + String.join("\n  ", differences));
    }
  }
}
