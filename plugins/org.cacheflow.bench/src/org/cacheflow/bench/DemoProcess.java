package org.cacheflow.bench;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.cacheflow.pipeline.PathText;

/**
 * Runs the external programs the demo drives (CMake, the generated programs, perf, valgrind): their output goes to a
 * log, a failure shows the log's end; and whether a program is installed.
 */
final class DemoProcess {

  private DemoProcess() {
  }

  /**
   * Runs a program, appending its output (stdout and stderr) to {@code log} and returning it; on failure shows
   * the end of the log in the exception.
   */
  static String command(Path log, Path directory, Map<String, String> environment, String... argv)
      throws IOException {
    ProcessBuilder builder = new ProcessBuilder(argv).directory(directory.toFile()).redirectErrorStream(true);
    if (environment != null) {
      builder.environment().putAll(environment);
    }
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new DemoFailure("cannot run " + argv[0] + ": " + e.getMessage() + " (is it installed?)");
    }
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    int status;
    try {
      status = process.waitFor();
    } catch (InterruptedException e) {
      process.destroy();
      Thread.currentThread().interrupt();
      throw new DemoFailure("interrupted while running " + argv[0]);
    }
    Files.createDirectories(log.getParent());
    Files.writeString(log, "$ " + String.join(" ", argv) + "\n" + output, StandardCharsets.UTF_8,
        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    if (status != 0) {
      List<String> lines = Arrays.asList(output.split("\n"));
      String tail = String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
      throw new DemoFailure(String.join(" ", argv) + " failed with status " + status + "; the end of "
          + PathText.display(log) + ":\n" + tail);
    }
    return output;
  }

  static boolean onPath(String program) {
    String path = System.getenv("PATH");
    if (path == null) {
      return false;
    }
    for (String folder : path.split(File.pathSeparator)) {
      if (!folder.isEmpty() && Files.isExecutable(Path.of(folder, program))) {
        return true;
      }
    }
    return false;
  }
}
