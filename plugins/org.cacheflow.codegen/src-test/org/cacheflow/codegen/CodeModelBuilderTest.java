package org.cacheflow.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.cacheflow.codegen.build.CodeModelBuilder;
import org.cacheflow.codegen.build.PlannedExecution;
import org.cacheflow.codegen.build.CodePreset;
import org.cacheflow.codegen.model.CodeProject;
import org.cacheflow.codegen.model.Core;
import org.cacheflow.codegen.model.Statement;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.plan.classify.MemoryFacts;
import org.cacheflow.plan.memoryplan.MemoryPlanner;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.plan.strategy.TargetCache;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the code model holds for the test graph under each strategy. */
class CodeModelBuilderTest {

  private static final Srdag TINY = TestInputs.srdag(TestInputs.TINY.resolve("Algo/tiny.pi"), null);

  private static List<Statement> all(CodeProject project) {
    return project.cores().stream().flatMap(c -> c.loop().stream()).toList();
  }

  private static long count(CodeProject project, Class<?> kind) {
    return all(project).stream().filter(kind::isInstance).count();
  }

  @Test
  void baselineCopiesSignalsWithSemaphoresAndMeetsEveryIteration() {
    CodeProject project = TestInputs.model(TINY, 2, "baseline", false);
    assertTrue(project.barrier());
    assertTrue(project.channels().isEmpty());
    assertTrue(project.semaphores() > 0, "the plan's mapping puts actors on both cores");
    assertEquals(project.semaphores(), count(project, Statement.SemaphorePost.class));
    assertEquals(project.semaphores(), count(project, Statement.SemaphoreWait.class));
    // every special vertex copies: the broadcast twice, the fork four slices, the join four
    assertEquals(2 + 4 + 4, all(project).stream().filter(s -> s instanceof Statement.Copy c
        && !c.why().contains("init") && !c.why().contains("end")).count());
  }

  private static final Path FARM = Path.of("../../bench/home-forwarding/Algo/farm.pi").toAbsolutePath().normalize();

  /** The farm of bench/home-forwarding: emitter and collector on core 0, workers on both, one merge group each way. */
  private static CodeProject farm(String strategy) {
    Srdag srdag = TestInputs.srdag(FARM, null, Map.of("size", "32", "tasks", "4", "elemFloat", "0"));
    return TestInputs.model(srdag, 2, strategy, true);
  }

  /** PREESM's generated code (baseline, and preesm with its scripts' merges) signals with semaphores. */
  @Test
  void everyStrategyButTheBaselineSignalsCrossCoreDependenciesWithCountedFlags() {
    for (String strategy : CodePreset.NAMES) {
      CodeProject project = farm(strategy);
      if (CodePreset.named(strategy).barrier()) {
        assertTrue(project.semaphores() > 0);
        assertTrue(project.flags().isEmpty());
        continue;
      }
      assertEquals(0, project.semaphores(), strategy);
      assertEquals(0, count(project, Statement.SemaphorePost.class) + count(project, Statement.SemaphoreWait.class),
          strategy);
      if (!CodePreset.named(strategy).alias()) {
        // no merge groups: every cross-core buffer travels in a rdy-ack channel of its own
        assertTrue(project.flags().isEmpty() && !project.channels().isEmpty(), strategy);
        continue;
      }
      assertEquals(2, project.flags().size(), strategy + ": one flag each way between the two cores");
      for (Core core : project.cores()) {
        Map<org.cacheflow.codegen.model.Flag, Long> raised = new HashMap<>();
        for (Statement statement : core.loop()) {
          if (statement instanceof Statement.FlagRaise raise) {
            assertEquals(core.index(), raise.flag().from(), strategy);
            long next = raised.merge(raise.flag(), 1L, Long::sum);
            assertEquals(next, raise.count(), strategy + ": events are numbered in program order");
            assertTrue(raise.count() <= raise.perIteration(), strategy);
          } else if (statement instanceof Statement.FlagWait wait) {
            assertEquals(core.index(), wait.flag().to(), strategy + ": a flag is waited on by its home core");
            assertTrue(wait.offset() <= wait.perIteration(), strategy);
          }
        }
        for (Map.Entry<org.cacheflow.codegen.model.Flag, Long> flag : raised.entrySet()) {
          for (Statement statement : all(project)) {
            if (statement instanceof Statement.FlagRaise raise && raise.flag().equals(flag.getKey())) {
              assertEquals(flag.getValue(), raise.perIteration(), strategy
                  + ": every raise knows the events per iteration");
            }
          }
        }
      }
    }
  }

