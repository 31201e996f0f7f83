package org.cacheflow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/** What the command tests share: the checkout's runtime, copies of the examples, and in-process command runs. */
final class Examples {

  private Examples() {
  }

  /** The launcher sets CACHEFLOW_HOME; tests name the runtime-c folder of this checkout instead. */
  static void useCheckoutRuntime() {
    if (System.getProperty("cacheflow.runtime") == null) {
      System.setProperty("cacheflow.runtime", Path.of("../../runtime-c").toAbsolutePath().normalize().toString());
    }
  }

  /** A copy of {@code examples/<name>} in {@code into}, without generated output. */
  static Path copy(String name, Path into) throws IOException {
    return copy(Path.of("../../examples", name), into);
  }

  /** A copy of the project folder {@code example} in {@code into}, without generated output. */
  static Path copy(Path example, Path into) throws IOException {
    Path project = into.resolve(example.getFileName().toString());
    try (Stream<Path> files = Files.walk(example)) {
      for (Path file : files.filter(Files::isRegularFile).filter(f -> !f.toString().contains("generated")).toList()) {
        Path copy = project.resolve(example.relativize(file).toString());
        Files.createDirectories(copy.getParent());
        Files.copy(file, copy);
      }
    }
    return project;
  }

  record Run(int status, String out, String err) {
  }

  /** Runs a program, fails the test when it exits with another status than 0; its output and error output. */
  static String exec(List<String> command) {
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertEquals(0, process.waitFor(), String.join(" ", command) + "\n" + output);
      return output;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** Whether {@code program} is an executable on the PATH. */
  static boolean onPath(String program) {
    for (String folder : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!folder.isEmpty() && Files.isExecutable(Path.of(folder, program))) {
        return true;
      }
    }
    return false;
  }

  /** {@code cacheflow ARGS}, in this process. */
  static Run run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = new Main().run(Arrays.asList(args), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }
}
