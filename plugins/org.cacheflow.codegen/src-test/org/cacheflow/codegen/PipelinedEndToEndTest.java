package org.cacheflow.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntPredicate;
import java.util.stream.Stream;

import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.codegen.EndToEndTest.Build;
import org.cacheflow.codegen.build.CodeModelBuilder;
import org.cacheflow.codegen.build.PlannedExecution;
import org.cacheflow.codegen.build.CodePreset;
import org.cacheflow.codegen.model.ActorSources;
import org.cacheflow.codegen.model.CodeProject;
import org.cacheflow.codegen.model.Statement;
import org.cacheflow.plan.strategy.TargetCache;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Pipelined loops (iteration offsets) compiled and run: plans whose vertices reachable from chosen ones get iteration
 * offset
 * 1 print the same sink digests as the graph's plain program on one core, natively, under ThreadSanitizer,
 * ASan+UBSan and on aarch64 under qemu-user; with a one-core buffer used across passes (PIPELINED), a merge group
 * both cores use whose users have different offsets, and an actor that stops the run mid-way. Case names are
 * {@code pipelined-<graph>-<from>-<strategy>-<cores>-<build>}; {@code cacheflow.e2e.only} selects among them.
 */
class PipelinedEndToEndTest {

  private static final Path WORK = Path.of(System.getProperty("cacheflow.e2e.work", "target/e2e")).toAbsolutePath();
  private static final String ONLY = System.getProperty("cacheflow.e2e.only", "");
  private static final Path EXAMPLES = Path.of("../../examples").toAbsolutePath().normalize();
  private static final Map<String, List<String>> REFERENCE = new HashMap<>();

  /**
   * A graph with its actors' code (null: synthetic bodies), the iterations to run and, when an actor stops the
   * run, the iterations it runs.
   */
  private record Graph(String name, Path input, String scenario, Map<String, String> parameters, Path code,
      List<String> libraries, int iterations, int stopsAfter) {

    Graph(String name, Path input, String scenario, Map<String, String> parameters, Path code,
        List<String> libraries, int iterations) {
      this(name, input, scenario, parameters, code, libraries, iterations, iterations);
    }

    ActorSources actors(Path dir) {
      return code == null ? ActorSources.NONE : new ActorSources(dir.relativize(code.resolve("src")).toString(),
          List.of(dir.relativize(code.resolve("include")).toString()), List.of(), libraries,
          dir.relativize(code).toString());
    }
  }

  /**
   * One pipelined program: the vertices whose name matches {@code from} (or, for "sinks", the sink actors) and
   * those reachable from them get offset 1; {@code expect} is what its model must show (checked before building).
   */
  private record Case(Graph graph, String from, String strategy, int cores, Build build, Expect expect) {

    String name() {
      return "pipelined-" + graph.name() + "-" + from.replaceAll("[^A-Za-z0-9]+", "") + "-" + strategy + "-" + cores
          + "-" + build.name().toLowerCase();
    }
  }

  /** What a case's model must contain, so that each case exercises what it is there for. */
  enum Expect {
    /** Some vertex has an offset. */
    SKEWED,
    /** A buffer one core uses across passes of its loop. */
    PIPELINED_BUFFER,
    /** A merge group several cores use, whose users have different offsets. */
    SHARED_GROUP
  }

