package org.cacheflow.ui.run;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

import org.cacheflow.model.diagnostics.Diagnostics;
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
    return request.arguments("generate");
  }
}
