package org.cacheflow.pipeline;

import java.nio.file.Path;

/** Paths as users want to read them: relative to the working directory when they lie below it. */
public final class PathText {

  private PathText() {
  }

  public static String display(Path path) {
    Path absolute = path.toAbsolutePath().normalize();
    Path here = Path.of("").toAbsolutePath().normalize();
    return absolute.startsWith(here) && !absolute.equals(here) ? here.relativize(absolute).toString()
        : path.toString();
  }

  /** {@code folder} relative to {@code base} (an output folder), with '/': generated files name no absolute path. */
  public static String relative(Path base, Path folder) {
    if (folder == null) {
      return null;
    }
    return base.toAbsolutePath().normalize().relativize(folder.toAbsolutePath().normalize()).toString()
        .replace('\\', '/');
  }
}
