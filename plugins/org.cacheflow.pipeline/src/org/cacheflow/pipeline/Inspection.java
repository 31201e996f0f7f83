package org.cacheflow.pipeline;

import java.util.List;

import org.cacheflow.analysis.AnalysisResult;
import org.cacheflow.analysis.srdag.Srdag;

/**
 * A loaded, analysed and expanded graph ({@code cacheflow inspect}).
 *
 * @param input what was loaded
 * @param analysis repetition vector, flat graph, buffers
 * @param srdag the single-rate graph
 * @param diagnostics warnings and notes, in order
 */
public record Inspection(LoadedInput input, AnalysisResult analysis, Srdag srdag, List<Diagnostic> diagnostics) {

  public Inspection {
    diagnostics = List.copyOf(diagnostics);
  }
}
