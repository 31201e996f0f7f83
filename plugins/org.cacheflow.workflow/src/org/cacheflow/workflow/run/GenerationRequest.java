package org.cacheflow.workflow.run;

import java.nio.file.Path;
import java.util.ArrayList;
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
 * @param cores the core count (of each node), or null for the architecture's (else one)
 * @param nodes the node count, or null for the architecture's (else one)
 * @param target a built-in target name, or the absolute path of a target file
 * @param overrides per-FIFO overrides, {@code actor.port=STRATEGY}
 * @param syntheticActors whether actors get generated stand-in bodies
 * @param outputDirectory where the project is written (replaced)
 * @param actorCode the actors' sources, header folders, definitions and libraries, folders absolute; null fields
 *     leave them to {@code generate}'s defaults (the project's {@code Code/src}, {@code Code/include})
 * @param origins where each setting came from, by task parameter name (see {@link CodegenSettings#locations}),
 *     so that a generator can report a setting it rejects at its line; may be empty
 */
public record GenerationRequest(Path input, Path scenario, GlobalStrategy strategy, Integer cores, Integer nodes,
    String target, List<String> overrides, boolean syntheticActors, Path outputDirectory, ActorCode actorCode,
    Map<String, SourceLocation> origins) {

  public GenerationRequest {
    actorCode = actorCode == null ? ActorCode.NONE : actorCode;
    Objects.requireNonNull(input);
    Objects.requireNonNull(strategy);
    Objects.requireNonNull(target);
    overrides = List.copyOf(overrides);
    Objects.requireNonNull(outputDirectory);
    origins = Map.copyOf(origins);
  }

  /** Without actor code settings (generate's defaults). */
  public GenerationRequest(Path input, Path scenario, GlobalStrategy strategy, Integer cores, Integer nodes,
      String target, List<String> overrides, boolean syntheticActors, Path outputDirectory,
      Map<String, SourceLocation> origins) {
    this(input, scenario, strategy, cores, nodes, target, overrides, syntheticActors, outputDirectory, ActorCode.NONE,
        origins);
  }

  /** The same request writing elsewhere. */
  public GenerationRequest withOutputDirectory(Path value) {
    return new GenerationRequest(input, scenario, strategy, cores, nodes, target, overrides, syntheticActors, value,
        actorCode, origins);
  }

  /**
   * The {@code cacheflow generate} command line of this request, or of {@code cacheflow plan} (which takes the same
   * options but no output folder and no actor code): every front end runs generations with it.
   */
  public List<String> arguments(String command) {
    boolean generate = command.equals("generate");
    List<String> args = new ArrayList<>(List.of(command, input.toString()));
    if (generate) {
      args.addAll(List.of("--out", outputDirectory.toString()));
    }
    if (scenario != null) {
      args.addAll(List.of("--scenario", scenario.toString()));
    }
    args.addAll(List.of("--strategy", strategy.label));
    if (cores != null) {
      args.addAll(List.of("--cores", Integer.toString(cores)));
    }
    if (nodes != null) {
      args.addAll(List.of("--nodes", Integer.toString(nodes)));
    }
    // always: a built-in profile other than generate's default must reach it too
    args.addAll(List.of("--target", target));
    for (String override : overrides) {
      args.addAll(List.of("--override", override));
    }
    if (generate && syntheticActors) {
      args.add("--synthetic-actors");
    }
    if (generate && !syntheticActors) {
      args.addAll(actorCode.generateOptions());
    }
    return args;
  }

  /** Where {@code parameter}'s value came from, else where the task is, else null. */
  public SourceLocation origin(String parameter) {
    return origins.getOrDefault(parameter, origins.get(CodegenSettings.TASK));
  }
}
