package org.cacheflow.pipeline;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.cacheflow.io.profile.ProfileFile;

/** Time per firing from the firings' times: median, quartiles, extremes, coefficient of variation. */
final class TimeStatsOf {

  private TimeStatsOf() {
  }

  static ProfileFile.TimeStats of(List<Long> nanoseconds) {
    if (nanoseconds.isEmpty()) {
      return new ProfileFile.TimeStats(0, 0, 0, 0, 0, 0);
    }
    List<Long> sorted = new ArrayList<>(nanoseconds);
    Collections.sort(sorted);
    double mean = sorted.stream().mapToLong(Long::longValue).average().orElse(0);
    double variance = sorted.stream().mapToDouble(t -> (t - mean) * (t - mean)).sum() / sorted.size();
    return new ProfileFile.TimeStats(quantile(sorted, 0.5), quantile(sorted, 0.25), quantile(sorted, 0.75),
        sorted.get(0), sorted.get(sorted.size() - 1), mean == 0 ? 0 : Math.sqrt(variance) / mean);
  }

  /** Linear interpolation between the closest ranks. */
  static double quantile(List<Long> sorted, double q) {
    double at = q * (sorted.size() - 1);
    int low = (int) Math.floor(at);
    int high = Math.min(low + 1, sorted.size() - 1);
    return sorted.get(low) + (at - low) * (sorted.get(high) - sorted.get(low));
  }
}
