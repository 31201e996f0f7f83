package org.cacheflow.io.project;

import java.nio.file.Path;

import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * One {@code .ci.yaml} entry: PREESM's command line runs {@code workflow} on {@code scenario}.
 *
 * @param scenario the scenario file, under the project's {@code Scenarios/}
 * @param workflow the workflow file, under the project's {@code Workflows/}
 * @param location where the entry is written in {@code .ci.yaml}
 */
public record CiRun(Path scenario, Path workflow, SourceLocation location) {
}
