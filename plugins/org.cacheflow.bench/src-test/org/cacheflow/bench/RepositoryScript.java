package org.cacheflow.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

/** A test script of the repository (bench/...), run by its interpreter from the tests of this bundle. */
final class RepositoryScript {

  /** The repository, from the bundle directory (tests run with it as working directory). */
  private static final Path ROOT = Path.of("../..");

  private RepositoryScript() {
  }

  /**
   * Runs {@code interpreter script args...}, asserts that it finishes within {@code seconds} with status 0, and
   * returns its output (standard output and error); aborts the test when the interpreter is not installed.
   *
   * @param script the script's path in the repository
   */
  static String passes(String interpreter, String script, int seconds, String... args)
      throws IOException, InterruptedException {
    Path path = ROOT.resolve(script);
    assertTrue(Files.isRegularFile(path), path + " is missing");
    String[] command = new String[args.length + 2];
    command[0] = interpreter;
    command[1] = path.toAbsolutePath().normalize().toString();
    System.arraycopy(args, 0, command, 2, args.length);
    Process process;
    try {
      process = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException missing) {
      Assumptions.abort(interpreter + " is not installed: " + missing.getMessage());
      return "";
    }
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(seconds, TimeUnit.SECONDS), script + " did not finish");
    assertEquals(0, process.exitValue(), output);
    return output;
  }
}
