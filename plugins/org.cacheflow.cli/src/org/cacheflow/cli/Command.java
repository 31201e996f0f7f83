package org.cacheflow.cli;

import java.io.PrintStream;
import java.util.List;

/** One sub-command of {@code cacheflow}. */
public interface Command {

  String name();

  /** One line for the command list. */
  String summary();

  /** The full {@code --help} text. */
  String help();

  /**
   * Runs the command. Bad input is reported by throwing {@code InputException}, a bad command line by
   * throwing {@link UsageException}; the caller turns them into messages and exit codes.
   *
   * @return the exit status (0 on success)
   */
  int run(List<String> args, PrintStream out, PrintStream err);
}
