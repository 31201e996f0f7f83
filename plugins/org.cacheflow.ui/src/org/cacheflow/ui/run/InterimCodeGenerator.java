package org.cacheflow.ui.run;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.cacheflow.codegen.ProjectWriter;
import org.cacheflow.codegen.build.CodeModelBuilder;
import org.cacheflow.codegen.build.ExecutionPlan;
import org.cacheflow.codegen.build.InterimPlanner;
import org.cacheflow.codegen.build.Strategy;
import org.cacheflow.codegen.model.ActorSources;
import org.cacheflow.codegen.model.CodeProject;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.plan.analysis.ProgressListener;
import org.cacheflow.plan.strategy.GlobalStrategy;
import org.cacheflow.workflow.CodegenTask;
import org.cacheflow.workflow.run.CodeGenerator;
import org.cacheflow.workflow.run.GeneratedCode;
import org.cacheflow.workflow.run.GenerationRequest;

/**
 * INTEGRATION POINT: generates code in-process by calling the code generator's building blocks the way
 * {@code cacheflow generate} does (read, analyse, expand, plan, build the code model, write). It stands in until
 * the code generator offers one {@link CodeGenerator} shared by the command line, the Maven plug-in and this
 * plug-in; then {@link Generators#inProcess} returns that one and this class goes.
 *
 * <p>The code generator still plans with its interim planner, which knows whole-graph presets only: per-FIFO
 * overrides and the target's cache sizes are reported as not applied.
 */
final class InterimCodeGenerator implements CodeGenerator {

  private final Path runtime;
  private final ProgressListener progress;

  InterimCodeGenerator(Path runtime, ProgressListener progress) {
    this.runtime = runtime;
    this.progress = progress;
  }

  @Override
  public GeneratedCode generate(GenerationRequest request, Diagnostics diagnostics) {
    LoadedGraph graph = LoadedGraph.load(request, diagnostics, progress);
    int cores = graph.cores(request);
    Strategy strategy = Strategy.named(presetOf(request.strategy()));
    if (!request.overrides().isEmpty()) {
      SourceLocation at = request.origin(CodegenTask.OVERRIDES);
      diagnostics.warn(at != null ? at : SourceLocation.file(request.input()), "the code generator does not apply "
          + "per-FIFO overrides yet; the plan report shows their effect");
    }
    progress.begin("building the code model", 0);
    ExecutionPlan plan = InterimPlanner.plan(graph.srdag(), cores, strategy);
    CodeProject project = CodeModelBuilder.build(plan, request.syntheticActors());
    progress.done();
    ActorSources actors = request.syntheticActors() ? ActorSources.NONE : actorSources(graph.root(),
        request.outputDirectory());
    progress.begin("writing " + request.outputDirectory(), 0);
    try {
      ProjectWriter.write(project, actors, runtime, request.outputDirectory());
    } catch (UncheckedIOException e) {
      throw new InputException(SourceLocation.file(request.outputDirectory()), e.getMessage(), e);
    }
    progress.done();
    return new GeneratedCode(request.outputDirectory(), String.format("%d cores, strategy %s, %d buffers, "
        + "%d channels, %d copy-on-write buffers%s", cores, request.strategy().label, project.buffers().size(),
        project.channels().size(), project.cowBuffers().size(), request.syntheticActors() ? ", synthetic actors"
            : ""));
  }

  /** The interim planner's preset closest to each plan strategy. */
  static String presetOf(GlobalStrategy strategy) {
    return switch (strategy) {
      case BASELINE -> "baseline";
      case COW -> "cow";
      case NTM -> "ntm";
      case PRESTORE -> "prestore-demote";
      case HOMEFORWARD -> "channels";
      case AUTO -> "auto";
    };
  }

  /** The project's {@code Code/src} and {@code Code/include} when they exist, relative to the output. */
  private static ActorSources actorSources(Path projectRoot, Path output) {
    Path sources = projectRoot.resolve("Code").resolve("src");
    Path include = projectRoot.resolve("Code").resolve("include");
    List<String> includes = new ArrayList<>();
    if (Files.isDirectory(include)) {
      includes.add(relative(output, include));
    }
    return new ActorSources(Files.isDirectory(sources) ? relative(output, sources) : null, includes);
  }

  private static String relative(Path output, Path folder) {
    return output.toAbsolutePath().normalize().relativize(folder.toAbsolutePath().normalize()).toString()
        .replace('\\', '/');
  }
}
