package org.cacheflow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.cacheflow.cli.Examples.Run;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cacheflow run-workflow} as users run it: generations, skipped tasks, errors with their lines. */
class RunWorkflowCommandTest {

  @TempDir
  Path temp;
  Path project;

  @BeforeAll
  static void runtimeFromTheCheckout() {
    Examples.useCheckoutRuntime();
  }

  @BeforeEach
  void copyExample() throws IOException {
    project = Examples.copy("filter-bank", temp);
  }

  private static Run run(String... args) {
    return Examples.run(args);
  }

  private void setVariable(String name, String value) throws IOException {
    Path workflow = project.resolve("Workflows/cacheflow.workflow");
    String text = Files.readString(workflow, StandardCharsets.UTF_8);
    String changed = text.replaceFirst("name=\"" + Pattern.quote(name) + "\" value=\"[^\"]*\"", Matcher
        .quoteReplacement("name=\"" + name + "\" value=\"" + value + "\""));
    assertFalse(changed.equals(text) && !text.contains("value=\"" + value + "\""), "no variable " + name);
    Files.writeString(workflow, changed, StandardCharsets.UTF_8);
  }

  /** The workflow with Cores set to {@code cores} and variables ({@code name, value, ...}) after it. */
  private Path addAfterCores(String cores, String... variables) throws IOException {
    Path workflow = project.resolve("Workflows/cacheflow.workflow");
    StringBuilder added = new StringBuilder("<dftools:variable name=\"Cores\" value=\"" + cores + "\"/>");
    for (int i = 0; i < variables.length; i += 2) {
      added.append("\n            <dftools:variable name=\"").append(variables[i]).append("\" value=\"")
          .append(variables[i + 1]).append("\"/>");
    }
    Files.writeString(workflow, Files.readString(workflow).replace("<dftools:variable name=\"Cores\" value=\"\"/>",
        added.toString()));
    return workflow;
  }

