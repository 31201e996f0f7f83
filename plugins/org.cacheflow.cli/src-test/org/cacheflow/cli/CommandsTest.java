package org.cacheflow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.cacheflow.cli.Examples.Run;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine.Model.OptionSpec;

/** What the commands share: each option listed once in their help, shared texts alike, progress for long work. */
class CommandsTest {

  /** Every command of this bundle, by name. */
  private static final Map<String, CliCommand> COMMANDS = Map.of("inspect", new InspectCommand(), "scripts",
      new ScriptsCommand(), "plan", new PlanCommand(), "generate", new GenerateCommand(), "run-workflow",
      new RunWorkflowCommand(), "check", new CheckCommand());

  @TempDir
  Path temp;

  @BeforeAll
  static void runtimeFromTheCheckout() {
    Examples.useCheckoutRuntime();
  }

  /** How many option lines of {@code help} start with {@code name} (as {@code -x, --name} or {@code --name}). */
  private static int listed(String help, String name) {
    return (int) Pattern.compile("(?m)^  (?:-\\w, |    )" + Pattern.quote(name) + "(?= |$)").matcher(help).results()
        .count();
  }

  @Test
  void everyCommandsHelpListsEachOfItsOptionsOnce() {
    COMMANDS.forEach((name, command) -> {
      Run run = Examples.run(name, "--help");
      assertEquals(Main.OK, run.status(), name);
      for (OptionSpec option : Main.commandLine(command).getCommandSpec().options()) {
        assertEquals(1, listed(run.out(), option.longestName()), name + " " + option.longestName() + ":\n" + run.out());
      }
    });
    // the shared options: the actors' code (one mixin) in generate and run-workflow, --policy in plan too
    for (String name : List.of("generate", "run-workflow")) {
      String help = Examples.run(name, "--help").out();
      for (String option : List.of("--sources", "--include", "--define", "--link", "--policy")) {
        assertEquals(1, listed(help, option), name + " " + option + ":\n" + help);
      }
      // the column of descriptions moves with the longest option label
      assertTrue(help.replaceAll(" {2,}", "  ").contains("--define NAME=VALUE  compile definition (NAME alone: "
          + "defined as 1); repeatable."), help);
    }
    assertEquals(1, listed(Examples.run("plan", "--help").out(), "--policy"));
  }

  /** run-workflow's actor options replace the tasks' settings, and its help says so; its --policy is the tasks'. */
  @Test
  void runWorkflowsHelpSaysItsOptionsReplaceTheTasks() {
    String help = Examples.run("run-workflow", "--help").out().replaceAll("\\s+", " ");
    assertTrue(help.contains("--include, --define and --link replace the whole list of Include directories, "
        + "Compile definitions or Libraries"), help);
    assertTrue(help.contains("--policy P mapping policy for every task (the tasks' Mapping policy): load, locality"),
        help);
    assertTrue(Examples.run("generate", "--help").out().replaceAll("\\s+", " ").contains("--policy P load (default)"));
  }

  /**
   * The whole-program overrides (slots=K, pipelining=on|off) are described in one place, and every command that
   * takes --override says the same, once.
   */
  @Test
  void overrideSettingsReadTheSameInEveryCommandThatTakesThem() {
    for (String name : List.of("plan", "generate", "run-workflow")) {
      String help = Examples.run(name, "--help").out().replaceAll("\\s+", "");
      assertTrue(help.contains(CliCommand.OVERRIDE_SETTINGS.replaceAll("\\s+", "")), name + ": " + help);
      for (String setting : List.of("slots=K", "pipelining=on|off")) {
        assertEquals(1, help.split(Pattern.quote(setting), -1).length - 1, name + ": " + setting);
      }
    }
  }

  /** Every command that reads and expands a graph shows what it is doing (forced on, as on a terminal). */
  @Test
  void longCommandsShowProgress() {
    String previous = System.getProperty("cacheflow.progress");
    System.setProperty("cacheflow.progress", "1");
    try {
      Map<String, List<String>> runs = Map.of(
          "scripts", List.of("scripts", "../../examples/stereo"),
          "plan", List.of("plan", "../../examples/filter-bank"),
          "inspect", List.of("inspect", "../../examples/filter-bank"),
          "generate", List.of("generate", "../../examples/filter-bank", "--synthetic-actors", "--out",
              temp.resolve("generated").toString()));
      runs.forEach((name, args) -> {
        Run run = Examples.run(args.toArray(String[]::new));
        assertEquals(Main.OK, run.status(), name + ": " + run.err());
        assertTrue(run.err().contains("\r\033[Kcacheflow: "), name + " shows no progress: " + run.err());
        int last = run.err().lastIndexOf("\r\033[Kcacheflow: ");
        assertTrue(run.err().indexOf("\r\033[K", last + 1) > 0, name + " leaves its progress line: " + run.err());
      });
      assertTrue(Examples.run("scripts", "../../examples/stereo").err().contains("cacheflow: evaluating the memory "
          + "scripts of stereo"));
    } finally {
      if (previous == null) {
        System.clearProperty("cacheflow.progress");
      } else {
        System.setProperty("cacheflow.progress", previous);
      }
    }
  }
}
