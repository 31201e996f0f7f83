package org.cacheflow.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import picocli.CommandLine.Option;

/**
 * One sub-command of {@code cacheflow}: a picocli command (its options and parameters declared with annotations,
 * its {@code --help} generated from them) that parses, calls the pipeline and prints. Bad input is reported by
 * throwing {@code InputException}, a bad command line by throwing {@link UsageException} (or the pipeline's
 * {@code OptionException}); {@link Main} turns them into messages and exit codes. Commands outside this bundle
 * (the benchmarks and the demo) are found with {@link java.util.ServiceLoader}.
 */
public abstract class CliCommand implements Callable<Integer> {

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "this text")
  boolean help;

  /** Where results go. */
  protected PrintStream out;
  /** Where diagnostics and progress go. */
  protected PrintStream err;

  /** The streams of this run; set before {@link #call()}. */
  public final void streams(PrintStream output, PrintStream errors) {
    this.out = output;
    this.err = errors;
  }

  /** Exactly one positional argument, named in the message when missing. */
  protected static Path single(List<String> positionals, String what) {
    if (positionals == null || positionals.isEmpty()) {
      throw new UsageException("missing " + what);
    }
    if (positionals.size() > 1) {
      throw new UsageException("expected one " + what + ", got " + positionals.size() + ": " + positionals);
    }
    return Path.of(positionals.get(0));
  }

  /**
   * Help texts made from code (e.g. the strategy vocabulary), by key: an option with {@code descriptionKey = KEY}
   * shows the text of KEY ({@code %n} breaks lines).
   */
  protected Map<String, String> texts() {
    return Map.of();
  }

  /**
   * The {@code --override} entries that set the whole program rather than a FIFO, in the help of every command that
   * takes {@code --override} (plan, generate, run-workflow): they read them alike (pipeline's override texts).
   */
  protected static final String OVERRIDE_SETTINGS = "slots=K: rdy-ack channel slots of the generated code (default "
      + "2) and slots of merge groups several cores use (default: as many as span the target's L2), as the plan's "
      + "memory counts them; slots=1 turns "
      + "pipelining off; pipelining=on|off: whether a firing may run an iteration behind the rest "
      + "of its core's loop (default on)";

  /** A per-FIFO override as the commands that point to plan's help describe it. */
  protected static final String PER_FIFO_SEE_PLAN = "a per-FIFO override of the memory plan (see cacheflow plan "
      + "--help), e.g. 'Read.frame=ntm'";

  /** {@code --override}'s help: the whole-program settings, then per-FIFO overrides as {@code perFifo} says. */
  protected static String overrideHelp(String perFifo) {
    return OVERRIDE_SETTINGS + "; else " + perFifo + "; repeatable, later ones win";
  }

  /** The built-in cache profiles, the default marked: {@code zen4-vm (default), generic, ...}. */
  static String builtInTargets() {
    return String.join(", ", org.cacheflow.plan.strategy.TargetCache.BUILT_IN.keySet().stream()
        .map(name -> name.equals(org.cacheflow.pipeline.GenerateOptions.DEFAULT_TARGET) ? name + " (default)" : name)
        .toList());
  }

  /**
   * Whether everything after the first positional argument is passed on as it is (a command running another
   * program's command line, e.g. a benchmark's options).
   */
  protected boolean passesArgumentsOn() {
    return false;
  }

  /** The width of an option's description in the generated help. */
  protected static final int DESCRIPTION_WIDTH = 78;

  /**
   * {@code text} broken into lines of at most {@link #DESCRIPTION_WIDTH} characters joined with {@code %n}, so that
   * every line of a generated list starts in the description column.
   */
  protected static String wrap(String text) {
    StringBuilder wrapped = new StringBuilder();
    int column = 0;
    for (String word : text.split(" ")) {
      if (column > 0 && column + word.length() + 1 > DESCRIPTION_WIDTH) {
        wrapped.append("%n");
        column = 0;
      } else if (column > 0) {
        wrapped.append(' ');
        column++;
      }
      wrapped.append(word);
      column += word.length();
    }
    return wrapped.toString();
  }

  /** A listener printing diagnostics on {@code err} and progress when it is a terminal. */
  protected final Progress progress() {
    return new Progress(err);
  }
}