  @Test
  void signalsOfOneFiringToOneCoreAreOneRaiseAndMetWaitsAreLeftOut() {
    CodeProject baseline = farm("baseline");
    CodeProject flags = farm("homeforward");
    // the emitter's firing readies the tasks of both workers of core 1: two posts, one raise
    List<Statement> core0 = flags.cores().get(0).loop();
    int emit = indexOf(core0, "Emitter");
    assertTrue(core0.get(emit + 1) instanceof Statement.FlagRaise raise && raise.why().contains("Worker_1")
        && raise.why().contains("Worker_3"), core0.toString());
    // 8 dependencies (4 tasks and results crossing, 4 slot hand-backs) are 5 events: core 0 raises after the
    // emitter, after its last worker (done with the tasks' slot) and after the collector; core 1 after each worker
    assertEquals(4, count(baseline, Statement.SemaphorePost.class), "the baseline signals data only");
    assertEquals(5, count(flags, Statement.FlagRaise.class), all(flags).toString());
    // core 1 waits once before its first worker: the task of Worker_1 (the later count) implies both slots
    List<Statement> core1 = flags.cores().get(1).loop();
    assertTrue(core1.get(0) instanceof Statement.FlagWait, core1.toString());
    assertTrue(core1.get(1) instanceof Statement.ActorCall, core1.toString());
  }

  private static int indexOf(List<Statement> loop, String vertex) {
    for (int i = 0; i < loop.size(); i++) {
      if (loop.get(i) instanceof Statement.ActorCall call && call.vertex().contains(vertex)) {
        return i;
      }
    }
    throw new AssertionError(vertex + " not in " + loop);
  }

  @Test
  void pipelinedStrategiesUseChannelsReservedBeforeAndCommittedAfterUse() {
    CodeProject project = TestInputs.model(TINY, 2, "channels", false);
    assertFalse(project.barrier());
    assertEquals(0, project.semaphores());
    assertFalse(project.channels().isEmpty());
    for (Core core : project.cores()) {
      int open = 0;
      for (Statement statement : core.loop()) {
        if (statement instanceof Statement.ChannelReserve || statement instanceof Statement.ChannelAcquire) {
          open++;
        } else if (statement instanceof Statement.ChannelCommit || statement instanceof Statement.ChannelRelease) {
          open--;
        }
        assertTrue(open >= 0, "a commit or release before its reserve or acquire");
      }
      assertEquals(0, open, "every reserved or acquired slot is handed on within the iteration");
    }
    assertEquals(count(project, Statement.ChannelReserve.class), count(project, Statement.ChannelCommit.class));
  }

  @Test
  void aliasingRemovesTheCopiesOfSpecialActorsOnOneCore() {
    CodeProject copying = TestInputs.model(TINY, 1, "channels", false);
    CodeProject aliased = TestInputs.model(TINY, 1, "alias", false);
    assertTrue(count(aliased, Statement.Copy.class) < count(copying, Statement.Copy.class));
    // the broadcast output read by Sum (whose port may write) must still be a copy
    assertTrue(all(aliased).stream().anyMatch(s -> s instanceof Statement.Copy c && c.why().contains("Bcast")));
    assertTrue(aliased.buffers().size() < copying.buffers().size());
  }

