package org.cacheflow.ui.run;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.plan.strategy.TargetCache;
import org.cacheflow.workflow.run.CodeGenerator;
import org.cacheflow.workflow.run.GeneratedCode;
import org.cacheflow.workflow.run.GenerationRequest;

/** Generates with {@code cacheflow generate}, run in this process. */
final class CommandLineGenerator implements CodeGenerator {

  private final Path workflow;
  private final Consumer<String> messages;

  /**
   * @param workflow the workflow run, where an error naming no file is reported
   * @param messages told every line {@code generate} prints on its error stream (notes, warnings)
   */
  CommandLineGenerator(Path workflow, Consumer<String> messages) {
    this.workflow = workflow;
    this.messages = messages;
  }

  @Override
  public GeneratedCode generate(GenerationRequest request, Diagnostics diagnostics) {
    CommandLine.Output output = CommandLine.run(arguments(request), workflow);
    output.messages().forEach(messages);
    String summary = output.out().lines().findFirst().orElse("generated " + request.outputDirectory());
    return new GeneratedCode(request.outputDirectory(), summary);
  }

  /** The {@code generate} command line of a request. */
  static List<String> arguments(GenerationRequest request) {
    List<String> args = new ArrayList<>(List.of("generate", request.input().toString(), "--out",
        request.outputDirectory().toString()));
    common(request, args);
    if (request.syntheticActors()) {
      args.add("--synthetic-actors");
    }
    return args;
  }

  /** The options {@code generate} and {@code plan} share. */
  static void common(GenerationRequest request, List<String> args) {
    if (request.scenario() != null) {
      args.addAll(List.of("--scenario", request.scenario().toString()));
    }
    args.addAll(List.of("--strategy", request.strategy().label));
    if (request.cores() != null) {
      args.addAll(List.of("--cores", Integer.toString(request.cores())));
    }
    // generate takes target files; a built-in profile is the one it plans for by name
    if (!TargetCache.BUILT_IN.containsKey(request.target()) || args.get(0).equals("plan")) {
      args.addAll(List.of("--target", request.target()));
    }
    for (String override : request.overrides()) {
      args.addAll(List.of("--override", override));
    }
  }
}
