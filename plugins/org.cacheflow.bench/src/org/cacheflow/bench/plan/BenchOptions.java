package org.cacheflow.bench.plan;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.cacheflow.pipeline.PathText;

/**
 * The command line of the benchmark programs: flags ({@code --quick}), options with one value ({@code --runs N}),
 * {@code --help}, and the CSV file they can write. Every benchmark reads its arguments the same way, so a typo or a
 * missing value is the same short error (exit status 2) everywhere instead of a stack trace.
 */
public final class BenchOptions {

  /** Bad use of a benchmark's command line; the message says what is wrong. */
  public static final class UsageError extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    UsageError(String message) {
      super(message);
    }
  }

  private final Set<String> flagsGiven = new HashSet<>();
  private final Map<String, String> values = new HashMap<>();
  private final boolean help;

  private BenchOptions(boolean help) {
    this.help = help;
  }

  /**
   * Reads {@code args}. {@code --help} and {@code -h} are always understood.
   *
   * @param flags the options without a value, e.g. {@code --quick}
   * @param valued the options that take the next argument as their value, e.g. {@code --runs}
   * @throws UsageError for an unknown argument or an option whose value is missing
   */
  public static BenchOptions parse(String[] args, List<String> flags, List<String> valued) {
    boolean help = false;
    for (String arg : args) {
      help |= arg.equals("--help") || arg.equals("-h");
    }
    BenchOptions options = new BenchOptions(help);
    for (int i = 0; i < args.length && !help; i++) {
      String arg = args[i];
      if (flags.contains(arg)) {
        options.flagsGiven.add(arg);
      } else if (valued.contains(arg)) {
        if (i + 1 >= args.length) {
          throw new UsageError(arg + " needs a value");
        }
        options.values.put(arg, args[++i]);
      } else {
        throw new UsageError("unknown argument '" + arg + "' (try --help)");
      }
    }
    return options;
  }

  /**
   * {@link #parse} for a {@code main}: prints {@code usage} to standard output and returns null on {@code --help}
   * (the caller returns), and on bad use prints the error to standard error and exits with status 2.
   */
  public static BenchOptions parseOrExit(String usage, String[] args, List<String> flags, List<String> valued) {
    try {
      BenchOptions options = parse(args, flags, valued);
      if (options.help) {
        System.out.println(usage);
        return null;
      }
      return options;
    } catch (UsageError e) {
      return exitWithUsageError(e);
    }
  }

  /** Whether {@code --help} was given. */
  public boolean help() {
    return help;
  }

  public boolean flag(String name) {
    return flagsGiven.contains(name);
  }

  /** The value given for {@code name}, or {@code fallback} when the option is absent. */
  public String value(String name, String fallback) {
    return values.getOrDefault(name, fallback);
  }

  /** The option as a file or directory, or null when it is absent. */
  public Path path(String name) {
    String value = values.get(name);
    return value == null ? null : Path.of(value);
  }

  /**
   * The option as a positive whole number (a count of runs, cores, iterations), or {@code fallback} when absent.
   *
   * @throws UsageError when the value is not a whole number of at least 1
   */
  public int positive(String name, int fallback) {
    String value = values.get(name);
    if (value == null) {
      return fallback;
    }
    try {
      int number = Integer.parseInt(value.trim());
      if (number >= 1) {
        return number;
      }
    } catch (NumberFormatException e) {
      // reported below with the option's name
    }
    throw new UsageError(name + " takes a whole number of at least 1, not '" + value + "'");
  }

  /** {@link #positive} for a {@code main}: bad use prints the error and exits with status 2. */
  public int positiveOrExit(String name, int fallback) {
    try {
      return positive(name, fallback);
    } catch (UsageError e) {
      return exitWithUsageError(e);
    }
  }

  /**
   * Writes a benchmark's CSV rows to {@code file} (creating its folder) and says so on {@code out}; when the file
   * cannot be written, prints the error and exits with status 1, as the measurements are lost anyway.
   */
  public static void writeCsv(Path file, CharSequence text, PrintStream out) {
    try {
      if (file.toAbsolutePath().getParent() != null) {
        Files.createDirectories(file.toAbsolutePath().getParent());
      }
      Files.writeString(file, text);
    } catch (IOException e) {
      System.err.println("error: cannot write " + PathText.display(file) + ": " + e.getMessage());
      System.exit(1);
    }
    out.println("CSV written to " + PathText.display(file));
  }

  private static <T> T exitWithUsageError(UsageError e) {
    System.err.println("error: " + e.getMessage());
    System.exit(2);
    return null;
  }
}