  @TestFactory
  Stream<DynamicTest> pipelinedProgramsPrintThePlainDigests() throws Exception {
    EndToEndTest.assumeBuildTools("pipelined end-to-end tests");
    Graph tiny = new Graph("tiny", TestInputs.TINY.resolve("Algo/tiny.pi"), null, Map.of(), TestInputs.TINY.resolve(
        "Code"), List.of(), 5);
    Path bench = Path.of("../../bench/home-forwarding/Algo").toAbsolutePath().normalize();
    Graph farm = new Graph("farm", bench.resolve("farm.pi"), null, Map.of("size", "16", "tasks", "4", "elemFloat",
        "0"), null, List.of(), 5);
    Graph frames = new Graph("frame-crc", EXAMPLES.resolve("frame-crc"), null, Map.of(), EXAMPLES.resolve(
        "frame-crc/Code"), List.of("ZLIB::ZLIB"), 20, 6); // the reader stops after the example's 6 frames
    List<Case> cases = new ArrayList<>();
    for (String strategy : List.of("homeforward", "auto")) {
      // the sink reads the merge group of the scaled slices, which the other core's firings write too
      cases.add(new Case(tiny, ".*/Collect_0", strategy, 2, Build.PLAIN, Expect.SHARED_GROUP));
      cases.add(new Case(tiny, ".*/Collect_0", strategy, 2, Build.TSAN, Expect.SHARED_GROUP));
      cases.add(new Case(tiny, ".*/Collect_0", strategy, 2, Build.ASAN, Expect.SHARED_GROUP));
      // on one core, those slices are a buffer of that core, written in one pass and read in the next
      cases.add(new Case(tiny, ".*/Collect_0", strategy, 1, Build.ASAN, Expect.PIPELINED_BUFFER));
      // core 1's scaling firings a pass behind core 0's broadcast, which waits for their slots a pass later
      cases.add(new Case(tiny, "core1:.*/Scale_[0-9]+", strategy, 2, Build.TSAN, Expect.SHARED_GROUP));
      // Scale_0 a pass behind the firings after it on its core that use the same frame group
      cases.add(new Case(tiny, ".*/Scale_0", strategy, 2, Build.TSAN, Expect.SHARED_GROUP));
      cases.add(new Case(farm, "sinks", strategy, 2, Build.TSAN, Expect.SKEWED));
      cases.add(new Case(frames, "sinks", strategy, 2, Build.TSAN, Expect.SKEWED));
    }
    cases.add(new Case(frames, "sinks", "homeforward", 2, Build.ASAN, Expect.SKEWED));
    String corpusProperty = System.getProperty("cacheflow.corpus");
    if (corpusProperty != null && Files.isDirectory(Path.of(corpusProperty))) {
      Path corpus = Path.of(corpusProperty);
      Graph acyclic = new Graph("small_acyclic", corpus.resolve("sdf3/generated/small_acyclic.xml"), null,
          Map.of(), null, List.of(), 5);
      Graph stereo = new Graph("stereo", corpus.resolve("preesm-apps/org.ietr.preesm.stereo"),
          "lowMaxDisparity.scenario", Map.of(), null, List.of(), 3);
      for (String strategy : List.of("homeforward", "auto")) {
        cases.add(new Case(acyclic, "sinks", strategy, 2, Build.ASAN, Expect.SKEWED));
        cases.add(new Case(acyclic, "sinks", strategy, 2, Build.TSAN, Expect.SKEWED));
        cases.add(new Case(stereo, "sinks", strategy, 2, Build.TSAN, Expect.SKEWED));
      }
    }
    if (EndToEndTest.available("aarch64-linux-gnu-gcc") && EndToEndTest.available("qemu-aarch64")) {
      cases.add(new Case(tiny, ".*/Collect_0", "auto", 2, Build.AARCH64, Expect.SHARED_GROUP));
      cases.add(new Case(tiny, ".*/Collect_0", "auto", 1, Build.AARCH64, Expect.PIPELINED_BUFFER));
    }
    return EndToEndTest.selected(cases, Case::name, ONLY).stream().map(c -> DynamicTest.dynamicTest(c.name(),
        () -> run(c)));
  }

  /** The plan of the case's graph, with the offsets of the case ({@code from == null}: none). */
  private static CodeProject model(Graph graph, String from, String strategy, int cores) {
    Srdag srdag = TestInputs.srdag(graph.input(), graph.scenario(), graph.parameters());
    org.cacheflow.plan.classify.MemoryFacts facts = Files.isDirectory(graph.input())
        ? org.cacheflow.plan.memoryplan.MemoryPlanner.scriptFacts(srdag, graph.input()) : null;
    PlannedExecution plan = PlannedExecution.plan(srdag, cores, CodePreset.named(strategy), TargetCache.ZEN4_VM, facts);
    if (from == null) {
      return CodeModelBuilder.build(plan, graph.code() == null);
    }
    IntPredicate chosen = switch (from) {
      case "sinks" -> v -> srdag.outgoingEdges(v).length == 0 && !srdag.isInserted(v);
      default -> from.startsWith("core1:") ? v -> plan.coreOf(v) == 1 && srdag.vertexName(v).matches(from.substring(6))
          : v -> srdag.vertexName(v).matches(from);
    };
    return CodeModelBuilder.build(new SkewedPlan(plan, chosen, 1), graph.code() == null);
  }

