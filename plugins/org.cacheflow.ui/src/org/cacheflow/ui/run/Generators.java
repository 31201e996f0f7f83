package org.cacheflow.ui.run;

import java.nio.file.Files;
import java.nio.file.Path;

import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.plan.analysis.ProgressListener;
import org.cacheflow.workflow.run.CodeGenerator;

/** Where this plug-in gets its code generator and the C runtime that generated projects carry. */
public final class Generators {

  /** System property naming the {@code runtime-c} folder copied into generated projects (as the command line's). */
  public static final String RUNTIME_PROPERTY = "cacheflow.runtime";

  private Generators() {
  }

  /**
   * The in-process code generator. INTEGRATION POINT: the interim one until the code generator provides a shared
   * {@link CodeGenerator}.
   *
   * @param workflow the workflow being run, where a missing runtime is reported
   */
  public static CodeGenerator inProcess(Path workflow, ProgressListener progress) {
    return new InterimCodeGenerator(runtime(workflow), progress);
  }

  /**
   * The {@code runtime-c} folder: the system property {@value #RUNTIME_PROPERTY}, else
   * {@code $CACHEFLOW_HOME/runtime-c}.
   *
   * @throws InputException at {@code workflow} when neither names a runtime
   */
  static Path runtime(Path workflow) {
    String property = System.getProperty(RUNTIME_PROPERTY);
    if (property != null && !property.isBlank()) {
      return check(Path.of(property), workflow, "-D" + RUNTIME_PROPERTY);
    }
    String home = System.getenv("CACHEFLOW_HOME");
    if (home != null && !home.isBlank()) {
      return check(Path.of(home, "runtime-c"), workflow, "CACHEFLOW_HOME");
    }
    throw new InputException(SourceLocation.file(workflow), "cannot find the cacheflow C runtime that generated "
        + "projects include: add '-D" + RUNTIME_PROPERTY + "=<cacheflow checkout>/runtime-c' to eclipse.ini (after "
        + "-vmargs), or set CACHEFLOW_HOME to the cacheflow checkout before starting Eclipse");
  }

  private static Path check(Path runtime, Path workflow, String setting) {
    if (!Files.isRegularFile(runtime.resolve("CMakeLists.txt"))) {
      throw new InputException(SourceLocation.file(workflow), setting + " names " + runtime
          + ", which is not the cacheflow C runtime (no CMakeLists.txt there)");
    }
    return runtime;
  }
}
