package org.cacheflow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

import org.cacheflow.cli.Examples.Run;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The {@code generate} command as users run it: what it writes, exit codes and messages. */
@ExtendWith(RepositoryRuntime.class)
class GenerateCommandTest {

  private static final Path EXAMPLE = Path.of("../../examples/filter-bank");
  private static final String SDF3 = """
      <?xml version="1.0"?>
      <sdf3 type="sdf" version="1.0">
        <applicationGraph>
          <sdf name="pair" type="G">
            <actor name="a" type="A"><port name="out" type="out" rate="2"/></actor>
            <actor name="b" type="B"><port name="in" type="in" rate="1"/></actor>
            <channel name="c" srcActor="a" srcPort="out" dstActor="b" dstPort="in"/>
          </sdf>
        </applicationGraph>
      </sdf3>
      """;

  @TempDir
  Path dir;

  @Test
  void writesACMakeProjectForTheExample() {
    Path out = dir.resolve("fb");
    Run run = InspectCommandTest.run("generate", EXAMPLE.toString(), "--out", out.toString(), "--cores", "2",
        "--strategy", "baseline", "--synthetic-actors");
    assertEquals(Main.OK, run.status(), run.err());
    assertTrue(run.out().contains("2 cores, strategy baseline"), run.out());
    for (String file : new String[] {"CMakeLists.txt", "graph.h", "main.c", "core_0.c", "core_1.c",
        "synthetic_actors.c", "cacheflow-runtime/CMakeLists.txt"}) {
      assertTrue(Files.isRegularFile(out.resolve(file)), file);
    }
  }

  /**
   * With the actors' times in nanoseconds, a graph too fine-grained for two cores is generated on one,
   * and generate says so (the planner's note, bench/home-forwarding's farm at 32x32 with sub-microsecond firings).
   */
  @Test
  void aGraphTwoCoresCannotSpeedUpIsGeneratedOnOneAndTheNoteSaysWhy() throws IOException {
    Path scenario = dir.resolve("farm.scenario");
    Files.writeString(scenario, """
        <?xml version="1.0" encoding="UTF-8"?>
        <scenario>
            <files><algorithm url="/home-forwarding/Algo/farm.pi"/></files>
            <timings excelUrl="">
                <timing opname="x86" time="240" vertexname="farm/Emitter"/>
                <timing opname="x86" time="580" vertexname="farm/Worker"/>
                <timing opname="x86" time="430" vertexname="farm/Collector"/>
            </timings>
        </scenario>
        """);
    Path out = dir.resolve("farm");
    Run run = InspectCommandTest.run("generate", "../../bench/home-forwarding/Algo/farm.pi", "--scenario",
        scenario.toString(), "--target", "../../bench/home-forwarding/ns.target", "--out", out.toString(), "--cores",
        "2", "--strategy", "homeforward", "--synthetic-actors");
    assertEquals(Main.OK, run.status(), run.err());
    assertTrue(run.out().contains("1 core (the planner's choice, 2 cores asked), strategy homeforward"), run.out());
    assertTrue(run.err().contains("note: mapped to 1 core instead of 2: one iteration's work is 2.99 us"), run.err());
    // core 1 runs two workers and the collector: 2 x 580 + 430 = 1590 ns of work, 3 flag events at 400 ns, and
    // 256 lines (the two 4 KiB tasks it pulls, the two results of core 0's workers the collector pulls) at 0.5 ns,
    // as the farm's 16 KiB groups get 64 slots that span the 1 MiB L2: 2918 ns against 2990, within the 5% margin
    assertTrue(run.err().contains("core 1 alone would take 2.92 us (1.59 us of work, 3 hand-offs at 400 ns, and "
        + "0 cache lines pulled from or taken back by another core at 3.00 ns, 256 more in merge groups whose slots "
        + "span the L2 at 0.500 ns): only 1.03x faster than one core"), run.err());
    assertTrue(Files.isRegularFile(out.resolve("core_0.c")));
    assertFalse(Files.exists(out.resolve("core_1.c")), "one core");
  }

