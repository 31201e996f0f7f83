package org.cacheflow.workflow.run;

import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;

/**
 * Runs one code generation: the workflow runner only decides what to generate, the pipeline does it. Only tests
 * substitute another (a recording one); front ends call {@link WorkflowRunner#WorkflowRunner(SettingsChange,
 * RunListener, java.nio.file.Path)}.
 */
@FunctionalInterface
interface CodeGenerator {

  /**
   * Generates the project {@code request} describes.
   *
   * @throws InputException for bad input, naming the file and line (a setting's origin for a rejected setting)
   */
  GeneratedCode generate(GenerationRequest request, Diagnostics diagnostics);
}
