package org.cacheflow.ui.run;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.cacheflow.cli.Main;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * Runs a {@code cacheflow} command in this process, as {@code cacheflow run-workflow} runs {@code generate}: the
 * IDE generates and plans exactly what the command line does, with the same checks and messages.
 */
final class CommandLine {

  /** What a command printed. */
  record Output(String out, List<String> messages) {
  }

  private static final Pattern LOCATED = Pattern.compile("^error: (.+?):(\\d+)(?::(\\d+))?: (.*)$");
  /** {@code error: FILE: message}, for a file as a whole. */
  private static final Pattern FILE = Pattern.compile("^error: (/[^:]+|[^:\\s]+\\.[A-Za-z0-9]+): (.*)$");

  private CommandLine() {
  }

  /**
   * Runs {@code cacheflow args...}.
   *
   * @param fallback where an error that names no file is reported
   * @throws InputException when the command fails, at the place its {@code error: FILE:LINE:COL:} line names
   */
  static Output run(List<String> args, Path fallback) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = new Main().run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    List<String> messages = new ArrayList<>(err.toString(StandardCharsets.UTF_8).lines().toList());
    if (status != Main.OK) {
      throw failure(messages, status, fallback, args);
    }
    return new Output(out.toString(StandardCharsets.UTF_8), messages);
  }

  private static InputException failure(List<String> messages, int status, Path fallback, List<String> args) {
    for (String line : messages) {
      if (!line.startsWith("error: ") && !line.startsWith("internal error: ")) {
        continue;
      }
      Matcher located = LOCATED.matcher(line);
      if (located.matches()) {
        return new InputException(new SourceLocation(located.group(1), Integer.parseInt(located.group(2)),
            located.group(3) == null ? 0 : Integer.parseInt(located.group(3))), located.group(4));
      }
      Matcher file = FILE.matcher(line);
      if (file.matches()) {
        return new InputException(SourceLocation.file(Path.of(file.group(1))), file.group(2));
      }
      return new InputException(SourceLocation.file(fallback), line.substring(line.indexOf(": ") + 2));
    }
    return new InputException(SourceLocation.file(fallback), "cacheflow " + String.join(" ", args)
        + " failed with status " + status + (messages.isEmpty() ? "" : ": " + String.join("; ", messages)));
  }
}
