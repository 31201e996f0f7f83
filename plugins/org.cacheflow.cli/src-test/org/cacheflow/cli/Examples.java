package org.cacheflow.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
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
    Path example = Path.of("../../examples", name);
    Path project = into.resolve(name);
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

  /** {@code cacheflow ARGS}, in this process. */
  static Run run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = new Main().run(Arrays.asList(args), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }
}
