package org.cacheflow.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.ListResourceBundle;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.function.Supplier;

import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.pipeline.OptionException;

import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine.UnmatchedArgumentException;
import picocli.CommandLine;

/**
 * {@code cacheflow <command> [options]}. Exit status: 0 success, 1 bad input ({@code error: FILE:LINE:COL:
 * message} on stderr), 2 usage error, 3 internal error (a bug: reported without a stack trace unless
 * {@code CACHEFLOW_DEBUG} is set). Each command is a picocli command ({@link CliCommand}); commands of other
 * bundles on the class path (the benchmarks and the demo) are found with {@link ServiceLoader}.
 */
public final class Main {

  public static final int OK = 0;
  public static final int BAD_INPUT = 1;
  public static final int USAGE = 2;
  public static final int INTERNAL = 3;

  /** The width of generated help. */
  static final int HELP_WIDTH = 110;

  private final Map<String, Supplier<CliCommand>> commands = new LinkedHashMap<>();

  public Main() {
    register(InspectCommand::new);
    register(ScriptsCommand::new);
    register(PlanCommand::new);
    register(GenerateCommand::new);
    register(RunWorkflowCommand::new);
    register(CalibrateCommand::new);
    register(ProfileCommand::new);
    register(CheckCommand::new);
    for (ServiceLoader.Provider<CliCommand> provider : ServiceLoader.load(CliCommand.class).stream().toList()) {
      register(provider::get);
    }
  }

  private void register(Supplier<CliCommand> command) {
    commands.put(commandLine(command.get()).getCommandSpec().name(), command);
  }

  public static void main(String[] args) {
    System.exit(new Main().run(Arrays.asList(args), System.out, System.err));
  }

  /** The picocli command line of a command, its help laid out as cacheflow's. */
  static CommandLine commandLine(CliCommand command) {
    CommandLine line = new CommandLine(command);
    Map<String, String> texts = command.texts();
    if (!texts.isEmpty()) {
      line.setResourceBundle(new ListResourceBundle() {
        @Override
        protected Object[][] getContents() {
          return texts.entrySet().stream().map(e -> new Object[] {e.getKey(), e.getValue()}).toArray(Object[][]::new);
        }
      });
    }
    line.setUsageHelpWidth(HELP_WIDTH);
    line.setUsageHelpLongOptionsMaxWidth(28);
    line.setOverwrittenOptionsAllowed(false);
    if (command.passesArgumentsOn()) {
      line.setStopAtPositional(true);
      line.setUnmatchedOptionsArePositionalParams(true);
    }
    // the header is the command's line in the overview, not part of its help
    List<String> sections = new ArrayList<>(line.getHelpSectionKeys());
    sections.remove(CommandLine.Model.UsageMessageSpec.SECTION_KEY_HEADER_HEADING);
    sections.remove(CommandLine.Model.UsageMessageSpec.SECTION_KEY_HEADER);
    line.setHelpSectionKeys(sections);
    return line;
  }

  public int run(List<String> args, PrintStream out, PrintStream err) {
    if (args.isEmpty() || args.get(0).equals("--help") || args.get(0).equals("-h") || args.get(0).equals("help")) {
      if (args.size() > 1 && commands.containsKey(args.get(1))) {
        out.print(help(commands.get(args.get(1)).get()));
      } else {
        out.print(overview());
      }
      return args.isEmpty() ? USAGE : OK;
    }
    Supplier<CliCommand> factory = commands.get(args.get(0));
    if (factory == null) {
      err.println("error: unknown command '" + args.get(0) + "'");
      err.print(overview());
      return USAGE;
    }
    return run(factory.get(), args.subList(1, args.size()), out, err);
  }

  /**
   * Runs one command on its arguments: {@code --help} prints its help; parses, calls, and turns exceptions into
   * messages and exit codes.
   */
  public static int run(CliCommand command, List<String> rest, PrintStream out, PrintStream err) {
    String name = commandLine(command).getCommandSpec().name();
    if (rest.contains("--help") || rest.contains("-h")) {
      out.print(help(command));
      return OK;
    }
    try {
      CommandLine line = commandLine(command);
      line.parseArgs(rest.toArray(String[]::new));
      command.streams(out, err);
      return command.call();
    } catch (ParameterException e) {
      return usage(name, message(e), err);
    } catch (UsageException | OptionException e) {
      return usage(name, e.getMessage(), err);
    } catch (InputException e) {
      err.println("error: " + e.describe());
      return BAD_INPUT;
    } catch (Exception | StackOverflowError | OutOfMemoryError e) {
      err.println("internal error: " + e + " (please report it; set CACHEFLOW_DEBUG=1 for details)");
      if (System.getenv("CACHEFLOW_DEBUG") != null) {
        e.printStackTrace(err);
      }
      return INTERNAL;
    } finally {
      out.flush();
    }
  }

  private static int usage(String command, String message, PrintStream err) {
    err.println("error: " + message);
    err.println("run 'cacheflow " + command + " --help' for usage");
    return USAGE;
  }

  /** picocli's complaint in cacheflow's words: {@code unknown option --x}, {@code option --cores must be ...}. */
  private static String message(ParameterException e) {
    if (e instanceof UnmatchedArgumentException unmatched && !unmatched.getUnmatched().isEmpty()) {
      String first = unmatched.getUnmatched().get(0);
      return first.startsWith("-") ? "unknown option " + first.split("=", 2)[0] : "unexpected argument '" + first
          + "'";
    }
    ArgSpec spec = e.getArgSpec();
    if (e.getCause() instanceof TypeConversionException conversion && spec instanceof OptionSpec option) {
      return "option " + option.longestName() + " " + conversion.getMessage();
    }
    return e.getMessage();
  }

  /** A command's generated help. */
  static String help(CliCommand command) {
    CommandLine line = commandLine(command);
    line.setCommandName("cacheflow " + line.getCommandSpec().name());
    return line.getUsageMessage();
  }

  private String overview() {
    StringBuilder text = new StringBuilder();
    text.append("usage: cacheflow <command> [options]\n\n");
    text.append("Cache-aware C code generation for synchronous dataflow graphs (PREESM PiSDF and SDF3).\n\n");
    text.append("commands:\n");
    commands.forEach((name, command) -> text.append(String.format("  %-12s %s%n", name,
        String.join(" ", commandLine(command.get()).getCommandSpec().usageMessage().header()))));
    text.append("\nrun 'cacheflow <command> --help' for the options of a command.\n");
    text.append("exit status: 0 success, 1 bad input, 2 usage error, 3 internal error\n");
    return text.toString();
  }
}
