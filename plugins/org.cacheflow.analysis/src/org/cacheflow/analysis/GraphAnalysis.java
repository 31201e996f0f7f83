package org.cacheflow.analysis;

import java.util.Map;

import org.cacheflow.model.Graph;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;

/**
 * The analysis the command line runs before scheduling: flattening with parameter resolution, the
 * repetition vector with its consistency check, the liveness check and the buffer sizes. See
 * {@link Flattener} for the semantics (those of PREESM).
 */
public final class GraphAnalysis {

  private GraphAnalysis() {
  }

  /**
   * Analyses a graph.
   *
   * @param graph the top-level graph
   * @param parameterOverrides parameter values by {@code graphPath/name} or plain {@code name}; may be null
   * @param warnings collects warnings (unknown token sizes, unused overrides...); may be null
   * @throws InputException for bad input: an inconsistent or deadlocked graph, a negative rate, an
   *     expression that cannot be evaluated, a size beyond 64 bits
   */
  public static AnalysisResult analyse(Graph graph, Map<String, String> parameterOverrides,
      Diagnostics warnings) {
    return analyse(graph, parameterOverrides, warnings, ProgressListener.NONE);
  }

  /** As {@link #analyse(Graph, Map, Diagnostics)}, reporting progress. */
  public static AnalysisResult analyse(Graph graph, Map<String, String> parameterOverrides,
      Diagnostics warnings, ProgressListener progress) {
    FlatGraph flat = Flattener.flatten(graph, parameterOverrides, warnings, progress);
    LivenessCheck.check(flat);
    return new AnalysisResult(flat, flat.repetitions(), FifoBuffer.of(flat));
  }
}
