package org.cacheflow.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.cacheflow.codegen.build.CodeModelBuilder;
import org.cacheflow.codegen.build.PlannedExecution;
import org.cacheflow.codegen.build.CodePreset;
import org.cacheflow.codegen.model.ActorSources;
import org.cacheflow.codegen.model.CodeProject;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.plan.strategy.TargetCache;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Multi-node programs (one SPMD program over MPI, rank = node) built with CMake and run under {@code mpirun -np 2}
 * and {@code -np 3}: for the bundled examples, the bench's farm and corpus graphs (stereo, sobel, small_cyclic;
 * h263decoder and more with {@code -Dcacheflow.multinode.all=true}), under baseline and auto (and channels, whose
 * signalling within a node has no iteration barrier), they print the same sink digests as the single-node baseline
 * (1 node x 2 cores). Two runs are built with AddressSanitizer + UBSan (leak checks off: Open
 * MPI's own allocations), two with ThreadSanitizer. Skipped with a message when mpirun or mpicc is missing, unless
 * {@code -Dcacheflow.require.mpi=true} (CI), which makes a missing MPI a failure.
 */
class MultiNodeEndToEndTest {

  private static final Path WORK = Path.of(System.getProperty("cacheflow.e2e.work", "target/e2e")).toAbsolutePath()
      .resolve("multinode");
  private static final String ONLY = System.getProperty("cacheflow.e2e.only", "");
  /** {@code -Dcacheflow.multinode.all=true}: every corpus graph and the channels preset too (about 3x longer). */
  private static final boolean ALL = Boolean.getBoolean("cacheflow.multinode.all");
  private static final Path EXAMPLES = Path.of("../../examples").toAbsolutePath().normalize();

  /**
   * A graph: where it is read from, its scenario (or null) and parameter values; synthetic actor bodies, or the
   * actors' own code from {@code code} (src/ and include/, PROJECT_ROOT_PATH) with {@code libraries}.
   */
  private record Graph(String name, Path input, String scenario, Map<String, String> parameters, Path code,
      List<String> libraries) {
    Graph(String name, Path input, String scenario, Map<String, String> parameters) {
      this(name, input, scenario, parameters, null, List.of());
    }

    boolean real() {
      return code != null;
    }

    ActorSources actors(Path dir) {
      return code == null ? ActorSources.NONE : new ActorSources(dir.relativize(code.resolve("src")).toString(),
          List.of(dir.relativize(code.resolve("include")).toString()), List.of(), libraries,
          dir.relativize(code).toString());
    }
  }

  /** examples/frame-crc with its actors: zlib, frames read from Code/dat; the reader stops after the last one. */
  private static final Graph FRAME_CRC = new Graph("frame-crc-real", EXAMPLES.resolve("frame-crc"), null, Map.of(),
      EXAMPLES.resolve("frame-crc/Code"), List.of("ZLIB::ZLIB"));

  /**
   * One program: a graph under a strategy on {@code nodes} x {@code cores}; {@code reversed} numbers the plan's
   * nodes backwards (the plan puts sinks on core 0, so this has them digested on the last node and gathered).
   */
  private record Case(Graph graph, String strategy, int nodes, int cores, EndToEndTest.Build build,
      boolean reversed, int iterations) {
    Case(Graph graph, String strategy, int nodes, int cores, EndToEndTest.Build build) {
      this(graph, strategy, nodes, cores, build, false);
    }

    Case(Graph graph, String strategy, int nodes, int cores, EndToEndTest.Build build, boolean reversed) {
      this(graph, strategy, nodes, cores, build, reversed, 5);
    }

    String name() {
      return "multinode-" + graph.name() + "-" + strategy + "-" + nodes + "x" + cores + "-"
          + build.name().toLowerCase() + (reversed ? "-reversed" : "");
    }
  }

  @TestFactory
  Stream<DynamicTest> everyNodeCountPrintsTheSingleNodeDigests() {
    EndToEndTest.assumeBuildTools("multi-node end-to-end tests");
    Mpi.assume();
    List<Case> cases = cases(graphs());
    Map<String, Result> reference = new HashMap<>();
    // cacheflow.e2e.only selects among these (names multinode-GRAPH-STRATEGY-NODESxCORES-BUILD) and EndToEndTest's
    // cases alike: matching none of these runs none
    List<Case> kept = ONLY.isBlank() ? cases : cases.stream().filter(c -> Pattern.compile(ONLY)
        .matcher(c.name()).find()).toList();
    return kept.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> {
      Result result = run(c);
      // the reference: the single-node baseline (built here when its case was not selected)
      Result expected = reference.computeIfAbsent(c.graph().name(), k -> c.nodes() == 1 && c.strategy().equals(
          "baseline") ? result : singleNode(c));
      assertEquals(expected.digests(), result.digests(), c.name()
          + " prints other sink digests than the single-node program");
      if (c.strategy().equals("baseline")) {
        // the same copies, made on other nodes: the statistics of every rank are added up
        assertEquals(expected.bytesCopied(), result.bytesCopied(), c.name() + ": bytes copied");
      }
    }));
  }

  /** The graphs the cases run: the examples and the tiny and farm graphs first (cases refer to them), then the
   * corpus's. */
  private static List<Graph> graphs() {
    List<Graph> graphs = new ArrayList<>();
    // first: cases refer to these by position
    graphs.add(new Graph("stereo", EXAMPLES.resolve("stereo"), "2core.scenario", Map.of("width", "64", "height",
        "48", "nbDisparities", "4")));
    graphs.add(new Graph("filter-bank", EXAMPLES.resolve("filter-bank"), null, Map.of()));
    graphs.add(new Graph("frame-crc", EXAMPLES.resolve("frame-crc"), null, Map.of()));
    graphs.add(new Graph("tiny", TestInputs.TINY.resolve("Algo/tiny.pi"), null, Map.of(), TestInputs.TINY.resolve(
        "Code"), List.of()));
    Path bench = Path.of("../../bench/home-forwarding/Algo").toAbsolutePath().normalize();
    graphs.add(new Graph("farm", bench.resolve("farm.pi"), null, Map.of("size", "16", "tasks", "4", "elemFloat",
        "0")));
    String corpusProperty = System.getProperty("cacheflow.corpus");
    if (corpusProperty != null && Files.isDirectory(Path.of(corpusProperty))) {
      Path corpus = Path.of(corpusProperty);
      graphs.add(new Graph("corpus-stereo", corpus.resolve("preesm-apps/org.ietr.preesm.stereo"),
          "lowMaxDisparity.scenario", Map.of()));
      for (String app : ALL ? List.of("sobel", "convolution", "matrix.multiplication.row.times.columns", "largeFFT")
          : List.of("sobel")) {
        graphs.add(new Graph("corpus-" + app, corpus.resolve("preesm-apps/org.ietr.preesm." + app), null, Map.of()));
      }
      for (String sdf3 : ALL ? List.of("h263decoder.xml", "samplerate.xml", "mp3decoder_granule_parallelism.xml",
          "generated/small_acyclic.xml", "generated/small_cyclic.xml", "generated/medium_acyclic.xml")
          : List.of("generated/small_cyclic.xml")) {
        graphs.add(new Graph(Path.of(sdf3).getFileName().toString().replace(".xml", ""), corpus.resolve("sdf3/"
            + sdf3), null, Map.of()));
      }
    }
    return graphs;
  }

  /**
   * Every graph on 2 nodes of one core (and on 3 under baseline), the cases of several cores per node, sanitizers,
   * reversed ranks.
   */
  private static List<Case> cases(List<Graph> graphs) {
    List<Case> cases = new ArrayList<>();
    for (Graph graph : graphs) {
      // channels: rdy-ack channels and flags within a node, no iteration barrier, no merge groups
      for (String strategy : ALL ? List.of("baseline", "auto", "channels") : List.of("baseline", "auto")) {
        cases.add(new Case(graph, strategy, 2, 1, EndToEndTest.Build.PLAIN));
        // 3 nodes: under baseline by default, every strategy with cacheflow.multinode.all
        if (ALL || strategy.equals("baseline")) {
          cases.add(new Case(graph, strategy, 3, 1, EndToEndTest.Build.PLAIN));
        }
      }
    }
    Graph stereo = graphs.get(0);
    cases.add(new Case(stereo, "baseline", 2, 2, EndToEndTest.Build.PLAIN));
    cases.add(new Case(stereo, "auto", 2, 2, EndToEndTest.Build.ASAN));
    cases.add(new Case(graphs.get(4), "channels", 3, 1, EndToEndTest.Build.ASAN));
    // ThreadSanitizer: threads of one node sharing memory while the same threads post and complete transfers
    cases.add(new Case(graphs.get(4), "channels", 2, 2, EndToEndTest.Build.TSAN));
    cases.add(new Case(stereo, "auto", 2, 2, EndToEndTest.Build.TSAN));
    cases.add(new Case(graphs.get(3), "baseline", 3, 1, EndToEndTest.Build.PLAIN, true));
    cases.add(new Case(graphs.get(4), "channels", 2, 2, EndToEndTest.Build.PLAIN, true));
    // real actors printing what they compute: fewer iterations than frames, so the reader does not stop the run
    for (int nodes = 1; nodes <= 3; nodes++) {
      cases.add(new Case(FRAME_CRC, "baseline", nodes, nodes == 1 ? 2 : 1, EndToEndTest.Build.PLAIN, false, 3));
    }
    return cases;
  }

  /** What a run printed: the sink digest lines and the bytes copied. */
  private record Result(List<String> digests, long bytesCopied) {
  }

  private static Result singleNode(Case c) {
    try {
      return run(new Case(c.graph(), "baseline", 1, 2, EndToEndTest.Build.PLAIN, false, c.iterations()));
    } catch (Exception e) {
      throw new IllegalStateException("single-node reference of " + c.graph().name() + ": " + e.getMessage(), e);
    }
  }

  private static CodeProject model(Case c) {
    Graph graph = c.graph();
    Srdag srdag = TestInputs.srdag(graph.input(), graph.scenario(), graph.parameters());
    org.cacheflow.plan.classify.MemoryFacts facts = Files.isDirectory(graph.input())
        ? org.cacheflow.plan.memoryplan.MemoryPlanner.scriptFacts(srdag, graph.input()) : null;
    PlannedExecution plan = PlannedExecution.plan(srdag, c.nodes(), c.cores(), CodePreset.named(c.strategy()),
        TargetCache.ZEN4_VM, facts);
    CodeProject project = CodeModelBuilder.build(plan, !graph.real());
    if (c.reversed() && project.partNodes().stream().allMatch(node -> node == 0)) {
      // the partitioner put every sink on node 0: number the nodes backwards to have them gathered from another
      project = CodeModelBuilder.build(RenumberedNodes.reversed(plan), !graph.real());
    }
    if (c.reversed()) {
      assertTrue(project.partNodes().stream().anyMatch(node -> node != 0), c.name() + ": every sink part on node 0");
    }
    return project;
  }



  /** Generates, builds and runs the case (under mpirun on several nodes); the sink digest lines it prints. */
  private static Result run(Case c) throws Exception {
    CodeProject project;
    try {
      project = model(c);
    } catch (org.cacheflow.model.diagnostics.InputException e) {
      // a graph whose firings form fewer groups that can run apart than there are nodes (small_cyclic's delays)
      Assumptions.assumeFalse(e.getMessage().startsWith("the platform has " + c.nodes() + " nodes but "),
          e.getMessage());
      throw e;
    }
    // a graph the plan keeps on one node (small_cyclic) still runs one process per node
    assertEquals(c.nodes(), project.nodes(), c.name());
    Path dir = WORK.resolve(c.name());
    ProjectWriter.write(project, c.graph().actors(dir), TestInputs.runtime(), dir);
    List<String> configure = new ArrayList<>(List.of("cmake", "-S", dir.toString(), "-B", dir.resolve("build")
        .toString(), "-G", "Ninja", "-DCACHEFLOW_WERROR=ON", "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
        "-DCMAKE_PREFIX_PATH=" + EndToEndTest.runtime(c.build())));
    if (!c.build().sanitize.isEmpty()) {
      configure.add("-DCACHEFLOW_SANITIZE=" + c.build().sanitize);
    }
    EndToEndTest.exec(dir, 300, configure);
    EndToEndTest.exec(dir, EndToEndTest.buildSeconds(dir), List.of("cmake", "--build", dir.resolve("build")
        .toString()));
    List<String> program = List.of(dir.resolve("build").resolve(project.identifier()).toString(), "--iterations",
        Integer.toString(c.iterations()), "--validate");
    String output = EndToEndTest.exec(dir, 300, c.nodes() > 1 ? Mpi.command(c.nodes(), program) : program);
    List<String> digests = output.lines().filter(l -> l.matches(".* : [0-9a-f]{32}")).toList();
    assertFalse(digests.isEmpty(), "no sink digests printed:\n" + output);
    List<String> stats = output.lines().filter(l -> l.startsWith("stats: bytes copied ")).toList();
    assertEquals(1, stats.size(), "rank 0 alone prints the statistics:\n" + output);
    return new Result(digests, Long.parseLong(stats.get(0).replaceAll("^stats: bytes copied (\\d+),.*", "$1")));
  }

  @Test
  void theWrongProcessCountIsAClearError() throws Exception {
    EndToEndTest.assumeBuildTools("multi-node end-to-end tests");
    Mpi.assume();
    Case c = new Case(new Graph("farm", Path.of("../../bench/home-forwarding/Algo/farm.pi").toAbsolutePath()
        .normalize(), null, Map.of("size", "16", "tasks", "4", "elemFloat", "0")), "baseline", 2, 1,
        EndToEndTest.Build.PLAIN);
    run(c);
    Path program = WORK.resolve(c.name()).resolve("build").resolve(model(c).identifier());
    // --help needs no mpirun, and says how to run
    String help = EndToEndTest.exec(WORK, 120, List.of(program.toString(), "--help"));
    assertTrue(help.contains("generated for 2 nodes: run it with mpirun -np 2 " + program), help);
    for (List<String> command : List.of(List.of(program.toString()), Mpi.command(3, List.of(program.toString())))) {
      AssertionError error = org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class,
          () -> EndToEndTest.exec(WORK, 120, command));
      assertTrue(error.getMessage().contains("this program was generated for 2 nodes: run it with mpirun -np 2 "),
          error.getMessage());
    }
  }

  @Test
  void anActorStoppingTheRunStopsTheJobWithTheReason() throws Exception {
    EndToEndTest.assumeBuildTools("multi-node end-to-end tests");
    Mpi.assume();
    Case c = new Case(FRAME_CRC, "baseline", 2, 1, EndToEndTest.Build.PLAIN, false, 3);
    run(c);
    Path program = WORK.resolve(c.name()).resolve("build").resolve(model(c).identifier());
    // the example's 6 frames: the reader asks for a stop after the last one, on its node only
    AssertionError error = org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class,
        () -> EndToEndTest.exec(WORK, 120, Mpi.command(2, List.of(program.toString(), "--iterations", "20"))));
    assertTrue(error.getMessage().contains("an actor stopped the run (preesmStopThreads) after 6 of 20 iterations; "
        + program + " was generated for several nodes, which cannot agree on a stop"), error.getMessage());
  }

  @Test
  void aMissingMpiLibraryIsAClearCMakeError() throws Exception {
    EndToEndTest.assumeBuildTools("multi-node end-to-end tests");
    Case c = new Case(new Graph("farm", Path.of("../../bench/home-forwarding/Algo/farm.pi").toAbsolutePath()
        .normalize(), null, Map.of("size", "16", "tasks", "4", "elemFloat", "0")), "baseline", 2, 1,
        EndToEndTest.Build.PLAIN);
    Path dir = WORK.resolve("no-mpi");
    ProjectWriter.write(model(c), ActorSources.NONE, TestInputs.runtime(), dir);
    AssertionError error = org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class,
        () -> EndToEndTest.exec(dir, 300, List.of("cmake", "-S", dir.toString(), "-B", dir.resolve("build")
            .toString(), "-G", "Ninja", "-DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON")));
    // CMake wraps the message's lines
    assertTrue(error.getMessage().replaceAll("\\s+", " ").contains("this program was generated for 2 nodes and needs"
        + " an MPI library with C bindings, e.g. Debian's libopenmpi-dev"), error.getMessage());
  }

  /** How this machine runs MPI programs: Open MPI's mpirun, the options that work here, in one place. */
  static final class Mpi {

    private Mpi() {
    }

    /** Skips the calling test when mpirun or mpicc is missing, or fails when MPI is required. */
    static void assume() {
      boolean present = EndToEndTest.available("mpirun") && EndToEndTest.available("mpicc");
      if (!present && Boolean.getBoolean("cacheflow.require.mpi")) {
        org.junit.jupiter.api.Assertions.fail("mpirun or mpicc missing but cacheflow.require.mpi=true (install"
            + " openmpi-bin and libopenmpi-dev)");
      }
      Assumptions.assumeTrue(present, "mpirun or mpicc missing (Debian: openmpi-bin, libopenmpi-dev):"
          + " multi-node end-to-end tests skipped");
    }

    /**
     * {@code mpirun -np N} for the program: --oversubscribe (more processes than this machine's cores),
     * --allow-run-as-root when running as root (containers), no binding of processes to cores (several jobs share
     * the machine).
     */
    static List<String> command(int processes, List<String> program) {
      List<String> command = new ArrayList<>(List.of("mpirun", "--oversubscribe", "--bind-to", "none"));
      if ("root".equals(System.getProperty("user.name"))) {
        command.add("--allow-run-as-root");
      }
      // ThreadSanitizer sees Open MPI's memcpy into a receive buffer (made by whichever thread drives MPI's
      // progress) and its locks, but not the atomics that order them before MPI_Wait returns (the library is not
      // instrumented): reports from Open MPI's own frames are suppressed, the program's own accesses stay checked
      command.addAll(List.of("-x", "TSAN_OPTIONS=halt_on_error=1:suppressions=" + tsanSuppressions()));
      command.addAll(List.of("-np", Integer.toString(processes)));
      command.addAll(program);
      return command;
    }

    private static Path tsanSuppressions() {
      Path file = WORK.resolve("tsan-openmpi.supp");
      try {
        Files.createDirectories(WORK);
        Files.writeString(file, String.join("\n", "race:libopen-pal.so", "race:libmpi.so", "race:mca_*.so",
            "deadlock:libopen-pal.so", "deadlock:libmpi.so", "deadlock:mca_*.so", "mutex:libopen-pal.so",
            "mutex:mca_*.so") + "\n");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return file;
    }
  }
}
