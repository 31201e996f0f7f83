package org.cacheflow.workflow.run;

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
}