  /**
   * generate maps as plan does: {@code --policy locality} keeps stereo's SelectDisparity state chain (1.5 MiB passed
   * from firing to firing) on one core, where the load mapping alternates it between the two; a bad name is a usage
   * error.
   */
  @Test
  void thePolicyChoosesTheMappingAsInPlan() throws IOException {
    int[][] calls = new int[2][];
    String[] policies = {"load", "locality"};
    for (int p = 0; p < 2; p++) {
      Path out = dir.resolve(policies[p]);
      Run run = InspectCommandTest.run("generate", "../../examples/stereo", "--out", out.toString(), "--cores", "2",
          "--policy", policies[p], "--synthetic-actors");
      assertEquals(Main.OK, run.status(), run.err());
      // the summary names a mapping other than the default
      assertEquals(p == 1, run.out().contains("2 cores, locality mapping, strategy auto"), run.out());
      calls[p] = new int[2];
      for (int core = 0; core < 2; core++) {
        String code = Files.readString(out.resolve("core_" + core + ".c"));
        calls[p][core] = (int) Pattern.compile("/\\* DisparityCosts/SelectDisparity_\\d+ \\(")
            .matcher(code).results().count();
      }
      assertEquals(32, calls[p][0] + calls[p][1], policies[p] + ": every SelectDisparity firing called once");
    }
    assertTrue(calls[0][0] > 0 && calls[0][1] > 0, "load: on both cores");
    assertTrue(calls[1][0] == 0 || calls[1][1] == 0, "locality: on one core");
    Run bad = InspectCommandTest.run("generate", "../../examples/stereo", "--out", dir.resolve("bad").toString(),
        "--policy", "nearest");
    assertEquals(Main.USAGE, bad.status());
    assertTrue(bad.err().contains("unknown mapping policy 'nearest' (known: load, locality)"), bad.err());
  }

  @Test
  void realActorsNeedPrototypes() throws IOException {
    Path graph = dir.resolve("pair.xml");
    Files.writeString(graph, SDF3);
    Run run = InspectCommandTest.run("generate", graph.toString(), "--out", dir.resolve("out").toString());
    assertEquals(Main.BAD_INPUT, run.status(), run.err());
    assertTrue(run.err().contains("pair.xml:") && run.err().contains("actor 'a' has no loop prototype")
        && run.err().contains("--synthetic-actors"), run.err());
    assertEquals(Main.OK, InspectCommandTest.run("generate", graph.toString(), "--out", dir.resolve("out").toString(),
        "--synthetic-actors").status());
  }

  /** Real actors without sources would stop the configuration; generate says so at once. */
  @Test
  void realActorsWithoutSourcesAreWarnedAbout() throws IOException {
    Path out = dir.resolve("real");
    Run run = InspectCommandTest.run("generate", EXAMPLE.toString(), "--out", out.toString());
    assertEquals(Main.OK, run.status(), run.err());
    assertTrue(run.err().contains("warning: no actor sources (no --sources, and no Code/src in a project)"),
        run.err());
    // the example's Code/include is searched all the same, and PROJECT_ROOT_PATH names its Code/ folder
    String cmake = Files.readString(out.resolve("CMakeLists.txt"));
    assertTrue(cmake.contains("set(CACHEFLOW_ACTOR_INCLUDES \"" + org.cacheflow.pipeline.PathText.relative(out,
        EXAMPLE.resolve("Code/include")) + "\""), cmake);
    assertTrue(cmake.contains("set(CACHEFLOW_PROJECT_ROOT_PATH \"" + org.cacheflow.pipeline.PathText.relative(out,
        EXAMPLE.resolve("Code")) + "\""), cmake);
  }

  @Test
  void aFailedGenerationLeavesThePreviousOutput() throws IOException {
    Path out = Files.createDirectories(dir.resolve("out"));
    Files.writeString(out.resolve("keep.txt"), "previous");
    System.setProperty(GenerateCommand.RUNTIME_PROPERTY, dir.resolve("missing-runtime").toString());
    Run run = InspectCommandTest.run("generate", EXAMPLE.toString(), "--out", out.toString(), "--synthetic-actors");
    assertEquals(Main.BAD_INPUT, run.status());
    assertTrue(run.err().contains("the C runtime was not found"), run.err());
    assertEquals("previous", Files.readString(out.resolve("keep.txt")));
  }

  @Test
  void commandLineMistakesAreUsageErrors() {
    Run noOut = InspectCommandTest.run("generate", EXAMPLE.toString());
    assertEquals(Main.USAGE, noOut.status());
    assertTrue(noOut.err().contains("missing --out DIR"), noOut.err());
    Run strategy = InspectCommandTest.run("generate", EXAMPLE.toString(), "--out", dir.toString(), "--strategy",
        "fast");
    assertEquals(Main.USAGE, strategy.status());
    assertTrue(strategy.err().contains("unknown strategy 'fast'; known: baseline"), strategy.err());
    Run override = InspectCommandTest.run("generate", EXAMPLE.toString(), "--out", dir.toString(), "--override",
        "slots=0");
    assertEquals(Main.USAGE, override.status());
    assertTrue(override.err().contains("slots=K needs a positive integer"), override.err());
    Run inFlight = InspectCommandTest.run("generate", EXAMPLE.toString(), "--out", dir.toString(), "--schedule",
        "dynamic", "--override", "slots=2000000");
    assertEquals(Main.USAGE, inFlight.status());
    assertTrue(inFlight.err().contains("slots=2000000: a dispatched schedule runs at most 1048576 iterations"),
        inFlight.err());
    Run cores = InspectCommandTest.run("generate", EXAMPLE.toString(), "--out", dir.toString(), "--cores", "65");
    assertEquals(Main.USAGE, cores.status());
    assertTrue(cores.err().contains("--cores must be at most 64, got 65"), cores.err());
    // the interim planner is gone: the memory plan is the only one
    Run planner = InspectCommandTest.run("generate", EXAMPLE.toString(), "--out", dir.toString(), "--planner",
        "interim");
    assertEquals(Main.USAGE, planner.status());
    assertTrue(planner.err().contains("unknown option --planner"), planner.err());
  }

