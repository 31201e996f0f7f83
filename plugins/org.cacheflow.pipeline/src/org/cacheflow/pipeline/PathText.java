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
}
