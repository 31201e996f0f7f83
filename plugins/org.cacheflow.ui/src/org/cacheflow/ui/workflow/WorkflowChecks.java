package org.cacheflow.ui.workflow;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.cacheflow.io.workflow.WorkflowReader;
import org.cacheflow.model.Workflow;
import org.cacheflow.model.WorkflowTask;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.ui.workflow.WorkflowProblem.Severity;
import org.cacheflow.ui.workflow.XmlScanner.SyntaxException;
import org.cacheflow.workflow.CodegenTask;
import org.cacheflow.workflow.run.CodegenSettings;
import org.cacheflow.workflow.run.Problem;
import org.cacheflow.workflow.run.TaskRole;

/**
 * Checks a saved {@code .workflow} file as a run would read it: well-formed XML, the structure PREESM's reader
 * expects, and every variable of every cacheflow task against the task descriptor. The results become problem
 * markers, so the mistakes a run would stop at are visible before running.
 */
public final class WorkflowChecks {

  private WorkflowChecks() {
  }

  /** Every problem of {@code file}, errors first within a line. Empty when the workflow is fine. */
  public static List<WorkflowProblem> check(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return List.of(new WorkflowProblem(Severity.ERROR, 0, 0, "cannot read the workflow: " + e.getMessage()));
    }
    try {
      WorkflowDocument.parse(text);
    } catch (SyntaxException e) {
      return List.of(new WorkflowProblem(Severity.ERROR, e.line(), e.column(), e.getMessage()));
    }
    Diagnostics diagnostics = new Diagnostics();
    Workflow workflow;
    try {
      workflow = WorkflowReader.read(file, diagnostics);
    } catch (InputException e) {
      return List.of(at(Severity.ERROR, e.location(), e.getMessage()));
    }
    List<WorkflowProblem> problems = new ArrayList<>();
    for (Diagnostics.Warning warning : diagnostics.warnings()) {
      problems.add(at(Severity.WARNING, warning.location(), warning.message()));
    }
    WorkflowTask preesmCodegen = null;
    boolean cacheflowTask = false;
    for (WorkflowTask task : workflow.getTasks()) {
      TaskRole role = TaskRole.of(task);
      if (role == TaskRole.CACHEFLOW) {
        cacheflowTask = true;
        for (Problem problem : CodegenSettings.problems(task)) {
          problems.add(at(Severity.ERROR, problem.location(), problem.message()));
        }
      } else if (role == TaskRole.PREESM_CODE_GENERATION && preesmCodegen == null) {
        preesmCodegen = task;
      }
    }
    if (!cacheflowTask && preesmCodegen != null) {
      problems.add(new WorkflowProblem(Severity.INFO, preesmCodegen.getLine(), preesmCodegen.getColumn(),
          "cacheflow generates the code of task '" + preesmCodegen.getName() + "' with default settings; add a "
              + "cacheflow task (pluginId " + CodegenTask.PLUGIN_ID + ") to choose the memory strategy"));
    } else if (!cacheflowTask) {
      problems.add(new WorkflowProblem(Severity.WARNING, workflow.getLine(), workflow.getColumn(),
          "the workflow generates no code: it has neither a cacheflow task nor a PREESM code generation task"));
    }
    return problems;
  }

  private static WorkflowProblem at(Severity severity, SourceLocation location, String message) {
    return new WorkflowProblem(severity, location.line(), location.column(), message);
  }
}
