package org.cacheflow.pipeline;

import java.util.List;

/**
 * The memory scripts of the graphs of an input, evaluated ({@code cacheflow scripts}).
 *
 * @param graphs each graph that references a memory script (graphs refining an actor of another are evaluated as
 *     part of it), in order
 * @param diagnostics warnings and notes, in order
 */
public record ScriptsResult(List<ScriptEvaluation> graphs, List<Diagnostic> diagnostics) {

  public ScriptsResult {
    graphs = List.copyOf(graphs);
    diagnostics = List.copyOf(diagnostics);
  }

  /** Script errors over all graphs. */
  public int errors() {
    return graphs.stream().mapToInt(graph -> graph.report().errors().size()).sum();
  }
}
