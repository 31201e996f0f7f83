package org.cacheflow.workflow.run;

import java.nio.file.Path;

/**
 * One generation of a workflow run.
 *
 * @param workflow the workflow file
 * @param scenario the scenario file
 * @param taskId the task that asked for it (PREESM's code generation task when cacheflow stands in for it)
 * @param request what was generated
 * @param result what came out; null while not yet run
 */
public record Generation(Path workflow, Path scenario, String taskId, GenerationRequest request,
    GeneratedCode result) {

  Generation withResult(GeneratedCode value) {
    return new Generation(workflow, scenario, taskId, request, value);
  }
}
