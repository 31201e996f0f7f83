package org.cacheflow.cli;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.cacheflow.model.diagnostics.InputException;

/**
 * {@code cacheflow <command> [options]}. Exit status: 0 success, 1 bad input ({@code error: FILE:LINE:COL:
 * message} on stderr), 2 usage error, 3 internal error (a bug: reported without a stack trace unless
 * {@code CACHEFLOW_DEBUG} is set).
 */
public final class Main {

  public static final int OK = 0;
  public static final int BAD_INPUT = 1;
  public static final int USAGE = 2;
  public static final int INTERNAL = 3;

  private final Map<String, Command> commands = new LinkedHashMap<>();

  public Main() {
    register(new InspectCommand());
    register(new BenchCommand());
    register(new ScriptsCommand());
    register(new PlanCommand());
    register(new GenerateCommand());
    register(new RunWorkflowCommand());
    register(new DemoCommand());
  }

  private void register(Command command) {
    commands.put(command.name(), command);
  }

  public static void main(String[] args) {
    System.exit(new Main().run(Arrays.asList(args), System.out, System.err));
  }

  public int run(List<String> args, PrintStream out, PrintStream err) {
    if (args.isEmpty() || args.get(0).equals("--help") || args.get(0).equals("-h") || args.get(0).equals("help")) {
      if (args.size() > 1 && commands.containsKey(args.get(1))) {
        out.print(commands.get(args.get(1)).help());
      } else {
        out.print(overview());
      }
      return args.isEmpty() ? USAGE : OK;
    }
    Command command = commands.get(args.get(0));
    if (command == null) {
      err.println("error: unknown command '" + args.get(0) + "'");
      err.print(overview());
      return USAGE;
    }
    List<String> rest = args.subList(1, args.size());
    if (rest.contains("--help") || rest.contains("-h")) {
      out.print(command.help());
      return OK;
    }
    try {
      return command.run(rest, out, err);
    } catch (UsageException e) {
      err.println("error: " + e.getMessage());
      err.println("run 'cacheflow " + command.name() + " --help' for usage");
      return USAGE;
    } catch (InputException e) {
      err.println("error: " + e.describe());
      return BAD_INPUT;
    } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
      err.println("internal error: " + e + " (please report it; set CACHEFLOW_DEBUG=1 for details)");
      if (System.getenv("CACHEFLOW_DEBUG") != null) {
        e.printStackTrace(err);
      }
      return INTERNAL;
    } finally {
      out.flush();
    }
  }

  private String overview() {
    StringBuilder text = new StringBuilder();
    text.append("usage: cacheflow <command> [options]\n\n");
    text.append("Cache-aware C code generation for synchronous dataflow graphs (PREESM PiSDF and SDF3).\n\n");
    text.append("commands:\n");
    for (Command command : commands.values()) {
      text.append(String.format("  %-12s %s%n", command.name(), command.summary()));
    }
    text.append("\nrun 'cacheflow <command> --help' for the options of a command.\n");
    text.append("exit status: 0 success, 1 bad input, 2 usage error, 3 internal error\n");
    return text.toString();
  }
}
