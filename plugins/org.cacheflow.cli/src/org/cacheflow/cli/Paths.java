package org.cacheflow.cli;

import java.nio.file.Path;

/** Paths as users want to read them: relative to the working directory when they lie below it. */
final class Paths {

  private Paths() {
  }

  static String display(Path path) {
    Path absolute = path.toAbsolutePath().normalize();
    Path here = Path.of("").toAbsolutePath().normalize();
    return absolute.startsWith(here) && !absolute.equals(here) ? here.relativize(absolute).toString()
        : path.toString();
  }
}
