package org.cacheflow.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.codegen.EndToEndTest.Build;
import org.cacheflow.codegen.build.CodePreset;
import org.cacheflow.codegen.build.SchedFirings;
import org.cacheflow.codegen.model.ActorSources;
import org.cacheflow.codegen.model.CodeProject;
import org.cacheflow.codegen.model.SchedTable;
import org.cacheflow.codegen.model.Statement;
import org.cacheflow.plan.schedule.RunSchedule;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Dynamic and hybrid schedules (the runtime's dispatcher over a firing table) print the sink digests of the static
 * program: the test graph with its real actors and the bundled examples with synthetic actors, on two workers with
 * two iterations in flight (the default slots), natively, planned with generate's default strategy (auto, kept where
 * it does not depend on the core) and stereo's hybrid also with PREESM's merges; the test graph also with one
 * slot and with three, under ThreadSanitizer, ASan+UBSan and, when the cross tools are there, for aarch64 under
 * qemu-user. With {@code cacheflow.e2e=full} also the examples with three slots, dynamic under ThreadSanitizer and
 * dynamic and hybrid under every strategy, and every distinct corpus program under the three schedules and dynamic
 * under one strategy per mechanism ({@link #CORPUS_STRATEGIES}).
 */
class DispatchedScheduleEndToEndTest {

  private static final Path WORK = Path.of(System.getProperty("cacheflow.e2e.work", "target/e2e")).toAbsolutePath()
      .resolve("dispatched");
  private static final Path EXAMPLES = Path.of("../../examples").toAbsolutePath().normalize();

  private static final boolean FULL = System.getProperty("cacheflow.e2e", "default").equals("full");
  /** The slots of the default cases: generate's default. */
  private static final int SLOTS = 2;

  /**
   * The strategies of the corpus programs' dynamic schedules besides {@link #STRATEGY}: one per mechanism the one-core
   * plan keeps or drops (plain copies, PREESM's merges, non-temporal copies, copy-on-write views made copies,
   * pre-stores left out, cacheflow's merges with channels).
   */
  private static final List<String> CORPUS_STRATEGIES = List.of("baseline", "preesm", "ntm", "cow", "prestore",
      "alias");

  /** The strategy of the default dispatched cases: generate's default. */
  private static final String STRATEGY = "auto";

  /**
   * One program: a graph (with a scenario of its project, or null) under a schedule with its slots (iterations in
   * flight) and, when dispatched, the strategy its one-core plan asks for, built one way.
   */
  private record Case(String graph, Path input, boolean synthetic, RunSchedule.Kind kind, int slots, Build build,
      String scenario, String strategy) {
    Case(String graph, Path input, boolean synthetic, RunSchedule.Kind kind, int slots, Build build) {
      this(graph, input, synthetic, kind, slots, build, null, STRATEGY);
    }

    Case(String graph, Path input, boolean synthetic, RunSchedule.Kind kind, Build build) {
      this(graph, input, synthetic, kind, SLOTS, build, null, STRATEGY);
    }

    Case(String graph, Path input, RunSchedule.Kind kind, String strategy) {
      this(graph, input, true, kind, SLOTS, Build.PLAIN, null, strategy);
    }

    String name() {
      return graph + "-" + kind.label() + (kind == RunSchedule.Kind.STATIC || slots == SLOTS ? "" : "-slots" + slots)
          + (kind == RunSchedule.Kind.STATIC || strategy.equals(STRATEGY) ? "" : "-" + strategy) + "-"
          + build.name().toLowerCase();
    }
  }

  @TestFactory
  Stream<DynamicTest> dynamicAndHybridPrintTheStaticDigests() throws IOException {
    EndToEndTest.assumeBuildTools("dispatched schedules");
    Path tiny = TestInputs.TINY.resolve("Algo/tiny.pi");
    List<Case> cases = new ArrayList<>();
    for (RunSchedule.Kind kind : RunSchedule.Kind.values()) {
      cases.add(new Case("tiny", tiny, false, kind, Build.PLAIN));
    }
    cases.add(new Case("tiny", tiny, false, RunSchedule.Kind.DYNAMIC, 1, Build.PLAIN));
    cases.add(new Case("tiny", tiny, false, RunSchedule.Kind.HYBRID, 3, Build.PLAIN));
    cases.add(new Case("tiny", tiny, false, RunSchedule.Kind.DYNAMIC, Build.TSAN));
    cases.add(new Case("tiny", tiny, false, RunSchedule.Kind.HYBRID, Build.ASAN));
    if (EndToEndTest.available("aarch64-linux-gnu-gcc") && EndToEndTest.available("qemu-aarch64")) {
      cases.add(new Case("tiny", tiny, false, RunSchedule.Kind.HYBRID, Build.AARCH64));
    }
    for (String example : List.of("filter-bank", "frame-crc", "stereo")) {
      for (RunSchedule.Kind kind : RunSchedule.Kind.values()) {
        cases.add(new Case(example, EXAMPLES.resolve(example), true, kind, Build.PLAIN));
      }
      // PREESM's merges (the default cases have the planner's own), on the example with the most merges
      boolean preesm = example.equals("stereo");
      if (preesm) {
        cases.add(new Case(example, EXAMPLES.resolve(example), RunSchedule.Kind.HYBRID, "preesm"));
      }
      if (FULL) {
        for (String strategy : CodePreset.NAMES) {
          for (RunSchedule.Kind kind : List.of(RunSchedule.Kind.DYNAMIC, RunSchedule.Kind.HYBRID)) {
            boolean inDefault = preesm && strategy.equals("preesm") && kind == RunSchedule.Kind.HYBRID;
            if (!strategy.equals(STRATEGY) && !inDefault) {
              cases.add(new Case(example, EXAMPLES.resolve(example), kind, strategy));
            }
          }
        }
        cases.add(new Case(example, EXAMPLES.resolve(example), true, RunSchedule.Kind.DYNAMIC, 3, Build.PLAIN));
        cases.add(new Case(example, EXAMPLES.resolve(example), true, RunSchedule.Kind.HYBRID, 3, Build.PLAIN));
        cases.add(new Case(example, EXAMPLES.resolve(example), true, RunSchedule.Kind.DYNAMIC, Build.TSAN));
      }
    }
    if (FULL) {
      cases.addAll(corpusCases());
    }
    Map<String, List<String>> reference = new HashMap<>();
    return cases.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> {
      List<String> digests = run(c);
      List<String> first = reference.putIfAbsent(c.graph(), digests);
      if (first != null) {
        assertEquals(first, digests, c.name() + " prints other sink digests than the static program");
      } else {
        assertEquals(RunSchedule.Kind.STATIC, c.kind(), "the static program runs first");
      }
    }));
  }

  /**
   * With {@code cacheflow.e2e=full} and the corpus: static, dynamic and hybrid on each distinct corpus program the
   * default end-to-end run builds (one scenario per program, at most {@link EndToEndTest#DEFAULT_MAX_VERTICES}
   * single-rate vertices, none broken upstream), synthetic actors, natively.
   */
  private static List<Case> corpusCases() throws IOException {
    String property = System.getProperty("cacheflow.corpus");
    if (property == null || !Files.isDirectory(Path.of(property))) {
      return List.of();
    }
    List<EndToEndTest.ScenarioPair> pairs = EndToEndTest.corpusScenarios(Path.of(property));
    Map<EndToEndTest.ScenarioPair, String> standIn = EndToEndTest.distinctPrograms(pairs);
    List<Case> cases = new ArrayList<>();
    for (EndToEndTest.ScenarioPair pair : pairs) {
      if (standIn.containsKey(pair) || EndToEndTest.UPSTREAM_BROKEN.containsKey(pair.key())) {
        continue;
      }
      for (RunSchedule.Kind kind : RunSchedule.Kind.values()) {
        cases.add(new Case(pair.name(), pair.project(), true, kind, SLOTS, Build.PLAIN, pair.scenario(), STRATEGY));
      }
      for (String strategy : CORPUS_STRATEGIES) {
        cases.add(new Case(pair.name(), pair.project(), true, RunSchedule.Kind.DYNAMIC, SLOTS, Build.PLAIN,
            pair.scenario(), strategy));
      }
    }
    return cases;
  }

  /** Generates, builds and runs one case (7 iterations, two workers); returns its sink digests. */
  private static List<String> run(Case c) throws Exception {
    Srdag srdag = TestInputs.srdag(c.input(), c.scenario());
    boolean dispatched = c.kind() != RunSchedule.Kind.STATIC;
    // as generate does: a dispatched schedule is planned on one core with what of its strategy holds on any core
    CodeProject project = dispatched ? TestInputs.dispatchedModel(c.input(), srdag, c.strategy(), c.synthetic(),
        c.slots()) : TestInputs.model(c.input(), srdag, 2, "auto", c.synthetic());
    SchedTable table = dispatched ? SchedFirings.of(project, new RunSchedule(c.kind(),
        c.kind() == RunSchedule.Kind.HYBRID ? List.of(mostFired(project)) : List.of()), 2, c.slots()) : null;
    Path dir = WORK.resolve(c.name());
    Path sources = c.synthetic() ? null : TestInputs.TINY.resolve("Code");
    ActorSources actors = sources == null ? ActorSources.NONE : new ActorSources(dir.relativize(
        sources.resolve("src")).toString(), List.of(dir.relativize(sources.resolve("include")).toString()));
    ProjectWriter.write(project, table, actors, TestInputs.runtime(), dir, folder -> {
    });
    String output = EndToEndTest.buildAndRun(dir, project.identifier(), c.build(), "--iterations", "7",
        "--validate", "--time");
    List<String> digests = output.lines().filter(l -> l.matches(".* : [0-9a-f]{32}")).toList();
    assertFalse(digests.isEmpty(), "no sink digests printed:\n" + output);
    if (dispatched) {
      assertTrue(output.contains("sched core 1: working"), "no per-core times with --time:\n" + output);
      String source = Files.readString(dir.resolve("core_0.c"));
      assertTrue(source.contains(".slots = " + c.slots() + ","), "the program does not run " + c.slots() + " slots");
    }
    return digests;
  }

  /** The actor with the most firings, as --variable names it (the vertex name without its firing number). */
  private static String mostFired(CodeProject project) {
    Map<String, Integer> calls = new HashMap<>();
    for (Statement statement : project.cores().get(0).loop()) {
      if (statement instanceof Statement.ActorCall call) {
        calls.merge(call.vertex().replaceFirst("_[0-9]+$", ""), 1, Integer::sum);
      }
    }
    return calls.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
  }

  @Test
  void theTableFollowsTheOneCoreOrderAndRefusesAnUnknownVariableActor() {
    Path tiny = TestInputs.TINY.resolve("Algo/tiny.pi");
    CodeProject project = TestInputs.model(tiny, TestInputs.srdag(tiny, null), 1, "baseline", false);
    SchedTable table = SchedFirings.of(project, new RunSchedule(RunSchedule.Kind.HYBRID, List.of("Scale")), 2, 1);
    // the firings run the one-core program's steps, each once, a chain of steps in one firing in their order
    List<Statement> loop = project.cores().get(0).loop();
    List<Statement> run = new ArrayList<>(table.firings().stream().flatMap(f -> f.statements().stream()).toList());
    assertEquals(loop.size(), run.size());
    assertTrue(run.containsAll(loop) && loop.containsAll(run), "the firings do not run the one-core steps");
    for (SchedTable.SchedFiring firing : table.firings()) {
      int at = -1;
      for (Statement step : firing.statements()) {
        int next = loop.subList(at + 1, loop.size()).indexOf(step);
        assertTrue(next >= 0, firing.label() + " runs its steps out of the one-core order");
        at += 1 + next;
      }
    }
    assertTrue(table.firings().size() < project.cores().get(0).loop().size(), "no chain of steps is one firing");
    int steady = 0;
    for (int i = 0; i < table.firings().size(); i++) {
      SchedTable.SchedFiring firing = table.firings().get(i);
      for (int successor : firing.successors()) {
        assertTrue(successor > i, "an edge against the one-core order: " + i + " -> " + successor);
      }
      steady += firing.variable() ? 0 : 1;
      List<Statement.ActorCall> calls = calls(firing);
      assertEquals(calls.isEmpty() || calls.get(0).vertex().startsWith("Scale"), firing.variable(), firing.label());
      for (Statement.ActorCall call : calls) {
        assertEquals(calls.get(0).vertex().startsWith("Scale"), call.vertex().startsWith("Scale"),
            "a firing mixes variable and steady actors: " + firing.label());
      }
    }
    assertEquals(steady, table.orders().stream().mapToInt(List::size).sum());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SchedFirings.of(project,
        new RunSchedule(RunSchedule.Kind.HYBRID, List.of("NoSuchActor")), 2, 1));
    assertTrue(e.getMessage().contains("NoSuchActor"), e.getMessage());
    // a cost spread above the threshold makes an actor variable as --variable does; one below it does not
    SchedTable spread = SchedFirings.of(project, new RunSchedule(RunSchedule.Kind.HYBRID, List.of(),
        Map.of("Scale", RunSchedule.VARIABLE_ABOVE + 0.1)), 2, 1);
    SchedTable steadySpread = SchedFirings.of(project, new RunSchedule(RunSchedule.Kind.HYBRID, List.of(),
        Map.of("Scale", RunSchedule.VARIABLE_ABOVE)), 2, 1);
    for (int i = 0; i < table.firings().size(); i++) {
      assertEquals(table.firings().get(i).variable(), spread.firings().get(i).variable());
    }
    for (SchedTable.SchedFiring firing : steadySpread.firings()) {
      assertEquals(calls(firing).isEmpty(), firing.variable(), firing.label());
    }
    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> SchedFirings.of(project,
        new RunSchedule(RunSchedule.Kind.HYBRID, List.of(), Map.of("NoSuchActor", 1.0)), 2, 1));
    assertTrue(unknown.getMessage().startsWith("--cost-spread NoSuchActor"), unknown.getMessage());
  }

  /**
   * A variable actor inside a subgraph (hierdelay's Step/Acc) is named as a profile's actors are matched: by its name,
   * its path below the top graph or its path from it; a path that cannot lead to it is refused.
   */
  @Test
  void aVariableActorInASubgraphIsNamedByItsNameOrItsPath() {
    Path graph = Path.of("src-test/resources/hierdelay/Algo/hierdelay.pi").toAbsolutePath();
    CodeProject project = TestInputs.model(graph, TestInputs.srdag(graph, null), 1, "baseline", false);
    // the firings of Acc are pooled and those of the other actors not (the special actors' steps always are)
    int acc = 0;
    for (SchedTable.SchedFiring firing : SchedFirings.of(project, new RunSchedule(RunSchedule.Kind.HYBRID,
        List.of("Acc")), 2, 1).firings()) {
      List<Statement.ActorCall> calls = calls(firing);
      boolean ofAcc = !calls.isEmpty() && calls.get(0).vertex().startsWith("Step/Acc_");
      assertEquals(calls.isEmpty() || ofAcc, firing.variable(), firing.label());
      acc += ofAcc ? 1 : 0;
    }
    assertTrue(acc > 0, "no firing of Step/Acc");
    List<Boolean> byName = pooled(project, "Acc");
    assertEquals(byName, pooled(project, "Step/Acc"));
    assertEquals(byName, pooled(project, "hierdelay/Step/Acc"));
    for (String wrong : List.of("Other/Acc", "a/hierdelay/Step/Acc")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> pooled(project, wrong));
      assertTrue(e.getMessage().startsWith("--variable " + wrong + ":"), e.getMessage());
    }
    // two names of one actor, one marked and one with a cost spread: both name it, neither is unknown
    assertEquals(byName, SchedFirings.of(project, new RunSchedule(RunSchedule.Kind.HYBRID, List.of("Acc"),
        Map.of("Step/Acc", 0.6)), 2, 1).firings().stream().map(SchedTable.SchedFiring::variable).toList());
  }

  /** Per firing of the hybrid table with {@code variable} marked, whether it is pooled. */
  private static List<Boolean> pooled(CodeProject project, String variable) {
    return SchedFirings.of(project, new RunSchedule(RunSchedule.Kind.HYBRID, List.of(variable)), 2, 1).firings()
        .stream().map(SchedTable.SchedFiring::variable).toList();
  }

  @Test
  void overlappedIterationsUseACopyPerSlotAndWaitForTheirPreviousFiring() {
    Path tiny = TestInputs.TINY.resolve("Algo/tiny.pi");
    CodeProject one = SchedFirings.unpooled(TestInputs.model(tiny, TestInputs.srdag(tiny, null), 1, "baseline",
        false));
    CodeProject project = SchedFirings.slotted(one, 3);
    assertTrue(project.heapBytes() > one.heapBytes(), "the reserve does not grow with the copies");
    int slotted = 0;
    for (int b = 0; b < one.buffers().size(); b++) {
      boolean own = one.buffers().get(b).copies() == 1;
      assertEquals(own ? 3 : one.buffers().get(b).copies(), project.buffers().get(b).copies(),
          project.buffers().get(b).name());
      slotted += own ? 1 : 0;
    }
    assertTrue(slotted > 0, "no buffer has a copy per slot");
    for (Statement step : project.cores().get(0).loop()) {
      for (var ref : Statement.buffersOf(step)) {
        assertFalse(ref.base() instanceof org.cacheflow.codegen.model.BufferRef.Named, step + " refers to " + ref
            + " without its slot");
      }
    }
    SchedTable table = SchedFirings.of(project, new RunSchedule(RunSchedule.Kind.DYNAMIC, List.of()), 2, 3);
    SchedTable single = SchedFirings.of(one, new RunSchedule(RunSchedule.Kind.DYNAMIC, List.of()), 2, 1);
    assertEquals(3, table.slots());
    int[] incoming = new int[table.firings().size()];
    for (int i = 0; i < table.firings().size(); i++) {
      SchedTable.SchedFiring firing = table.firings().get(i);
      assertTrue(single.firings().get(i).later().isEmpty(), "an edge to the next iteration with one slot");
      assertEquals(single.firings().get(i).successors(), firing.successors(), firing.label());
      if (i == 0 || firing.statements().stream().anyMatch(step -> step instanceof Statement.ActorCall
          || step instanceof Statement.Digest)) {
        assertTrue(firing.later().contains(i), firing.label() + " does not follow its previous iteration's firing");
      }
      firing.successors().forEach(s -> incoming[s]++);
      firing.later().forEach(s -> incoming[s]++);
    }
    for (int i = 0; i < table.firings().size(); i++) {
      assertEquals(incoming[i], table.firings().get(i).predecessors(), table.firings().get(i).label());
    }
  }

  /**
   * With a strategy that merges (auto on stereo, whose broadcasts of the images go to consumers that only read them),
   * the dispatched program keeps the merge groups (fewer copies and bytes than baseline's plain copies), a group is
   * one allocation with a copy per slot, every two steps touching overlapping bytes of one allocation, one of them
   * writing, are ordered by the firing table's edges, and two firings reading the same bytes read-only are not.
   */
  @Test
  void mergeGroupsStayAndReadOnlyConsumersOfOneBufferAreNotOrdered() {
    Path stereo = EXAMPLES.resolve("stereo");
    Srdag srdag = TestInputs.srdag(stereo, null);
    CodeProject merged = TestInputs.dispatchedModel(stereo, srdag, "auto", true, SLOTS);
    CodeProject plain = TestInputs.dispatchedModel(stereo, srdag, "baseline", true, SLOTS);
    assertTrue(copies(merged) < copies(plain), "auto's one-core plan copies as much as baseline's: " + copies(merged)
        + " against " + copies(plain));
    assertTrue(merged.allocatedBytes() < plain.allocatedBytes(), "the merge groups save no memory");
    SchedTable table = SchedFirings.of(merged, new RunSchedule(RunSchedule.Kind.DYNAMIC, List.of()), 2, SLOTS);
    int n = table.firings().size();
    BitSet[] reach = new BitSet[n];
    for (int i = n - 1; i >= 0; i--) {
      reach[i] = new BitSet(n);
      for (int t : table.firings().get(i).successors()) {
        reach[i].set(t);
        reach[i].or(reach[t]);
      }
    }
    List<List<long[]>> touched = new ArrayList<>();
    List<List<String>> roots = new ArrayList<>();
    for (SchedTable.SchedFiring firing : table.firings()) {
      List<long[]> ranges = new ArrayList<>();
      List<String> names = new ArrayList<>();
      for (Statement step : firing.statements()) {
        touches(step, ranges, names);
      }
      touched.add(ranges);
      roots.add(names);
    }
    int unordered = 0;
    for (int i = 0; i < n; i++) {
      for (int j = i + 1; j < n; j++) {
        for (int a = 0; a < touched.get(i).size(); a++) {
          for (int b = 0; b < touched.get(j).size(); b++) {
            long[] x = touched.get(i).get(a);
            long[] y = touched.get(j).get(b);
            if (!roots.get(i).get(a).equals(roots.get(j).get(b)) || x[0] >= y[1] || y[0] >= x[1]) {
              continue;
            }
            if (x[2] == 1 || y[2] == 1) {
              assertTrue(reach[i].get(j), table.firings().get(i).label() + " and " + table.firings().get(j).label()
                  + " touch bytes of " + roots.get(i).get(a) + " one of them writes, in no order");
            } else if (!reach[i].get(j)) {
              unordered++;
            }
          }
        }
      }
    }
    assertTrue(unordered > 0, "no two firings reading the same bytes read-only run in any order");
    // a merge group's root is one allocation with a copy per slot: its members are at offsets in the slot
    assertTrue(merged.cores().get(0).loop().stream().flatMap(step -> refs(step).stream()).anyMatch(ref -> ref.offset()
        > 0 && ref.base() instanceof org.cacheflow.codegen.model.BufferRef.IterationSlot slot && slot.slots() == SLOTS),
        "no merge group member at an offset in its slotted root");
  }

  /** The byte ranges {first, end, written} and roots a step touches, as the firing table counts them. */
  private static void touches(Statement step, List<long[]> ranges, List<String> names) {
    if (step instanceof Statement.FirstIteration first) {
      touches(first.statement(), ranges, names);
    } else if (step instanceof Statement.ActorCall call) {
      for (org.cacheflow.codegen.model.Argument argument : call.arguments()) {
        if (argument instanceof org.cacheflow.codegen.model.Argument.Data data && data.buffer() != null) {
          touch(data.buffer(), data.bytes(), !data.readOnly(), ranges, names);
        }
      }
    } else if (step instanceof Statement.Copy copy) {
      touch(copy.destination(), copy.bytes(), true, ranges, names);
      touch(copy.source(), copy.bytes(), false, ranges, names);
    } else if (step instanceof Statement.Zero zero) {
      touch(zero.destination(), zero.bytes(), true, ranges, names);
    } else if (step instanceof Statement.Digest digest) {
      touch(digest.buffer(), digest.bytes(), false, ranges, names);
    }
  }

  private static void touch(org.cacheflow.codegen.model.BufferRef ref, long bytes, boolean write, List<long[]> ranges,
      List<String> names) {
    boolean whole = ref.base() instanceof org.cacheflow.codegen.model.BufferRef.DelayCopy;
    ranges.add(new long[] {whole ? 0 : ref.offset(), whole ? Long.MAX_VALUE : ref.offset() + Math.max(bytes, 1),
        write ? 1 : 0});
    names.add(ref.name());
  }

  private static List<org.cacheflow.codegen.model.BufferRef> refs(Statement step) {
    return step instanceof Statement.FirstIteration first ? refs(first.statement()) : Statement.buffersOf(step);
  }

  private static long copies(CodeProject project) {
    return project.cores().get(0).loop().stream().filter(Statement.Copy.class::isInstance).count();
  }

  private static List<Statement.ActorCall> calls(SchedTable.SchedFiring firing) {
    return firing.statements().stream().filter(Statement.ActorCall.class::isInstance)
        .map(Statement.ActorCall.class::cast).toList();
  }
}
