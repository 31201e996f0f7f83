package org.cacheflow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.cacheflow.cli.Examples.Run;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code plan} command as users run it: table, JSON, report, options, errors and exit codes. */
class PlanCommandTest {

  /** The bundled example, found from the bundle directory (tests run with it as working directory). */
  private static final Path EXAMPLE = Path.of("../../examples/filter-bank");

  @TempDir
  Path dir;

  static Run run(String... args) {
    return Examples.run(args);
  }

  /** The sum of {@code "key": N} over the part of the JSON before {@code "totals"}, and the total's value. */
  private static long[] rowsAndTotal(String json, String key) {
    int totals = json.indexOf("\"totals\": {");
    assertTrue(totals > 0, json);
    Matcher matcher = Pattern.compile("\"" + key + "\": (\\d+)").matcher(json);
    long rows = 0;
    long total = -1;
    while (matcher.find()) {
      if (matcher.start() < totals) {
        rows += Long.parseLong(matcher.group(1));
      } else if (total < 0) {
        total = Long.parseLong(matcher.group(1));
      }
    }
    return new long[] {rows, total};
  }

  @Test
  void tablePerFifoAndTotals() {
    Run run = run("plan", EXAMPLE.toString());
    assertEquals(0, run.status(), run.err());
    for (String end : new String[] {"Read.frame", "Blur.in", "Sharpen/Copy.toCombine", "Histogram.counts",
        "Bcast.toDisplay"}) {
      assertTrue(run.out().contains(end), end + " in\n" + run.out());
    }
    assertTrue(run.out().contains("producer") && run.out().contains("reason"), run.out());
    assertTrue(run.out().contains("bytes copied per iteration: baseline "), run.out());
    assertTrue(run.out().contains("buffer memory: this plan "), run.out());
  }

  @Test
  void jsonTotalsAreTheSumsOfTheRows() {
    Run run = run("plan", EXAMPLE.toString(), "--json");
    assertEquals(0, run.status(), run.err());
    for (String key : new String[] {"baselineBytesCopied", "planBytesCopied", "footprintBytes"}) {
      // per-buffer entries use other keys (bytesCopied...), except baselineBytesCopied: count rows only
      long[] sums = rowsAndTotal(run.out().replaceAll("(?s)\"buffers\": \\[.*?\\n      \\]", ""), key);
      assertEquals(sums[1], sums[0], key);
    }
    assertTrue(run.out().contains("\"targets\": ["), run.out());
    long[] copied = rowsAndTotal(run.out(), "planBytesCopied");
    long[] baseline = rowsAndTotal(run.out().replaceAll("(?s)\"buffers\": \\[.*?\\n      \\]", ""),
        "baselineBytesCopied");
    assertTrue(copied[1] < baseline[1], "auto copies less than the baseline");
  }

  @Test
  void baselineCopiesWhatPreesmCopies() {
    Run run = run("plan", EXAMPLE.toString(), "--json", "--strategy", "baseline");
    assertEquals(0, run.status(), run.err());
    String json = run.out().replaceAll("(?s)\"buffers\": \\[.*?\\n      \\]", "");
    assertEquals(rowsAndTotal(json, "baselineBytesCopied")[1], rowsAndTotal(json, "planBytesCopied")[1]);
    assertTrue(run.out().contains("\"strategy\": \"baseline\""));
  }

  /**
   * With --schedule hybrid, plan says which actors are variable and why: marked with --variable, or a cost spread
   * above the threshold; a spread below it leaves the actor steady; a spread that is not one is a usage error.
   */
  @Test
  void aHybridScheduleNamesItsVariableActorsAndWhy() {
    Run run = run("plan", EXAMPLE.toString(), "--schedule", "hybrid", "--variable", "Blur", "--cost-spread",
        "Histogram=0.75", "--cost-spread", "Read=0.2");
    assertEquals(0, run.status(), run.err());
    assertTrue(run.err().contains("note: schedule hybrid: the firings of Blur (marked with --variable), Histogram "
        + "(cost spread 0.75 above 0.30) and the copies"), run.err());
    assertFalse(run.err().contains("Read ("), run.err());
    // iterations in flight: 2 by default, slots=K as asked
    assertTrue(run.err().contains("up to 2 iterations overlap"), run.err());
    Run one = run("plan", EXAMPLE.toString(), "--schedule", "dynamic", "--override", "slots=1");
    assertEquals(0, one.status(), one.err());
    assertTrue(one.err().contains("one iteration runs at a time (slots=1)"), one.err());
    Run bad = run("plan", EXAMPLE.toString(), "--schedule", "hybrid", "--cost-spread", "Histogram");
    assertEquals(2, bad.status(), bad.err());
    assertTrue(bad.err().contains("--cost-spread: cost spread 'Histogram' is not ACTOR=CV"), bad.err());
  }