  @Test
  void copyOnWriteServesTheBroadcastWhereThePlanSaysSo() {
    // 16-byte frames: less than a page, so the plan copies; two pages on one core: the writing consumer (Sum)
    // reads a view while the read-only one (Scale, through a fork) shares the input's memory, as the scripts
    // merged it
    assertEquals(0, TestInputs.model(TINY, 1, "cow", true).cowBuffers().size());
    CodeProject project = TestInputs.model(TestInputs.srdag(TestInputs.TINY.resolve("Algo/tiny.pi"), null,
        Map.of("size", "8192")), 1, "cow", true);
    assertEquals(1, project.cowBuffers().size());
    assertEquals(1, project.cowBuffers().get(0).views());
    assertEquals(1, count(project, Statement.CowWriteBegin.class));
    assertEquals(1, count(project, Statement.CowPublish.class));
    assertEquals(1, count(project, Statement.CowAcquire.class));
    assertEquals(1, count(project, Statement.CowRelease.class));
    assertTrue(all(project).stream().noneMatch(st -> st instanceof Statement.Copy c && c.why().contains("Bcast")),
        "nothing of the broadcast is copied");
  }

  @Test
  void theProgramCopiesWhatThePlanSays() {
    // examples/stereo with its memory scripts: merge groups across both cores, divided buffers, in-place actors
    Path stereo = Path.of("../../examples/stereo").toAbsolutePath().normalize();
    Srdag srdag = TestInputs.srdag(stereo, "2core.scenario");
    MemoryFacts facts = MemoryPlanner.scriptFacts(srdag, stereo);
    for (String strategy : List.of("baseline", "cow", "ntm", "prestore", "homeforward", "auto")) {
      PlannedExecution plan = PlannedExecution.plan(srdag, 2, CodePreset.named(strategy), TargetCache.ZEN4_VM, facts);
      CodeProject project = CodeModelBuilder.build(plan, true);
      // delay tokens move through their init and end vertices, which the plan does not count as copies
      long copied = all(project).stream().filter(st -> st instanceof Statement.Copy c && !c.why().contains("_init_")
          && !c.why().contains("_end_")).mapToLong(st -> ((Statement.Copy) st).bytes()).sum();
      assertEquals(plan.memoryPlan().totals().planBytesCopied(), copied, strategy);
    }
  }

  @Test
  void anImplodeFeedingARoundBufferCopiesOnlyWhatTheRoundBufferKeeps(@TempDir Path temp) throws Exception {
    // examples/stereo: the implode gathers all winner-takes-all states, the round buffer after it keeps only the
    // last one; the rest of the implode's copies are dead (no consumer reads them). Baseline and preesm keep PREESM's
    // plain copies.
    Path annotated = Path.of("../../examples/stereo").toAbsolutePath().normalize();
    for (Path stereo : List.of(annotated, CopyOnWriteEndToEndTest.unannotated(annotated, temp))) {
      Srdag srdag = TestInputs.srdag(stereo, "2core.scenario");
      MemoryFacts facts = MemoryPlanner.scriptFacts(srdag, stereo);
      int[] found = implodeIntoRoundBuffer(srdag);
      int join = found[0];
      int joined = found[1];
      long kept = Math.min(srdag.edgeBytes(srdag.outgoingEdges(found[2])[0]), srdag.edgeBytes(joined));
      assertTrue(kept < srdag.edgeBytes(joined), "the round buffer keeps less than the implode gathers");
      for (String strategy : List.of("baseline", "preesm", "alias", "cow", "ntm", "auto")) {
        PlannedExecution plan = PlannedExecution.plan(srdag, 2, CodePreset.named(strategy), TargetCache.ZEN4_VM, facts);
        String name = srdag.vertexName(join);
        long copied = all(CodeModelBuilder.build(plan, true)).stream()
            .filter(st -> st instanceof Statement.Copy c && name.endsWith(c.why()))
            .mapToLong(st -> ((Statement.Copy) st).bytes()).sum();
        // PREESM's code, with its memory scripts too, copies every byte: cacheflow's dead-copy cuts are its own
        boolean preesmCode = strategy.equals("baseline") || strategy.equals("preesm");
        long expected = preesmCode ? srdag.edgeBytes(joined) : kept;
        assertEquals(expected, copied, stereo.getParent().getFileName() + " " + strategy + ": bytes " + name
            + " copies");
        if (!preesmCode && !strategy.equals("alias")) {
          assertEquals(kept, plan.memoryPlan().buffer(joined).bytesCopied(), strategy);
          assertTrue(plan.memoryPlan().buffer(joined).specialCopy() && plan.memoryPlan().liveBytes().partial(joined),
              String.valueOf(plan.memoryPlan().buffer(joined).decision()));
        }
      }
    }
  }

