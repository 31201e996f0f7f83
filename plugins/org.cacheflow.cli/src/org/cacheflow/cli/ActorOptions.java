package org.cacheflow.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.cacheflow.pipeline.ActorCodeOptions;
import org.cacheflow.workflow.run.ActorCode;

import picocli.CommandLine.Option;

/**
 * The actors' code ({@code @Mixin} of {@code generate} and {@code run-workflow}): {@code --sources},
 * {@code --include}, {@code --define} and {@code --link}, each also a cache variable of the generated CMake project.
 * {@code generate} takes them as they are ({@link #options}); {@code run-workflow} replaces the tasks' settings with
 * those given ({@link #change}).
 */
public final class ActorOptions {

  @Option(names = "--sources", paramLabel = "DIR", description = "folder of the actors' C sources (default: the "
      + "project's Code/src)")
  Path sources;

  @Option(names = "--include", paramLabel = "DIR", description = "folder of headers the actors include, besides the "
      + "project's Code/include; repeatable")
  List<Path> includes = new ArrayList<>();

  @Option(names = "--define", paramLabel = "NAME=VALUE", description = "compile definition (NAME alone: defined as "
      + "1); repeatable. PROJECT_ROOT_PATH is defined as the project's Code/ folder, as PREESM's CMakeLists does, "
      + "unless given here")
  List<String> definitions = new ArrayList<>();

  @Option(names = "--link", paramLabel = "LIB", description = "library the actors use, found by CMake when the "
      + "project is configured: Package::target (find_package), pthread, a pkg-config module (sdl2, zlib) or a "
      + "library name (m); repeatable")
  List<String> libraries = new ArrayList<>();

  /**
   * The options as {@code generate} takes them: definitions and libraries trimmed and checked.
   *
   * @throws org.cacheflow.pipeline.OptionException for a definition or library the CMake project could not take
   */
  public ActorCodeOptions options() {
    return new ActorCodeOptions(sources, includes, definitions.stream().map(String::trim).toList(),
        libraries.stream().map(String::trim).toList()).checked("--define", "--link");
  }

  /**
   * What the options change in a workflow's tasks: folders absolute (from the working directory, as the user typed
   * them; the tasks' are taken from the project); an option not given is null and keeps the task's setting, one
   * given replaces the task's whole list.
   */
  public ActorCode change() {
    return new ActorCode(sources == null ? null : absolute(sources),
        includes.isEmpty() ? null : includes.stream().map(ActorOptions::absolute).toList(),
        definitions.isEmpty() ? null : definitions, libraries.isEmpty() ? null : libraries);
  }

  private static String absolute(Path folder) {
    return folder.toAbsolutePath().normalize().toString();
  }
}
