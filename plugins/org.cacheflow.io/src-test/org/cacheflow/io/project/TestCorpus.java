package org.cacheflow.io.project;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The shared test corpus (system property {@code cacheflow.corpus}); tests using it are skipped, with a
 * message saying why, when it is absent (a user's checkout has none).
 */
public final class TestCorpus {

  private TestCorpus() {
  }

  /** The corpus directory, or a skipped test. */
  public static Path root() {
    String property = System.getProperty("cacheflow.corpus");
    Path root = property == null ? null : Path.of(property).toAbsolutePath().normalize();
    assumeTrue(root != null && Files.isDirectory(root),
        "test corpus not found (system property cacheflow.corpus = " + property + "); skipping");
    return root;
  }

  /** {@code preesm-apps/<project>}, or a skipped test. */
  public static Path preesmApp(String project) {
    Path directory = root().resolve("preesm-apps").resolve(project);
    assumeTrue(Files.isDirectory(directory), "corpus application " + project + " not found; skipping");
    return directory;
  }

  /** Every file under {@code relativeDirectory} of the corpus whose name ends with {@code suffix}, sorted. */
  public static List<Path> files(String relativeDirectory, String suffix) {
    Path directory = root().resolve(relativeDirectory);
    assumeTrue(Files.isDirectory(directory), "corpus folder " + relativeDirectory + " not found; skipping");
    try (Stream<Path> files = Files.walk(directory)) {
      List<Path> found = files.filter(Files::isRegularFile)
          .filter(file -> file.getFileName().toString().endsWith(suffix)).sorted().toList();
      assumeTrue(!found.isEmpty(), "no " + suffix + " file in corpus folder " + relativeDirectory + "; skipping");
      return found;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The 1-based number of the first line of {@code file} containing {@code text}. */
  public static int lineContaining(Path file, String text) {
    try {
      List<String> lines = Files.readAllLines(file);
      for (int i = 0; i < lines.size(); i++) {
        if (lines.get(i).contains(text)) {
          return i + 1;
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    throw new AssertionError(file + " has no line containing " + text);
  }
}