  /** {join, its output, the round buffer it feeds alone} in the graph, found by kind. */
  static int[] implodeIntoRoundBuffer(Srdag srdag) {
    for (int v = 0; v < srdag.vertexCount(); v++) {
      if (srdag.vertexKind(v) != org.cacheflow.model.ActorKind.ROUNDBUFFER || srdag.incomingEdges(v).length != 1) {
        continue;
      }
      int e = srdag.incomingEdges(v)[0];
      if (srdag.vertexKind(srdag.edgeSource(e)) == org.cacheflow.model.ActorKind.JOIN) {
        return new int[] {srdag.edgeSource(e), e, v};
      }
    }
    throw new AssertionError("no implode feeding a round buffer alone");
  }

  @Test
  void unannotatedBroadcastsBecomeViewsOfOneMemory(@TempDir Path temp) throws Exception {
    // examples/stereo without READ_ONLY annotations and read-mostly marks: the MatchingCost firings may write
    // the views and census images broadcast to them, so merging cannot share them; copy-on-write does
    Path stereo = CopyOnWriteEndToEndTest.unannotated(Path.of("../../examples/stereo").toAbsolutePath().normalize(),
        temp);
    Srdag srdag = TestInputs.srdag(stereo, "2core.scenario");
    MemoryFacts facts = MemoryPlanner.scriptFacts(srdag, stereo);
    for (String strategy : List.of("cow", "auto")) {
      PlannedExecution plan = PlannedExecution.plan(srdag, 2, CodePreset.named(strategy), TargetCache.ZEN4_VM, facts);
      Map<String, Set<String>> sources = new TreeMap<>();
      int views = 0;
      for (int e = 0; e < srdag.edgeCount(); e++) {
        String target = srdag.vertexName(srdag.edgeTarget(e));
        String port = srdag.edgeTargetPort(e);
        if (target.contains("MatchingCost_") && !port.equals("disparity")) {
          assertTrue(plan.copyOnWrite(e), strategy + ": " + target + "." + port + " is not a view");
          // all 32 firings read the same bytes: one source memory and offset per port (out0 included)
          sources.computeIfAbsent(port, k -> new TreeSet<>()).add(plan.viewSource(e) + "@"
              + plan.viewOffset(e));
          views++;
        }
      }
      assertEquals(4 * 32, views, strategy);
      assertEquals(4, sources.size(), strategy);
      sources.values().forEach(set -> assertEquals(1, set.size(), strategy + ": " + sources));
      CodeProject project = CodeModelBuilder.build(plan, true);
      assertEquals(4, project.cowBuffers().stream().filter(cow -> cow.views() == 32).count(), strategy);
      long copied = all(project).stream().filter(st -> st instanceof Statement.Copy c && !c.why().contains("_init_")
          && !c.why().contains("_end_")).mapToLong(st -> ((Statement.Copy) st).bytes()).sum();
      assertEquals(plan.memoryPlan().totals().planBytesCopied(), copied, strategy);
    }
  }

