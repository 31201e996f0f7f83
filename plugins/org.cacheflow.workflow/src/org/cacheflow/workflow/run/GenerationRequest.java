package org.cacheflow.workflow.run;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.plan.strategy.GlobalStrategy;

/**
 * One code generation, fully resolved: what {@code cacheflow generate} would be given.
 *
 * @param input a PREESM project directory, a PiSDF {@code .pi} graph or an SDF3 {@code .xml} graph
 * @param scenario the scenario file, or null (for a project: its first usable scenario)
 * @param strategy the memory strategy
 * @param cores the core count, or null for the architecture's (else one)
 * @param target a built-in target name, or the absolute path of a target file
 * @param overrides per-FIFO overrides, {@code actor.port=STRATEGY}
 * @param syntheticActors whether actors get generated stand-in bodies
 * @param outputDirectory where the project is written (replaced)
 * @param origins where each setting came from, by task parameter name (see {@link CodegenSettings#locations}),
 *     so that a generator can report a setting it rejects at its line; may be empty
 */
public record GenerationRequest(Path input, Path scenario, GlobalStrategy strategy, Integer cores, String target,
    List<String> overrides, boolean syntheticActors, Path outputDirectory, Map<String, SourceLocation> origins) {

  public GenerationRequest {
    Objects.requireNonNull(input);
    Objects.requireNonNull(strategy);
    Objects.requireNonNull(target);
    overrides = List.copyOf(overrides);
    Objects.requireNonNull(outputDirectory);
    origins = Map.copyOf(origins);
  }

  /** Where {@code parameter}'s value came from, else where the task is, else null. */
  public SourceLocation origin(String parameter) {
    return origins.getOrDefault(parameter, origins.get(CodegenSettings.TASK));
  }
}
