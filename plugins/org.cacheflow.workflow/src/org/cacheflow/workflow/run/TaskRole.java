package org.cacheflow.workflow.run;

import java.util.Set;

import org.cacheflow.model.WorkflowTask;
import org.cacheflow.workflow.CodegenTask;

/** What cacheflow does with a task of a PREESM workflow. */
public enum TaskRole {
  /** A cacheflow code-generation task: run with its settings. */
  CACHEFLOW,
  /**
   * PREESM's own static C code generation. In a workflow without a cacheflow task, cacheflow generates its code
   * in its place, with default settings, so an unchanged PREESM project runs as it is.
   */
  PREESM_CODE_GENERATION,
  /** Anything else (scheduling, memory allocation, exports, Gantt charts...): cacheflow does that work itself. */
  NOT_NEEDED;

  /**
   * PREESM's tasks that generate static C: the Xtend code generator, the new synthesis API's, and the
   * multi-scenario experiment. (Spider's and the clustering code generators target other runtimes.)
   */
  public static final Set<String> PREESM_CODE_GENERATORS = Set.of("org.ietr.preesm.codegen.xtend.task.CodegenTask",
      "codegen2", "org.ietr.preesm.experiment.codegen.xtend.MultiCodegenTask");

  public static TaskRole of(WorkflowTask task) {
    if (CodegenTask.PLUGIN_ID.equals(task.getPluginId())) {
      return CACHEFLOW;
    }
    return PREESM_CODE_GENERATORS.contains(task.getPluginId()) ? PREESM_CODE_GENERATION : NOT_NEEDED;
  }
}