  @Test
  void coresPolicyAndTargetOptions() throws IOException {
    Path target = dir.resolve("board.target");
    Files.writeString(target, "base = zen4-vm\nname = board\nl2 = 256K\n");
    Run run = run("plan", EXAMPLE.toString(), "--json", "--cores", "3", "--policy", "locality", "--target",
        target.toString());
    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().contains("\"name\": \"Core2\""), "three cores");
    assertTrue(run.out().contains("\"policy\": \"locality\""));
    assertTrue(run.out().contains("\"name\": \"board\""));
    assertTrue(run.out().contains("\"l2Bytes\": 262144"));
  }

  /** --nodes N of --cores C each; cores numbered node by node; the text names each node's cores. */
  @Test
  void nodesOfCoresEach() throws IOException {
    Run run = run("plan", EXAMPLE.toString(), "--json", "--nodes", "2", "--cores", "2");
    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().contains("\"name\": \"Core3\""), "four cores");
    assertFalse(run.out().contains("\"name\": \"Core4\""), "four cores");
    Run text = run("plan", EXAMPLE.toString(), "--nodes", "2", "--cores", "1");
    assertEquals(0, text.status(), text.err());
    assertTrue(text.out().contains("on 2 nodes x 1 core"), text.out());
    assertTrue(text.out().contains("nodes: node 0 (Core0): "), text.out());
    assertTrue(text.out().contains("; node 1 (Core1): "), text.out());
    // the partition's figures as the JSON report gives them
    Matcher sent = Pattern.compile("sent between nodes per iteration: (\\d+) bytes \\(.*\\) in (\\d+) messages?: node")
        .matcher(text.out());
    assertTrue(sent.find(), text.out());
    Run json = run("plan", EXAMPLE.toString(), "--json", "--nodes", "2", "--cores", "1");
    assertTrue(json.out().contains("\"bytesSent\": " + sent.group(1) + ","), json.out());
    assertTrue(json.out().contains("\"messages\": " + sent.group(2) + ","), json.out());
    Matcher predicted = Pattern.compile("\"predictedTime\": (\\d+)").matcher(json.out());
    assertTrue(predicted.find(), json.out());
    assertTrue(text.out().contains("predicted time per iteration: " + predicted.group(1) + " time units"),
        text.out());
    // without --cores, each node has the architecture's cores (the example's S-LAM: one node of 2)
    Run perNode = run("plan", EXAMPLE.toString(), "--nodes", "2");
    assertEquals(0, perNode.status(), perNode.err());
    assertTrue(perNode.out().contains("nodes: node 0 (Core0, Core1): "), perNode.out());
    assertTrue(perNode.out().contains("; node 1 (Core2, Core3): "), perNode.out());
    Run single = run("plan", EXAMPLE.toString(), "--cores", "2");
    assertFalse(single.out().contains("sent between nodes"), "one node: " + single.out());
    // the network model in the scenario's time unit: nanoseconds, or the target's timing.ns (here microseconds)
    assertTrue(json.out().contains("\"latency\": 1000,"), json.out());
    Path micro = dir.resolve("micro.target");
    Files.writeString(micro, "base = zen4-vm\ntiming.ns = 1000\n");
    Run inMicro = run("plan", EXAMPLE.toString(), "--json", "--nodes", "2", "--cores", "1", "--target",
        micro.toString());
    assertTrue(inMicro.out().contains("\"latency\": 1,"), inMicro.out());
    Run zero = run("plan", EXAMPLE.toString(), "--nodes", "0");
    assertEquals(Main.USAGE, zero.status());
    assertTrue(zero.err().contains("option --nodes must be a positive integer, got '0'"), zero.err());
    assertTrue(run("plan", "--help").out().contains("--nodes N"));
  }

  /**
   * The multi-node S-LAM that docs/multinode.md shows (two nodes refined by the example's own S-LAM)
   * decides the nodes of plan and generate when no --nodes is given.
   */
  @Test
  void theDocumentedMultiNodeSlamDecidesTheNodes() throws IOException {
    Matcher xml = Pattern.compile("```xml\n(.*?)```", Pattern.DOTALL).matcher(Files.readString(
        Path.of("../../docs/multinode.md")));
    assertTrue(xml.find(), "docs/multinode.md shows an S-LAM");
    Path project = Examples.copy("filter-bank", dir);
    Files.writeString(project.resolve("Archi/Cluster2x2.slam"), xml.group(1));
    Path scenario = project.resolve("Scenarios/2core.scenario");
    Files.writeString(scenario, Files.readString(scenario).replace("Archi/2CoreX86.slam", "Archi/Cluster2x2.slam"));
    Run plan = run("plan", project.toString());
    assertEquals(0, plan.status(), plan.err());
    assertTrue(plan.out().contains("on 2 nodes x 2 cores"), plan.out());
    assertTrue(plan.out().contains("node 1 (Node1_Core0, Node1_Core1): "), plan.out());
    assertTrue(plan.err().contains("cores are named NODE_CORE (e.g. Node1_Core0)"), plan.err());
    Run json = run("plan", project.toString(), "--json");
    // the com node's 1.25 GB/s, in bytes per nanosecond
    assertTrue(json.out().contains("\"bytesPerTimeUnit\": 1.25"), json.out());
    Examples.useCheckoutRuntime();
    Run generate = run("generate", project.toString(), "--out", dir.resolve("out").toString(),
        "--synthetic-actors");
    assertEquals(0, generate.status(), generate.err());
    assertTrue(generate.out().contains("2 nodes x 2 cores, strategy auto"), generate.out());
    assertTrue(Files.readString(dir.resolve("out/CMakeLists.txt")).contains("find_package(MPI"), "an MPI program");
  }

  @Test
  void overridesApplyAndAreReported() {
    Run run = run("plan", EXAMPLE.toString(), "--json", "--override", "Sharpen/Copy.toCombine=ntm");
    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().contains("\"reason\": \"override 'Sharpen/Copy.toCombine=ntm'\""), run.out());
  }

  /**
   * The stereo example on 2 cores: Evaluate (pinned to Core0 with Generate) waits for Core1's chain at the end of
   * every iteration, so the planner runs it one iteration behind and says so; {@code pipelining=off} keeps every
   * firing in its iteration; another value is a usage error.
   */
  @Test
  void pipeliningIsNotedAndCanBeTurnedOff() {
    Path stereo = Path.of("../../examples/stereo");
    Run on = run("plan", stereo.toString(), "--cores", "2");
    assertEquals(Main.OK, on.status(), on.err());
    assertTrue(on.err().contains("note: pipelined the cores' loops: stereo/Evaluate_0 on Core0 runs one iteration"
        + " behind"), on.err());
    Run off = run("plan", stereo.toString(), "--cores", "2", "--override", "pipelining=off");
    assertEquals(Main.OK, off.status(), off.err());
    assertFalse(off.err().contains("pipelined"), off.err());
    Run bad = run("plan", stereo.toString(), "--cores", "2", "--override", "pipelining=sometimes");
    assertEquals(Main.USAGE, bad.status());
    assertTrue(bad.err().contains("--override pipelining=on|off, got 'sometimes'"), bad.err());
  }

  @Test
  void badOverridesAreUsageErrors() {
    Run unknown = run("plan", EXAMPLE.toString(), "--override", "Blurr.in=cow");
    assertEquals(Main.USAGE, unknown.status());
    assertTrue(unknown.err().contains("error: override 'Blurr.in=cow': no FIFO has an end 'Blurr.in'; did you mean "
        + "'Blur.in'?"), unknown.err());
    assertTrue(unknown.err().contains("run 'cacheflow plan --help' for usage"), unknown.err());

    Run small = run("plan", EXAMPLE.toString(), "--override", "Sharpen/Copy.toCombine=cow");
    assertEquals(Main.USAGE, small.status());
    assertTrue(small.err().contains("cow cannot apply to FIFO Sharpen/Copy.toCombine -> Sharpen/Combine.original: "
        + "copy-on-write works on whole pages of 4 KiB and it carries 3 KiB"), small.err());

    Run strategy = run("plan", EXAMPLE.toString(), "--override", "Blur.in=teleport");
    assertEquals(Main.USAGE, strategy.status());
    assertTrue(strategy.err().contains("unknown strategy 'teleport'"), strategy.err());

    Run global = run("plan", EXAMPLE.toString(), "--strategy", "fastest");
    assertEquals(Main.USAGE, global.status());
    assertTrue(global.err().contains("unknown strategy 'fastest' (known: baseline, preesm, cow, ntm, prestore, "
        + "homeforward, auto)"), global.err());
  }

  @Test
  void aBadTargetFileIsBadInputWithItsLocation() throws IOException {
    Path target = dir.resolve("bad.target");
    Files.writeString(target, "l1d = 32K\nl2 = lots\n");
    Run run = run("plan", EXAMPLE.toString(), "--target", target.toString());
    assertEquals(Main.BAD_INPUT, run.status());
    assertTrue(run.err().contains("bad.target:2:6: 'l2' expects a size"), run.err());
  }

  @Test
  void reportDirectory() throws IOException {
    Path report = dir.resolve("report");
    Run run = run("plan", EXAMPLE.toString(), "--report", report.toString());
    assertEquals(0, run.status(), run.err());
    for (String name : new String[] {"plan.json", "plan.md", "graph.dot", "graph.svg", "gantt.svg"}) {
      assertTrue(Files.size(report.resolve(name)) > 0, name);
    }
    assertTrue(run.err().contains("report written to"), run.err());
    assertTrue(Files.readString(report.resolve("plan.md")).contains("# Memory plan for `filter_bank`"));
  }

  /** A copy of the example whose scenario is changed by {@code edit}; returns the scenario file. */
  private Path editedExample(UnaryOperator<String> edit) throws IOException {
    Path copy = dir.resolve("filter-bank");
    try (Stream<Path> files = Files.walk(EXAMPLE)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        Path to = copy.resolve(EXAMPLE.relativize(file).toString());
        Files.createDirectories(to.getParent());
        Files.copy(file, to);
      }
    }
    Path scenario = copy.resolve("Scenarios/2core.scenario");
    Files.writeString(scenario, edit.apply(Files.readString(scenario)));
    return scenario;
  }

  @Test
  void anAbsentArchitectureIsAnErrorWithoutCoresAndAWarningWithThem() throws IOException {
    Path scenario = editedExample(text -> text.replace("Archi/2CoreX86.slam", "Archi/Missing.slam"));
    Run strict = run("plan", scenario.getParent().getParent().toString(), "--scenario", scenario.toString());
    assertEquals(1, strict.status(), strict.err());
    assertTrue(strict.err().contains("2core.scenario:9:") && strict.err().contains(
        "architecture file '/filter-bank/Archi/Missing.slam' does not exist"), strict.err());
    Run lenient = run("plan", scenario.getParent().getParent().toString(), "--scenario", scenario.toString(),
        "--cores", "2");
    assertEquals(0, lenient.status(), lenient.err());
    assertTrue(lenient.err().contains("warning: ") && lenient.err().contains("2core.scenario:9:")
        && lenient.err().contains("going on without an architecture"), lenient.err());
    assertTrue(lenient.out().contains("Core1"), lenient.out());
  }

  @Test
  void aParameterGivenSeveralValuesNeedsParam() throws IOException {
    Path scenario = editedExample(text -> text.replace("value=\"4\"", "value=\"[2, 4, 8]\""));
    Path project = scenario.getParent().getParent();
    Run unchosen = run("plan", project.toString(), "--scenario", scenario.toString());
    assertEquals(1, unchosen.status(), unchosen.err());
    assertTrue(unchosen.err().contains("2core.scenario:47:") && unchosen.err().contains(
        "choose it with --param nbSlices=VALUE (one of 2, 4, 8)"), unchosen.err());
    Run chosen = run("plan", project.toString(), "--scenario", scenario.toString(), "--param", "nbSlices=8");
    assertEquals(0, chosen.status(), chosen.err());
  }

  @Test
  void help() {
    Run run = run("plan", "--help");
    assertEquals(0, run.status());
    assertTrue(run.out().startsWith("usage: cacheflow plan"));
    assertTrue(run.out().contains("cow.readmostly.min"));
  }
}
