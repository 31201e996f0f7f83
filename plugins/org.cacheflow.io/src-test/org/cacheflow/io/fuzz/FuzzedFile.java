package org.cacheflow.io.fuzz;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.cacheflow.model.diagnostics.InputException;

/**
 * What every reader's fuzz target does with one input: writes the bytes to a file (readers read files, and name them
 * in their messages), reads it, and accepts the reader's own {@link InputException} only when it names a file of the
 * fuzzed project and says what is wrong. Anything else escaping the reader (a {@code NullPointerException}, an
 * index out of bounds, a stack overflow, running out of memory) fails the target: Jazzer saves that input.
 */
public final class FuzzedFile {

  private final Path directory;
  private final Path file;
  private final Consumer<Path> reader;
  private final AtomicLong inputs = new AtomicLong();
  private final AtomicLong rejected = new AtomicLong();

  /**
   * A target whose inputs become {@code name} in a fresh directory (the project folder, when a reader wants one),
   * read by {@code reader}.
   */
  public FuzzedFile(String name, Consumer<Path> reader) {
    this.reader = reader;
    try {
      directory = Files.createTempDirectory("cacheflow-fuzz-").toRealPath();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    file = directory.resolve(name);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(directory)));
  }

  private static void delete(Path folder) {
    try (Stream<Path> paths = Files.walk(folder)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      // a temporary folder left behind
    }
  }

  /** The folder the file is written to. */
  public Path directory() {
    return directory;
  }

  /** Copies the resource {@code resource} of {@code owner} to {@code name} in the directory, for inputs to refer to. */
  public void provide(String name, Class<?> owner, String resource) {
    try (InputStream in = owner.getResourceAsStream(resource)) {
      assertNotNull(in, () -> "no resource " + resource + " next to " + owner.getName());
      Path target = directory.resolve(name);
      Files.createDirectories(target.getParent());
      Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes {@code input} to the file and reads it with {@code reader}; see the class comment for what passes. */
  public void read(byte[] input) {
    inputs.incrementAndGet();
    write(input);
    try {
      reader.accept(file);
    } catch (InputException e) {
      rejected.incrementAndGet();
      assertLocated(e);
    }
  }

  /**
   * The seeds of {@code target} ({@code <Target>Inputs/fuzz/seed-*} next to its class) are read without error, so
   * that fuzzing starts from valid files; there is at least one.
   */
  public void assertSeedsRead(Class<?> target) {
    List<Path> seeds = inputs(target, "seed-");
    assertFalse(seeds.isEmpty(), () -> "no seeds for " + target.getSimpleName());
    for (Path seed : seeds) {
      try {
        write(Files.readAllBytes(seed));
        reader.accept(file);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (InputException e) {
        fail(seed.getFileName() + " is not valid: " + e.describe());
      }
    }
  }

  /**
   * Reads the saved input {@code name} of {@code target} (a regression input) and returns the error the reader
   * gives, failing when it reads the input without one.
   */
  public InputException rejection(Class<?> target, String name) {
    Path input = inputs(target, name).stream().filter(path -> path.getFileName().toString().equals(name))
        .findFirst().orElseThrow(() -> new AssertionError("no input " + name + " for " + target.getSimpleName()));
    try {
      write(Files.readAllBytes(input));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    InputException error = assertThrows(InputException.class, () -> reader.accept(file), name);
    assertLocated(error);
    return error;
  }

  /** The file inputs are written to. */
  public Path file() {
    return file;
  }

  /** The files of {@code target}'s inputs folder whose names start with {@code prefix}, by name. */
  public static List<Path> inputs(Class<?> target, String prefix) {
    URL folder = target.getResource(target.getSimpleName() + "Inputs/fuzz");
    assertNotNull(folder, () -> "no inputs folder for " + target.getSimpleName());
    try (Stream<Path> files = Files.list(Path.of(folder.toURI()))) {
      return files.filter(path -> path.getFileName().toString().startsWith(prefix)).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private void write(byte[] input) {
    try {
      Files.createDirectories(file.getParent());
      Files.write(file, input);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The error names a file of the fuzzed project and says what is wrong. */
  private void assertLocated(InputException error) {
    assertNotNull(error.location(), () -> "no location: " + error.getMessage());
    String where = error.location().file();
    assertTrue(where.startsWith(directory.toString()), () -> "names a file outside the project: " + error.describe());
    assertNotNull(error.getMessage(), "no message");
    assertFalse(error.getMessage().isBlank(), "blank message");
  }

  /** One line for the build's log: how many inputs this JVM read and how many the reader rejected. */
  public String summary(String target) {
    return "fuzz target " + target + ": " + inputs.get() + " inputs read, " + rejected.get()
        + " rejected with a located error";
  }
}
