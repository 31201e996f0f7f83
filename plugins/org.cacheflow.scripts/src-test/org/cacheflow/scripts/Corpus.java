package org.cacheflow.scripts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;

/** Finds the shared test corpus through the {@code cacheflow.corpus} system property. */
final class Corpus {

  private Corpus() {
  }

  /** The corpus root; skips the calling test when it is absent. */
  static Path root() {
    String property = System.getProperty("cacheflow.corpus");
    Assumptions.assumeTrue(property != null && Files.isDirectory(Path.of(property)),
        "test corpus not found (system property cacheflow.corpus=" + property + "); skipping");
    return Path.of(property);
  }

  /** Every memory script of the corpus, sorted. */
  static List<Path> scripts() {
    Path root = root();
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(file -> file.toString().endsWith(".bsh")).sorted().collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
