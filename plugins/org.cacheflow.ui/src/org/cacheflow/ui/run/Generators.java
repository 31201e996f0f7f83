package org.cacheflow.ui.run;

import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.eclipse.core.runtime.FileLocator;
import org.osgi.framework.Bundle;
import org.osgi.framework.FrameworkUtil;

/** Where this plug-in gets the C runtime that generated projects carry (the pipeline copies it into each). */
public final class Generators {

  /** System property naming the {@code runtime-c} folder copied into generated projects (as the command line's). */
  public static final String RUNTIME_PROPERTY = "cacheflow.runtime";

  private Generators() {
  }

  /**
   * The {@code runtime-c} folder: the system property {@value #RUNTIME_PROPERTY}, else
   * {@code $CACHEFLOW_HOME/runtime-c}, else the copy packed into this plug-in (extracted on first use).
   *
   * @throws InputException at {@code workflow} when there is none
   */
  public static Path runtime(Path workflow) {
    String property = System.getProperty(RUNTIME_PROPERTY);
    if (property != null && !property.isBlank()) {
      return check(Path.of(property), workflow, "-D" + RUNTIME_PROPERTY);
    }
    String home = System.getenv("CACHEFLOW_HOME");
    if (home != null && !home.isBlank()) {
      return check(Path.of(home, "runtime-c"), workflow, "CACHEFLOW_HOME");
    }
    Path bundled = bundledRuntime();
    if (bundled != null) {
      return check(bundled, workflow, "the plug-in's copy");
    }
    throw new InputException(SourceLocation.file(workflow), "cannot find the cacheflow C runtime that generated "
        + "projects include: add '-D" + RUNTIME_PROPERTY + "=<cacheflow checkout>/runtime-c' to eclipse.ini (after "
        + "-vmargs), or set CACHEFLOW_HOME to the cacheflow checkout before starting Eclipse");
  }

  /** The runtime packed into this bundle, as a folder of files; null outside OSGi or when it is missing. */
  private static Path bundledRuntime() {
    Bundle bundle = FrameworkUtil.getBundle(Generators.class);
    URL entry = bundle == null ? null : bundle.getEntry("runtime-c/");
    if (entry == null) {
      return null;
    }
    try {
      // a jarred bundle's folder is extracted (with its contents) into the OSGi storage area
      return Path.of(FileLocator.toFileURL(entry).getPath());
    } catch (IOException | InvalidPathException e) {
      return null;
    }
  }

  private static Path check(Path runtime, Path workflow, String setting) {
    if (!Files.isRegularFile(runtime.resolve("CMakeLists.txt"))) {
      throw new InputException(SourceLocation.file(workflow), setting + " names " + runtime
          + ", which is not the cacheflow C runtime (no CMakeLists.txt there)");
    }
    return runtime;
  }
}
