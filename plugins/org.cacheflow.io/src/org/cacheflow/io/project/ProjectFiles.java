package org.cacheflow.io.project;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * How every front end finds a scenario or workflow a user names, as PREESM users write them: a file path (taken
 * from the working directory), or a path relative to the project ({@code Scenarios/4core.scenario}), or a bare name
 * under the project's folder for that kind of file ({@code 4core}, {@code 4core.scenario}).
 */
public final class ProjectFiles {

  private ProjectFiles() {
  }

  /**
   * The file {@code given} names.
   *
   * @param root the project directory, or null when there is none (then only the path as given is tried)
   * @param folder the project's folder for such files, e.g. {@code Scenarios}
   * @param extension the files' extension with its dot, e.g. {@code .scenario}
   * @throws InputException naming every place looked at when there is no such file
   */
  public static Path find(Path root, String given, String folder, String extension) {
    List<Path> candidates = candidates(root, given, folder, extension);
    for (Path candidate : candidates) {
      if (Files.isRegularFile(candidate)) {
        return candidate.toAbsolutePath().normalize();
      }
    }
    throw new InputException(SourceLocation.file(Path.of(given)), "no such " + extension.substring(1) + " (looked for "
        + String.join(", ", candidates.stream().map(Path::toString).toList()) + ")");
  }

  private static List<Path> candidates(Path root, String given, String folder, String extension) {
    String name = given.trim();
    Set<Path> candidates = new LinkedHashSet<>();
    candidates.add(Path.of(name));
    if (root != null && !Path.of(name).isAbsolute()) {
      String withExtension = name.endsWith(extension) ? name : name + extension;
      candidates.add(root.resolve(name).normalize());
      candidates.add(root.resolve(withExtension).normalize());
      candidates.add(root.resolve(folder).resolve(withExtension).normalize());
    }
    return new ArrayList<>(candidates);
  }
}
