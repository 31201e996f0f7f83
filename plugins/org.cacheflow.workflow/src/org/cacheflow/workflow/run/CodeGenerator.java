package org.cacheflow.workflow.run;

import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;

/**
 * Runs one code generation. The workflow runner only decides what to generate; this does it (tests substitute a
 * recording one).
 */
@FunctionalInterface
public interface CodeGenerator {

  /**
   * Generates the project {@code request} describes.
   *
   * @throws InputException for bad input, naming the file and line (a setting's origin for a rejected setting)
   */
  GeneratedCode generate(GenerationRequest request, Diagnostics diagnostics);
}
