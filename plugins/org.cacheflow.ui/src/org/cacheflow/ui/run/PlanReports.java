package org.cacheflow.ui.run;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.workflow.run.GenerationRequest;

/**
 * The memory plan report of a generation request ({@code plan.json}, {@code plan.md}, {@code graph.svg},
 * {@code gantt.svg}), made by {@code cacheflow plan --report}, run in this process.
 */
public final class PlanReports {

  private PlanReports() {
  }

  /** The report folder of a generation: beside the generated project, so regenerating does not remove it. */
  public static Path reportDirectory(Path outputDirectory) {
    Path output = outputDirectory.toAbsolutePath().normalize();
    return output.resolveSibling(output.getFileName() + "-plan");
  }

  /**
   * Plans {@code request} and writes the report into {@code directory}.
   *
   * @param workflow where an error naming no file is reported
   * @param messages told the lines {@code plan} prints on its error stream
   * @throws InputException for bad input, at its file and line
   */
  public static void write(GenerationRequest request, Path directory, Path workflow, Consumer<String> messages) {
    CommandLine.run(arguments(request, directory), workflow).messages().forEach(messages);
  }

  static List<String> arguments(GenerationRequest request, Path directory) {
    List<String> args = new ArrayList<>(request.arguments("plan"));
    args.addAll(List.of("--report", directory.toString()));
    return args;
  }
}
