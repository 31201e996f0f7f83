package org.cacheflow.codegen;

import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;

import org.cacheflow.codegen.model.ActorSources;
import org.cacheflow.codegen.model.CodeProject;
import org.cacheflow.codegen.model.Core;
import org.cacheflow.codegen.printer.ProfiledCorePrinter;

/**
 * Writes a program for profiling ({@code cacheflow profile}): the project {@link ProjectWriter} writes, its core files
 * printed by {@link ProfiledCorePrinter} so that every firing reports what it did with its ports and how long it took.
 */
public final class ProfileWriter {

  private ProfileWriter() {
  }

  /** The generated files by relative path: {@link ProjectWriter#print} with profiled core files. */
  public static Map<String, String> print(CodeProject project, ActorSources actors) {
    Map<String, String> files = ProjectWriter.print(project, actors);
    for (Core core : project.cores()) {
      files.put("core_" + core.index() + ".c", new ProfiledCorePrinter(project, core).print().toString()
          .replace("\r\n", "\n"));
    }
    return files;
  }

  /**
   * Writes the profiled program into {@code out} as {@link ProjectWriter#write} does.
   *
   * @param runtime the runtime-c folder to copy
   */
  public static void write(CodeProject project, ActorSources actors, Path runtime, Path out, Consumer<Path> waiting) {
    ProjectWriter.write(print(project, actors), runtime, out, waiting);
  }
}