  private static void run(Case c) throws Exception {
    CodeProject project = model(c.graph(), c.from(), c.strategy(), c.cores());
    assertEquals(1, project.maxSkew(), c.name() + ": no vertex has an offset");
    List<String> reference = reference(c.graph());
    String output = buildAndRun(project, c.graph(), c.name(), c.build());
    assertEquals(reference, digests(output), c.name() + " prints other sink digests than the plain program");
    assertTrue(output.contains(" s for " + c.graph().stopsAfter() + " iterations"), output);
    // --time: core 0 stamps every pass it begins, the drain passes included
    assertTrue(output.contains("iterations (core 0, start to start): median ") && output.contains(" over "
        + (c.graph().stopsAfter() + project.maxSkew() - 1) + "\n"), output);
    switch (c.expect()) {
      case PIPELINED_BUFFER -> assertTrue(project.buffers().stream().anyMatch(b -> b.copies() == 2
          && b.description().contains("across passes")), c.name() + ": no buffer used across passes");
      case SHARED_GROUP -> assertTrue(sharedGroupOfMixedOffsets(project), c.name()
          + ": no merge group both cores use with users of different offsets");
      default -> {
      }
    }
  }

  /** Whether some shared group's slot is addressed from blocks of offset 0 and of offset 1. */
  private static boolean sharedGroupOfMixedOffsets(CodeProject project) {
    Map<String, Set<Integer>> offsets = new HashMap<>();
    Set<String> shared = new HashSet<>();
    project.buffers().stream().filter(b -> b.description().contains("merge group used by cores")).forEach(
        b -> shared.add(b.name()));
    for (var core : project.cores()) {
      for (Statement statement : core.loop()) {
        if (statement instanceof Statement.Pipelined block) {
          for (Statement inner : block.body()) {
            List<org.cacheflow.codegen.model.BufferRef> refs = new ArrayList<>(Statement.buffersOf(inner));
            if (inner instanceof Statement.ActorCall call) {
              call.arguments().stream().filter(a -> a instanceof org.cacheflow.codegen.model.Argument.Data d
                  && d.buffer() != null).forEach(a -> refs.add(((org.cacheflow.codegen.model.Argument.Data) a)
                      .buffer()));
            }
            for (var ref : refs) {
              if (shared.contains(ref.name())) {
                offsets.computeIfAbsent(ref.name(), k -> new HashSet<>()).add(block.skew());
              }
            }
          }
        }
      }
    }
    return offsets.values().stream().anyMatch(set -> set.size() > 1);
  }

  /** The digests of the graph's plain program (no offsets, baseline, one core), computed once per graph. */
  private static synchronized List<String> reference(Graph graph) throws Exception {
    List<String> digests = REFERENCE.get(graph.name());
    if (digests == null) {
      String name = "pipelined-" + graph.name() + "-reference";
      digests = digests(buildAndRun(model(graph, null, "baseline", 1), graph, name, Build.PLAIN));
      REFERENCE.put(graph.name(), digests);
    }
    return digests;
  }

  private static List<String> digests(String output) {
    List<String> digests = output.lines().filter(l -> l.matches(".* : [0-9a-f]{32}")).toList();
    assertFalse(digests.isEmpty(), "no sink digests printed:\n" + output);
    return digests;
  }

  private static String buildAndRun(CodeProject project, Graph graph, String name, Build build) throws Exception {
    Path dir = WORK.resolve(name);
    ProjectWriter.write(project, graph.actors(dir), TestInputs.runtime(), dir);
    List<String> configure = new ArrayList<>(List.of("cmake", "-S", dir.toString(), "-B", dir.resolve("build")
        .toString(), "-G", "Ninja", "-DCACHEFLOW_WERROR=ON", "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
        "-DCMAKE_PREFIX_PATH=" + EndToEndTest.runtime(build)));
    if (!build.sanitize.isEmpty()) {
      configure.add("-DCACHEFLOW_SANITIZE=" + build.sanitize);
    }
    if (build == Build.AARCH64) {
      configure.add("-DCMAKE_TOOLCHAIN_FILE=toolchains/aarch64-linux-gnu.cmake");
    }
    EndToEndTest.exec(dir, 300, configure);
    EndToEndTest.exec(dir, EndToEndTest.buildSeconds(dir), List.of("cmake", "--build", dir.resolve("build")
        .toString()));
    List<String> command = new ArrayList<>();
    if (build == Build.AARCH64) {
      command.addAll(List.of("qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"));
    }
    command.addAll(List.of(dir.resolve("build").resolve(project.identifier()).toString(), "--iterations",
        Integer.toString(graph.iterations()), "--validate", "--time"));
    return EndToEndTest.exec(dir, 300, command);
  }
}
