package org.cacheflow.workflow.run;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

import org.cacheflow.io.project.PreesmProject;
import org.cacheflow.io.workflow.WorkflowReader;
import org.cacheflow.model.Workflow;
import org.cacheflow.model.WorkflowTask;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.pipeline.ActorCodeOptions;
import org.cacheflow.pipeline.Diagnostic;
import org.cacheflow.pipeline.GenerateOptions;
import org.cacheflow.pipeline.PathText;

/**
 * What a PREESM project's workflows say its actors' code needs (sources, header folders, definitions, libraries),
 * so that generating from the project directory builds the same program as running its workflow. Folders are
 * resolved from the project directory and checked, as {@link WorkflowRunner} does.
 */
public final class ProjectActorCode {

  /** The settings and the workflow that gives them. */
  public record Found(ActorCode actorCode, Path workflow) {
  }

  /** Settings that several workflows give differently: none is chosen. */
  public record Ambiguous(List<Path> workflows) {
  }

  private ProjectActorCode() {
  }

  /**
   * The actor-code settings of the project's cacheflow tasks: present when at least one task gives some and all
   * those that give some agree; {@code ambiguous} receives the workflows when they disagree.
   */
  public static Optional<Found> of(PreesmProject project, Diagnostics diagnostics,
      Consumer<Ambiguous> ambiguous) {
    Map<ActorCode, Path> given = new LinkedHashMap<>();
    for (Path file : project.workflows()) {
      Workflow workflow = WorkflowReader.read(file, diagnostics);
      for (WorkflowTask task : workflow.getTasks()) {
        if (TaskRole.of(task) != TaskRole.CACHEFLOW || !CodegenSettings.problems(task).isEmpty()) {
          continue;
        }
        CodegenSettings settings = CodegenSettings.read(task);
        if (!settings.actorCode().equals(ActorCode.NONE)) {
          given.putIfAbsent(WorkflowRunner.resolveActorCode(project, settings), file);
        }
      }
    }
    if (given.size() > 1) {
      ambiguous.accept(new Ambiguous(List.copyOf(given.values())));
      return Optional.empty();
    }
    return given.entrySet().stream().findFirst().map(e -> new Found(e.getKey(), e.getValue()));
  }

  /**
   * For the pipeline ({@link GenerateOptions#withActorCode}): what a project's workflows say its actors' code needs
   * fills in what the caller leaves out, so that generating from the project directory builds what running its
   * workflow builds; nothing for a folder without workflows, or when workflows disagree (a warning).
   */
  public static GenerateOptions.ActorCodeDefaults defaults() {
    return (root, given, listener) -> {
      if (!Files.isDirectory(root.resolve("Workflows"))) {
        return given;
      }
      Diagnostics diagnostics = new Diagnostics();
      PreesmProject project = PreesmProject.open(root, diagnostics);
      ActorCode found = of(project, diagnostics, ambiguous -> listener.diagnostic(Diagnostic.warning(null,
          "the workflows " + ambiguous.workflows().stream().map(PathText::display).toList() + " give different "
              + "actor-code settings (Actor sources, Include directories, Compile definitions, Libraries); none is "
              + "used: give --sources, --include, --define and --link")))
          .map(settings -> {
            listener.diagnostic(Diagnostic.note("the actors' code settings of " + PathText.display(settings.workflow())
                + ": " + String.join(" ", settings.actorCode().generateOptions())
                + " (options given here replace them)"));
            return settings.actorCode();
          }).orElse(ActorCode.NONE);
      diagnostics.warnings().forEach(w -> listener.diagnostic(Diagnostic.warning(w.location(), w.message())));
      ActorCode merged = found.with(new ActorCode(given.sources() == null ? null : given.sources().toString(),
          given.includes().isEmpty() ? null : given.includes().stream().map(Path::toString).toList(),
          given.definitions().isEmpty() ? null : given.definitions(),
          given.libraries().isEmpty() ? null : given.libraries()));
      return new ActorCodeOptions(merged.sources() == null ? null : Path.of(merged.sources()),
          orEmpty(merged.includes()).stream().map(Path::of).toList(), orEmpty(merged.definitions()),
          orEmpty(merged.libraries()));
    };
  }

  private static List<String> orEmpty(List<String> list) {
    return list == null ? List.of() : list;
  }
}
