package org.cacheflow.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What one strategy measured. */
final class DemoResult {
  final String strategy;
  final List<Double> millisPerIteration = new ArrayList<>();
  Map<String, String> digests = new LinkedHashMap<>();
  long bytesCopied;
  long bytesStreamed;
  long cowShared;
  long cowPages;
  long cowReshared;
  long prestores;
  int iterations;
  long l1dMisses = -1;
  long llcMisses = -1;

  DemoResult(String strategy) {
    this.strategy = strategy;
  }

  double median() {
    double[] sorted = millisPerIteration.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  double min() {
    return millisPerIteration.stream().mapToDouble(Double::doubleValue).min().orElse(0);
  }

  double max() {
    return millisPerIteration.stream().mapToDouble(Double::doubleValue).max().orElse(0);
  }
}