  /**
   * A dispatched schedule plans on one core: per-FIFO overrides that hold on any core reach that plan (one the plan
   * cannot apply is its error), those needing fixed cores are left out with a warning naming them, and the
   * scenario's constraints are read for the cores it was written for, with a note that they are not followed.
   */
  @Test
  void aDispatchedScheduleSaysWhatItLeavesOutOfTheOverridesAndConstraints() {
    Path stereo = Path.of("../../examples/stereo");
    Run dropped = InspectCommandTest.run("generate", stereo.toString(), "--out", dir.resolve("cow").toString(),
        "--schedule", "dynamic", "--override", "Generate.truth=cow", "--synthetic-actors");
    assertEquals(Main.OK, dropped.status(), dropped.err());
    assertTrue(dropped.err().contains("warning: --override Generate.truth=cow: left out, since a firing of "
        + "--schedule dynamic may run on any core"), dropped.err());
    assertTrue(dropped.err().contains("note: schedule dynamic runs any firing on any core: the scenario's mapping "
        + "constraints, which restrict 2 actors (stereo/Generate, stereo/Evaluate)"), dropped.err());
    assertFalse(dropped.err().contains("which the platform"), dropped.err());
    Run kept = InspectCommandTest.run("generate", stereo.toString(), "--out", dir.resolve("memcpy").toString(),
        "--schedule", "hybrid", "--override", "Generate.truth=memcpy", "--synthetic-actors");
    assertEquals(Main.USAGE, kept.status(), kept.err());
    assertTrue(kept.err().contains("override 'Generate.truth=memcpy': memcpy cannot apply to FIFO Generate.truth"),
        kept.err());
  }

  /** --nodes N with --cores C is N nodes of C cores, at most 64 cores in all; bad counts are usage errors. */
  @Test
  void nodesAndCoresPerNode() {
    Path out = dir.resolve("fb");
    Run run = InspectCommandTest.run("generate", EXAMPLE.toString(), "--out", out.toString(), "--nodes", "2",
        "--cores", "1", "--strategy", "baseline", "--synthetic-actors");
    assertEquals(Main.OK, run.status(), run.err());
    assertTrue(run.out().contains("2 nodes x 1 core, strategy baseline"), run.out());
    assertTrue(run.out().contains(" sent between nodes per iteration"), run.out());
    assertTrue(Files.isRegularFile(out.resolve("cacheflow_mpi.c")), "an MPI program");
    assertTrue(run.out().contains("&& mpirun -np 2 "), run.out());
    assertTrue(run.err().contains("note: one process per node: run the program under mpirun -np 2"), run.err());
    for (String[] bad : new String[][] {{"--nodes", "0"}, {"--nodes", "-1"}, {"--nodes", "two"}}) {
      Run refused = InspectCommandTest.run("generate", EXAMPLE.toString(), "--out", dir.resolve("x").toString(),
          bad[0], bad[1], "--cores", "1");
      assertEquals(Main.USAGE, refused.status(), refused.err());
      assertTrue(refused.err().contains("option --nodes must be a positive integer, got '" + bad[1] + "'"),
          refused.err());
    }
    Run tooMany = InspectCommandTest.run("generate", EXAMPLE.toString(), "--out", dir.resolve("x").toString(),
        "--nodes", "3", "--cores", "22");
    assertEquals(Main.USAGE, tooMany.status(), tooMany.err());
    assertTrue(tooMany.err().contains("--nodes 3 x 22 cores per node is 66 cores; a generated program runs on at "
        + "most 64 cores in total"), tooMany.err());
    assertFalse(Files.exists(dir.resolve("x")), "nothing written");
    Run help = InspectCommandTest.run("generate", "--help");
    assertTrue(help.out().contains("--nodes N"), help.out());
  }

  @Test
  void aMissingGraphIsBadInput() {
    Run run = InspectCommandTest.run("generate", dir.resolve("nothing.pi").toString(), "--out", dir.toString());
    assertEquals(Main.BAD_INPUT, run.status());
    assertTrue(run.err().contains("nothing.pi: no such file or directory"), run.err());
  }

  @Test
  void outputPathsOfActorSourcesAreRelative() {
    assertEquals("../src", org.cacheflow.pipeline.PathText.relative(dir.resolve("out"), dir.resolve("src")));
  }
}