  private static int lineOf(Path file, String text) throws IOException {
    List<String> lines = Files.readAllLines(file);
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains(text)) {
        return i + 1;
      }
    }
    throw new AssertionError("no '" + text + "' in " + file);
  }

  @Test
  void theExampleGeneratesItsCiPairIntoTheScenariosCodegenDirectory() {
    Run run = run("run-workflow", project.toString());
    assertEquals(0, run.status(), run.err());
    Path generated = project.resolve("Code/generated");
    for (String file : List.of("CMakeLists.txt", "main.c", "core_0.c", "core_1.c", "synthetic_actors.c")) {
      assertTrue(Files.isRegularFile(generated.resolve(file)), file + " missing; " + run.out() + run.err());
    }
    assertTrue(run.out().contains("2 cores, strategy auto"), run.out());
    assertTrue(run.out().contains("task 'cacheflow'"), run.out());
  }

  @Test
  void theWorkflowsSettingsReachTheGenerator() throws IOException {
    setVariable("Cores", "1");
    Path out = temp.resolve("out");
    Run run = run("run-workflow", project.toString(), "-w", "cacheflow", "-s", "2core.scenario", "--out",
        out.toString(), "--strategy", "Baseline");
    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().contains("1 core, strategy baseline"), run.out());
    assertTrue(Files.isRegularFile(out.resolve("core_0.c")));
    assertFalse(Files.exists(out.resolve("core_1.c")), "one core asked for");
  }

  /** A Nodes variable beside Cores reaches generate; --nodes replaces it; a bad value is at its line. */
  @Test
  void theWorkflowsNodesReachTheGenerator() throws IOException {
    Path workflow = addAfterCores("1", "Nodes", "2");
    Path out = temp.resolve("out");
    Run run = run("run-workflow", project.toString(), "-w", "cacheflow", "-s", "2core.scenario", "--out",
        out.toString(), "--strategy", "Baseline");
    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().contains("2 nodes x 1 core, strategy baseline"), run.out());
    Run changed = run("run-workflow", project.toString(), "-w", "cacheflow", "-s", "2core.scenario", "--out",
        out.toString(), "--strategy", "Baseline", "--nodes", "1");
    assertEquals(0, changed.status(), changed.err());
    assertTrue(changed.out().contains("1 core, strategy baseline"), changed.out());
    setVariable("Nodes", "none");
    Run bad = run("run-workflow", project.toString());
    assertEquals(1, bad.status(), bad.err());
    assertTrue(bad.err().contains(".workflow:" + lineOf(workflow, "\"none\"") + ":"), bad.err());
    assertTrue(bad.err().contains("'Nodes' must be a positive integer, got 'none'"), bad.err());
  }

  /**
   * A setting the task's checks accept but the pipeline rejects (more cores than a generated program may have) is bad
   * input of the workflow, at its parameter's line and named as the task names it; the same value given as --cores is
   * a usage error of the command line. Nothing is generated either way.
   */
  @Test
  void aWorkflowsSettingThePipelineRejectsIsReportedAtItsLine() throws IOException {
    Path workflow = project.resolve("Workflows/cacheflow.workflow");
    setVariable("Cores", "99");
    Path out = temp.resolve("out");
    Run bad = run("run-workflow", project.toString(), "--out", out.toString());
    assertEquals(1, bad.status(), bad.err());
    assertTrue(bad.err().contains("error: " + workflow + ":" + lineOf(workflow, "\"99\"") + ":"), bad.err());
    assertTrue(bad.err().contains("'Cores' must be at most 64, got 99"), bad.err());
    assertFalse(bad.err().contains("--help"), "not a usage error: " + bad.err());
    assertFalse(Files.exists(out.resolve("main.c")), "nothing generated");
    setVariable("Cores", "2");
    Run flag = run("run-workflow", project.toString(), "--out", out.toString(), "--cores", "99");
    assertEquals(2, flag.status(), flag.err());
    assertTrue(flag.err().contains("error: --cores must be at most 64, got 99"), flag.err());
    assertTrue(flag.err().contains("run 'cacheflow run-workflow --help' for usage"), flag.err());
    assertFalse(Files.exists(out.resolve("main.c")), "nothing generated");
  }

  /**
   * The task's Profile is read from the project and reaches the generation; a missing one is reported at its line, a
   * file that is not a profile at its own line; the command line's --profile replaces it.
   */
  @Test
  void theProfileOfTheTaskOrTheCommandLineReachesTheGeneration() throws IOException {
    Path workflow = addAfterCores("", "Profile", "prof/profile.json");
    Path out = temp.resolve("out");
    Run missing = run("run-workflow", project.toString(), "--out", out.toString());
    assertEquals(1, missing.status(), missing.err());
    assertTrue(missing.err().contains(".workflow:" + lineOf(workflow, "prof/profile.json") + ":"), missing.err());
    assertTrue(missing.err().contains("'Profile': no such file: " + project.resolve("prof/profile.json")),
        missing.err());
    Path broken = Files.createDirectories(project.resolve("prof")).resolve("profile.json");
    Files.writeString(broken, "{\n  \"cacheflowProfile\": 1,\n  oops\n}\n");
    Run bad = run("run-workflow", project.toString(), "--out", out.toString());
    assertEquals(1, bad.status(), bad.err());
    assertTrue(bad.err().contains(broken + ":3:"), bad.err());
    assertTrue(bad.err().contains("not a profile written by cacheflow profile"), bad.err());
    Path good = Files.writeString(temp.resolve("measured.json"), """
        {"cacheflowProfile": 1, "graph": "filter_bank", "iterations": 1, "cores": 1, "buffers": [],
         "actors": [{"actor": "filter_bank/Blur", "firings": 4, "ports": [],
           "time": {"medianNs": 1200, "q1Ns": 1100, "q3Ns": 1300, "minNs": 1000, "maxNs": 1400, "cv": 0.1}}]}
        """);
    Run given = run("run-workflow", project.toString(), "--out", out.toString(), "--profile", good.toString());
    assertEquals(0, given.status(), given.err());
    assertTrue((given.out() + given.err()).contains("actor timings: the profile's medians, in ns"), given.err());
    assertTrue(Files.exists(out.resolve("main.c")), "generated");
  }

  /**
   * The task's Schedule, Variable actors and Cost spread reach the generation as generate's --schedule, --variable
   * and --cost-spread do: a hybrid program pools Blur (marked) and Histogram (its spread); the command line's options
   * replace them; a name the graph lacks is reported at its line.
   */
  @Test
  void theScheduleOfTheTaskOrTheCommandLineReachesTheGeneration() throws IOException {
    Path workflow = addAfterCores("", "Schedule", "hybrid", "Variable actors", "Blur", "Cost spread",
        "Histogram=0.8; Read=0.1");
    Path out = temp.resolve("out");
    Run run = run("run-workflow", project.toString(), "-w", "cacheflow", "-s", "2core.scenario", "--out",
        out.toString());
    assertEquals(0, run.status(), run.err());
    String core = Files.readString(out.resolve("core_0.c"));
    assertTrue(core.contains("cf_sched_graph graph"), "a dispatched program");
    assertEquals(List.of("Blur", "Histogram"), pooledActors(core));
    Run changed = run("run-workflow", project.toString(), "-w", "cacheflow", "-s", "2core.scenario", "--out",
        out.toString(), "--variable", "Display", "--cost-spread", "Histogram=0.2");
    assertEquals(0, changed.status(), changed.err());
    assertEquals(List.of("Display"), pooledActors(Files.readString(out.resolve("core_0.c"))));
    Run statically = run("run-workflow", project.toString(), "-w", "cacheflow", "-s", "2core.scenario", "--out",
        out.toString(), "--schedule", "static");
    assertEquals(0, statically.status(), statically.err());
    assertFalse(Files.readString(out.resolve("core_0.c")).contains("cf_sched"), "--schedule static replaces hybrid");
    setVariable("Variable actors", "Blurr");
    Run bad = run("run-workflow", project.toString(), "-w", "cacheflow", "-s", "2core.scenario", "--out",
        out.toString());
    assertEquals(1, bad.status(), bad.err());
    assertTrue(bad.err().contains(".workflow:" + lineOf(workflow, "\"Blurr\"") + ":"), bad.err());
    assertTrue(bad.err().contains("'Variable actors' Blurr: the graph has no actor of that name"), bad.err());
    setVariable("Variable actors", "Blur");
    setVariable("Cost spread", "Histogram=much");
    Run spread = run("run-workflow", project.toString());
    assertEquals(1, spread.status(), spread.err());
    assertTrue(spread.err().contains(".workflow:" + lineOf(workflow, "\"Histogram=much\"") + ":"), spread.err());
    Run usage = run("run-workflow", project.toString(), "--schedule", "random");
    assertEquals(2, usage.status(), usage.err());
    assertTrue(usage.err().contains("unknown schedule 'random'"), usage.err());
  }

  /** The actors (of Read, Blur, Histogram, Display) whose firings a generated dispatched program pools. */
  /**
   * A profile's cost spreads choose a hybrid schedule's pooled actors as --cost-spread does (Histogram's 0.8 pools
   * it, Blur's 0.1 does not), under what the user names: --cost-spread Histogram=0.1 keeps it static.
   */
  @Test
  void aProfilesCostSpreadsPoolTheActorsOfAHybridSchedule() throws IOException {
    Path profile = Files.writeString(temp.resolve("spread.json"), """
        {"cacheflowProfile": 1, "graph": "filter_bank", "iterations": 4, "cores": 1, "buffers": [],
         "actors": [{"actor": "filter_bank/Blur", "firings": 4, "ports": [],
           "time": {"medianNs": 1200, "q1Ns": 1100, "q3Ns": 1300, "minNs": 1000, "maxNs": 1400, "cv": 0.1}},
          {"actor": "filter_bank/Histogram", "firings": 4, "ports": [],
           "time": {"medianNs": 900, "q1Ns": 300, "q3Ns": 2000, "minNs": 200, "maxNs": 4000, "cv": 0.8}}]}
        """);
    Path out = temp.resolve("out");
    Run measured = run("run-workflow", project.toString(), "-s", "2core.scenario", "--out", out.toString(),
        "--schedule", "hybrid", "--profile", profile.toString());
    assertEquals(0, measured.status(), measured.err());
    assertTrue(measured.err().contains("cost spreads measured by profile spread.json"), measured.err());
    assertTrue(measured.err().contains("filter_bank/Histogram (cost spread 0.80 above 0.30)"), measured.err());
    assertEquals(List.of("Histogram"), pooledActors(Files.readString(out.resolve("core_0.c"))));
    Run overruled = run("run-workflow", project.toString(), "-s", "2core.scenario", "--out", out.toString(),
        "--schedule", "hybrid", "--profile", profile.toString(), "--cost-spread", "Histogram=0.1",
        "--variable", "Blur");
    assertEquals(0, overruled.status(), overruled.err());
    assertEquals(List.of("Blur"), pooledActors(Files.readString(out.resolve("core_0.c"))));
  }

  private static List<String> pooledActors(String core) {
    // a firing's comment names its steps, a chain's joined by " + " (copy + Blur_0 + copy)
    Map<String, List<String>> labels = new HashMap<>();
    Pattern.compile("/\\* ([^*]+) \\*/\\s*static void cf_firing_(\\d+)\\(").matcher(core).results()
        .forEach(m -> labels.put(m.group(2), List.of(m.group(1).split(" \\+ ")).stream()
            .map(step -> step.replaceFirst("_[0-9]+$", "")).toList()));
    List<String> actors = List.of("Read", "Blur", "Histogram", "Display");
    return Pattern.compile("\\{cf_firing_(\\d+), [^}]*CF_SCHED_VARIABLE\\}").matcher(core).results()
        .flatMap(m -> labels.get(m.group(1)).stream()).filter(actors::contains).distinct()
        .sorted(Comparator.comparing(actors::indexOf)).toList();
  }

  /** How many SelectDisparity firings each core of a generated stereo project calls. */
  private static int[] selectDisparityCalls(Path out) throws IOException {
    int[] calls = new int[2];
    for (int core = 0; core < 2; core++) {
      calls[core] = (int) Pattern.compile("/\\* DisparityCosts/SelectDisparity_\\d+ \\(")
          .matcher(Files.readString(out.resolve("core_" + core + ".c"))).results().count();
    }
    assertEquals(32, calls[0] + calls[1], "every SelectDisparity firing called once");
    return calls;
  }

  /**
   * The task's Mapping policy and --policy reach the generation as in generate (see GenerateCommandTest):
   * locality keeps stereo's SelectDisparity chain on one core, load spreads it; --policy replaces the task's; a bad
   * value is reported at its line, a bad --policy is a usage error.
   */
  @Test
  void theMappingPolicyOfTheTaskOrTheCommandLineReachesTheGeneration() throws IOException {
    Path stereo = Examples.copy("stereo", temp);
    Path workflow = stereo.resolve("Workflows/cacheflow.workflow");
    Files.createDirectories(workflow.getParent());
    Files.writeString(workflow, Files.readString(project.resolve("Workflows/cacheflow.workflow")).replace(
        "<dftools:variable name=\"Cores\" value=\"\"/>", "<dftools:variable name=\"Cores\" value=\"2\"/>\n"
            + "            <dftools:variable name=\"Mapping policy\" value=\"load\"/>"));
    Run locality = run("run-workflow", stereo.toString(), "-s", "2core", "--out", temp.resolve("locality").toString(),
        "--policy", "locality");
    assertEquals(0, locality.status(), locality.err());
    int[] calls = selectDisparityCalls(temp.resolve("locality"));
    assertTrue(calls[0] == 0 || calls[1] == 0, "locality: on one core");

    Files.writeString(workflow, Files.readString(workflow).replace("value=\"load\"", "value=\"Locality\""));
    Run task = run("run-workflow", stereo.toString(), "-s", "2core", "--out", temp.resolve("task").toString());
    assertEquals(0, task.status(), task.err());
    calls = selectDisparityCalls(temp.resolve("task"));
    assertTrue(calls[0] == 0 || calls[1] == 0, "the task's locality: on one core");
    Run load = run("run-workflow", stereo.toString(), "-s", "2core", "--out", temp.resolve("load").toString(),
        "--policy", "load");
    assertEquals(0, load.status(), load.err());
    calls = selectDisparityCalls(temp.resolve("load"));
    assertTrue(calls[0] > 0 && calls[1] > 0, "--policy load replaces the task's: on both cores");

    Run usage = run("run-workflow", stereo.toString(), "--policy", "nearest");
    assertEquals(2, usage.status(), usage.err());
    assertTrue(usage.err().contains("unknown mapping policy 'nearest' (known: load, locality)"), usage.err());
    Files.writeString(workflow, Files.readString(workflow).replace("value=\"Locality\"", "value=\"nearest\""));
    Run bad = run("run-workflow", stereo.toString(), "-s", "2core", "--out", temp.resolve("bad").toString());
    assertEquals(1, bad.status(), bad.err());
    assertTrue(bad.err().startsWith("error: " + workflow.toAbsolutePath().normalize() + ":" + lineOf(workflow,
        "nearest") + ":"), bad.err());
    assertTrue(bad.err().contains("'nearest' is not a value of 'Mapping policy'; expected load or locality"),
        bad.err());
    assertFalse(Files.exists(temp.resolve("bad")));
  }

  @Test
  void anUnknownValueIsReportedAtItsLineAndNothingIsGenerated() throws IOException {
    setVariable("Memory strategy", "Fastest");
    Path workflow = project.resolve("Workflows/cacheflow.workflow");
    Run run = run("run-workflow", project.toString());
    assertEquals(1, run.status(), run.err());
    String expected = "error: " + workflow.toAbsolutePath().normalize() + ":" + lineOf(workflow, "Fastest") + ":";
    assertTrue(run.err().startsWith(expected), run.err());
    assertTrue(run.err().contains("'Fastest' is not a value of 'Memory strategy'; expected Baseline, Preesm, "
        + "CopyOnWrite, NonTemporal, PreStore, HomeForward or Auto"), run.err());
    assertFalse(Files.exists(project.resolve("Code/generated")));
  }

  @Test
  void anUnknownVariableIsReportedAtItsLine() throws IOException {
    Path workflow = project.resolve("Workflows/cacheflow.workflow");
    Files.writeString(workflow, Files.readString(workflow).replace("name=\"Cores\"", "name=\"Core count\""));
    Run run = run("run-workflow", project.toString(), "-w", "cacheflow.workflow", "-s", "2core");
    assertEquals(1, run.status(), run.err());
    assertTrue(run.err().contains(".workflow:" + lineOf(workflow, "Core count") + ":"), run.err());
    assertTrue(run.err().contains("unknown variable 'Core count' of cacheflow task 'cacheflow'; did you mean "
        + "'Cores'?"), run.err());
  }

  @Test
  void aPreesmWorkflowRunsWithItsOtherTasksReportedOnce() throws IOException {
    Path workflow = project.resolve("Workflows/preesm.workflow");
    Files.writeString(workflow, """
        <?xml version="1.0" encoding="UTF-8"?>
        <dftools:workflow xmlns:dftools="http://net.sf.dftools">
            <dftools:scenario pluginId="org.ietr.preesm.scenario.task"/>
            <dftools:task pluginId="pisdf-mapper.list" taskId="Scheduling">
                <dftools:data key="variables"/>
            </dftools:task>
            <dftools:task pluginId="org.ietr.preesm.codegen.xtend.task.CodegenTask" taskId="Code Generation">
                <dftools:data key="variables"><dftools:variable name="Printer" value="C"/></dftools:data>
            </dftools:task>
        </dftools:workflow>
        """);
    Files.copy(project.resolve("Scenarios/2core.scenario"), project.resolve("Scenarios/again.scenario"));
    Files.delete(project.resolve(".ci.yaml"));
    Run run = run("run-workflow", project.toString(), "-w", "preesm", "--out", temp.resolve("out").toString(),
        "--synthetic-actors");
    assertEquals(0, run.status(), run.err());
    assertEquals(1, count(run.err(), "task 'Scheduling' (pisdf-mapper.list) is not needed by cacheflow"), run.err());
    assertEquals(1, count(run.err(), "runs as cacheflow code generation with default settings"), run.err());
    assertEquals(2, count(run.out(), "generated "), run.out());
    assertTrue(Files.isRegularFile(temp.resolve("out/preesm-again/main.c")));
    assertTrue(Files.isRegularFile(temp.resolve("out/preesm-2core/main.c")));
  }

  @Test
  void corpusCiPairsRunWithEveryOtherTaskSkipped() throws IOException {
    String corpus = System.getProperty("cacheflow.corpus");
    Path app = corpus == null ? null : Path.of(corpus, "preesm-apps", "org.ietr.preesm.sobel-morpho");
    assumeTrue(app != null && Files.isDirectory(app), "test corpus not found; skipping");
    Run run = run("run-workflow", app.toString(), "--out", temp.resolve("sobel").toString(), "--synthetic-actors");
    assertEquals(0, run.status(), run.err());
    // .ci.yaml: Codegen.workflow on 1core, 4core and 8coreC6678
    assertEquals(3, count(run.out(), "generated "), run.out());
    assertEquals(1, count(run.err(), "task 'Scheduling' (pisdf-mapper.list) is not needed by cacheflow"), run.err());
    assertTrue(Files.isRegularFile(temp.resolve("sobel/Codegen-4core/core_3.c")), run.out());
  }

  @Test
  void usageErrors() {
    assertEquals(2, run("run-workflow").status());
    Run badStrategy = run("run-workflow", project.toString(), "--strategy", "fastest");
    assertEquals(2, badStrategy.status());
    assertTrue(badStrategy.err().contains("unknown strategy 'fastest'"), badStrategy.err());
    assertEquals(1, run("run-workflow", project.toString(), "-w", "absent").status());
    assertTrue(run("--help").out().contains("run-workflow"));
    assertTrue(run("run-workflow", "--help").out().contains(".ci.yaml"));
  }

  @Test
  void strategyNamesOfBothVocabulariesAreAccepted() {
    assertEquals(RunWorkflowCommand.strategy("CopyOnWrite"), RunWorkflowCommand.strategy("cow"));
    assertEquals(RunWorkflowCommand.strategy("homeforward"), RunWorkflowCommand.strategy("HomeForward"));
  }

  private static int count(String text, String part) {
    int count = 0;
    for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
      count++;
    }
    return count;
  }
}