  @Test
  void copiesStayInsideBuffersWhenTokensAreNotWholeBytes() {
    // small_acyclic's a3 -> a4 carries 19-bit tokens: each of a3's three firings writes 3 bytes, a4 reads 3
    // tokens, 57 bits = 8 bytes; the join must not write 9 bytes into the 8-byte buffer
    Srdag srdag = TestInputs.srdag(TestInputs.corpus().resolve("sdf3/generated/small_acyclic.xml"), null);
    int join = -1;
    for (int v = 0; v < srdag.vertexCount(); v++) {
      if (srdag.vertexName(v).startsWith("implode_") && srdag.vertexName(v).contains("a4")
          && srdag.vertexName(v).endsWith("_p1")) {
        join = v;
      }
    }
    assertTrue(join >= 0, "the join before a4.p1");
    long inputs = 0;
    for (int e : srdag.incomingEdges(join)) {
      inputs += srdag.edgeBytes(e);
    }
    long output = srdag.edgeBytes(srdag.outgoingEdges(join)[0]);
    assertTrue(inputs > output, inputs + " bytes of slices for a " + output + "-byte buffer");
    String name = srdag.vertexName(join);
    long copied = all(TestInputs.model(srdag, 1, "baseline", true)).stream()
        .filter(st -> st instanceof Statement.Copy c && name.endsWith(c.why()))
        .mapToLong(st -> ((Statement.Copy) st).bytes()).sum();
    assertEquals(output, copied);
  }

  @Test
  void persistentDelayIsDoubleBufferedOnOneCore() {
    CodeProject project = TestInputs.model(TINY, 1, "auto", true);
    assertTrue(project.buffers().stream().anyMatch(b -> b.copies() == 2 && b.description().contains("delay")));
  }

  @Test
  void syntheticActorsFollowThePrototypeOrderAndAnnotations() {
    CodeProject project = TestInputs.model(TINY, 1, "auto", true);
    var sum = project.declarations().stream().filter(a -> a.actor().equals("Sum")).findFirst().orElseThrow();
    assertEquals(List.of("size", "frame", "previous", "state", "total"), sum.parameters().stream()
        .map(p -> p.name()).toList());
    assertEquals(List.of("CONFIG", "READ_SCRIBBLE", "READ", "WRITE", "WRITE"), sum.parameters().stream()
        .map(p -> p.use().name()).toList());
  }

  @Test
  void aPrototypeParameterWithoutAPortIsReportedAtItsLocation(@TempDir Path dir) throws IOException {
    String text = Files.readString(TestInputs.TINY.resolve("Algo/tiny.pi")).replace(
        "<param direction=\"IN\" isConfig=\"false\" name=\"in\" type=\"unsigned char\"/>",
        "<param direction=\"IN\" isConfig=\"false\" name=\"input\" type=\"unsigned char\"/>");
    Path graph = dir.resolve("tiny.pi");
    Files.writeString(graph, text);
    Srdag srdag = TestInputs.srdag(graph, null);
    InputException error = assertThrows(InputException.class, () -> TestInputs.model(srdag, 1, "baseline", false));
    assertTrue(error.describe().contains("tiny.pi:"), error.describe());
    assertTrue(error.getMessage().contains("'input' of prototype 'scale'"), error.getMessage());
    // synthetic actors do not need the prototype to match
    assertFalse(TestInputs.model(srdag, 1, "baseline", true).cores().isEmpty());
  }

