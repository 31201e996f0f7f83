package org.cacheflow.pipeline;

import org.cacheflow.plan.memory.ScriptReport;

/**
 * The memory scripts of one graph, evaluated ({@code cacheflow scripts}).
 *
 * @param input the graph loaded
 * @param report what each script did (merges, marks, errors)
 */
public record ScriptEvaluation(LoadedInput input, ScriptReport report) {
}