  /** Pre-stores (and copies written around the caches) only on hand-offs to another core, never on one core. */
  @Test
  void preStoresOnlyFollowWritesThatAnotherCoreReads() {
    for (String strategy : List.of("prestore-demote", "prestore-clean", "auto")) {
      CodeProject single = TestInputs.model(TINY, 1, strategy, true);
      assertEquals(0, count(single, Statement.Prestore.class), strategy + " on one core");
    }
    CodeProject skipping = TestInputs.model(TINY, 1, "prestore-skip", true);
    assertTrue(all(skipping).stream().noneMatch(s -> s instanceof Statement.Copy c
        && c.kind() == org.cacheflow.codegen.model.CopyKind.SKIP), "a same-core copy written around the caches");
    for (String strategy : List.of("prestore-demote", "prestore-clean")) {
      CodeProject project = TestInputs.model(TINY, 2, strategy, true);
      long prestores = 0;
      long shared = 0;
      for (Core core : project.cores()) {
        List<Statement> loop = core.loop();
        for (int i = 0; i < loop.size(); i++) {
          if (!(loop.get(i) instanceof Statement.Prestore)) {
            continue;
          }
          prestores++;
          int j = i + 1;
          while (loop.get(j) instanceof Statement.Prestore || loop.get(j) instanceof Statement.Copy) {
            j++;
          }
          Statement next = loop.get(j);
          // pre-stores are followed by the hand-off they prepare (after other pre-stores and the copies of special
          // vertices on this core): to a channel homed elsewhere, or the flag telling another core that a merge
          // group's slice is written
          boolean channel = next instanceof Statement.ChannelCommit commit && commit.channel().sender() == core.index()
              && commit.channel().receiver() != core.index();
          boolean flag = next instanceof Statement.FlagRaise raise && raise.flag().from() == core.index()
              && raise.flag().to() != core.index();
          if (flag) {
            shared++;
          }
          assertTrue(channel || flag, strategy + ": core " + core.index() + " pre-stores before " + next);
        }
      }
      assertTrue(prestores > 0, strategy + ": the 2-core mapping hands buffers between cores");
      assertTrue(shared > 0, strategy + ": slices of merge groups another core reads are pre-stored too");
    }
  }

  /** The static buffers each statement touches, by name. */
  private static List<String> touched(Statement statement) {
    return Statement.buffersOf(statement).stream().map(org.cacheflow.codegen.model.BufferRef::name).toList();
  }

  /** Buffers sharing bytes of a pool are never in use at the same statement of their core's iteration. */
  @Test
  void pooledBuffersShareBytesOnlyAcrossDisjointLifetimes() {
    Srdag stereo = TestInputs.srdag(Path.of("../../examples/stereo").toAbsolutePath().normalize(), null);
    int pooledPairs = 0;
    for (Srdag graph : List.of(TINY, stereo)) {
      for (String strategy : List.of("baseline", "alias", "auto")) {
        for (int cores : new int[] {1, 2}) {
          CodeProject project = TestInputs.model(graph, cores, strategy, true);
          assertTrue(project.allocatedBytes() <= project.allocatedBytesWithoutPools());
          for (Core core : project.cores()) {
            Map<String, int[]> span = new HashMap<>();
            for (int i = 0; i < core.loop().size(); i++) {
              for (String base : touched(core.loop().get(i))) {
                int[] s = span.computeIfAbsent(base, k -> new int[] {Integer.MAX_VALUE, -1});
                s[0] = Math.min(s[0], i);
                s[1] = Math.max(s[1], i);
              }
            }
            List<org.cacheflow.codegen.model.StaticBuffer> members = core.buffers().stream()
                .filter(b -> !b.allocated()).toList();
            for (var a : members) {
              assertTrue(core.buffers().stream().anyMatch(b -> b.name().equals(a.pool()) && b.allocated()
                  && a.offset() + a.bytes() <= b.bytes()), a.name() + " lies inside its pool");
              for (var b : members) {
                boolean sameBytes = a != b && a.pool().equals(b.pool()) && a.offset() < b.offset() + b.bytes()
                    && b.offset() < a.offset() + a.bytes();
                if (!sameBytes || !span.containsKey(a.name()) || !span.containsKey(b.name())) {
                  continue;
                }
                pooledPairs++;
                int[] sa = span.get(a.name());
                int[] sb = span.get(b.name());
                assertTrue(sa[1] < sb[0] || sb[1] < sa[0], strategy + " on " + cores + " cores: " + a.name()
                    + " and " + b.name() + " share bytes while both in use");
              }
            }
          }
        }
      }
      CodeProject baseline = TestInputs.model(graph, 1, "baseline", true);
      assertTrue(baseline.allocatedBytes() < baseline.allocatedBytesWithoutPools(),
          "on one core the baseline's buffers of disjoint lifetimes share memory");
    }
    assertTrue(pooledPairs > 0, "some buffers share bytes");
  }
}
