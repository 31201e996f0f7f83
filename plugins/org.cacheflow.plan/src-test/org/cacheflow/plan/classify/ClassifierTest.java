package org.cacheflow.plan.classify;

import static org.cacheflow.plan.memoryplan.PlanFixtures.connect;
import static org.cacheflow.plan.memoryplan.PlanFixtures.edge;
import static org.cacheflow.plan.memoryplan.PlanFixtures.expand;
import static org.cacheflow.plan.memoryplan.PlanFixtures.inputs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.cacheflow.plan.memoryplan.MemoryPlanner;
import org.cacheflow.model.Actor;
import org.cacheflow.model.ActorKind;
import org.cacheflow.model.Fifo;
import org.cacheflow.model.MemoryAnnotation;
import org.cacheflow.model.PersistenceLevel;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.analysis.TestGraph;
import org.cacheflow.plan.mapping.MappingPolicy;
import org.cacheflow.plan.memory.ScriptReport;
import org.cacheflow.plan.memoryplan.PlanFixtures.HandFacts;
import org.cacheflow.plan.memoryplan.PlanFixtures.ScenarioBuilder;
import org.cacheflow.plan.schedule.ListScheduler;
import org.cacheflow.plan.schedule.Schedule;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.scripts.FifoMark;
import org.cacheflow.scripts.MarkRecord;
import org.cacheflow.scripts.merge.MergeResult;
import org.cacheflow.scripts.merge.Piece;
import org.junit.jupiter.api.Test;

/** One test per classification rule (ClassRule), on graphs whose buffers are known by construction. */
class ClassifierTest {

  /** src -1000-> B (broadcast) -> c0 (READ_ONLY) and c1 (NONE: may write). */
  private static Srdag broadcast() {
    TestGraph top = TestGraph.named("top");
    Actor src = top.actor("src");
    Actor b = top.actor("B", ActorKind.BROADCAST);
    Actor c0 = top.actor("c0");
    Actor c1 = top.actor("c1");
    connect(top, src, "o", 1000, b, "in", 1000);
    connect(top, b, "out0", 1000, c0, "i", 1000, MemoryAnnotation.READ_ONLY);
    connect(top, b, "out1", 1000, c1, "i", 1000, MemoryAnnotation.NONE);
    return expand(top);
  }

  private static Classification classify(Srdag srdag, MemoryFacts facts) {
    Schedule schedule = ListScheduler.schedule(srdag, inputs(srdag, 1, null), MappingPolicy.LOAD_BALANCE, 1 << 20);
    return Classifier.classify(schedule, facts);
  }

  @Test
  void broadcastOutputsReadOnlyAreAliasedWrittenAreReadMostly() {
    Srdag srdag = broadcast();
    Classification c = classify(srdag, MemoryPlanner.defaultFacts(srdag));
    int in = edge(srdag, "top/src_0", "top/B_0");
    int readOnly = edge(srdag, "top/B_0", "top/c0_0");
    int written = edge(srdag, "top/B_0", "top/c1_0");
    assertEquals(ClassRule.MERGED, c.rule(readOnly));
    assertEquals(BufferClass.ALIASED, c.classOf(readOnly));
    assertEquals(BufferClass.ALIASED, c.classOf(in), "the input hosts the aliased output");
    assertEquals(in, c.mergeRoot(readOnly), "the root of a group is its largest buffer, lowest index first");
    assertEquals(ClassRule.SHARED_COPY_WRITTEN, c.rule(written));
    assertEquals(BufferClass.READ_MOSTLY, c.classOf(written));
    assertEquals(BufferOrigin.COPY, c.origin(written));
    assertTrue(c.evidenceDetail(readOnly).contains("placed in top/src_0.o->top/B_0.in"), c.evidenceDetail(readOnly));
    assertFalse(c.crossCore(written));
  }

  @Test
  void withoutMergingEveryBroadcastOutputIsReadMostly() {
    Srdag srdag = broadcast();
    Classification c = classify(srdag, MemoryFacts.NONE);
    assertEquals(ClassRule.SHARED_COPY_NOT_MERGED, c.rule(edge(srdag, "top/B_0", "top/c0_0")));
    assertEquals(ClassRule.SHARED_COPY_WRITTEN, c.rule(edge(srdag, "top/B_0", "top/c1_0")));
    assertEquals(ClassRule.PRODUCED, c.rule(edge(srdag, "top/src_0", "top/B_0")));
    assertEquals(BufferClass.WRITE_MOSTLY, c.classOf(edge(srdag, "top/src_0", "top/B_0")));
  }

  @Test
  void roundBufferOutputIsTheTailOfItsInput() {
    for (MemoryAnnotation annotation : List.of(MemoryAnnotation.READ_ONLY, MemoryAnnotation.WRITE_ONLY)) {
      TestGraph top = TestGraph.named("top");
      Actor src = top.actor("src");
      Actor r = top.actor("R", ActorKind.ROUNDBUFFER);
      Actor c = top.actor("c");
      connect(top, src, "o", 3000, r, "in", 3000);
      connect(top, r, "out", 1000, c, "i", 1000, annotation);
      Srdag srdag = expand(top);
      Classification classes = classify(srdag, MemoryPlanner.defaultFacts(srdag));
      int out = edge(srdag, "top/R_0", "top/c_0");
      // the round buffer consumes its input: its output may take the input's tail even when the consumer writes
      assertEquals(BufferClass.ALIASED, classes.classOf(out), annotation.toString());
      assertEquals(edge(srdag, "top/src_0", "top/R_0"), classes.mergeRoot(out));
      assertEquals(2000, classes.facts().mergeOffset(out), "the last 1000 of 3000 bytes");
    }
  }

  /** a -2000-> fork -> b_0, b_1 (1000 each), b's port annotated. */
  private static Srdag fork(MemoryAnnotation annotation) {
    TestGraph top = TestGraph.named("top");
    Actor a = top.actor("a");
    Actor b = top.actor("b");
    connect(top, a, "o", 2000, b, "i", 1000, annotation);
    return expand(top);
  }

  @Test
  void forkSlicesAlwaysMergeButCopiesArePrivateWhenTheConsumerWrites() {
    Srdag srdag = fork(MemoryAnnotation.NONE);
    int slice = edge(srdag, "explode_top/a_0_o", "top/b_1");
    assertEquals(BufferClass.ALIASED, classify(srdag, MemoryPlanner.defaultFacts(srdag)).classOf(slice),
        "a fork consumes its input: its slices never live beside it");
    Classification unmerged = classify(srdag, MemoryFacts.NONE);
    assertEquals(ClassRule.COPY_WRITTEN, unmerged.rule(slice));
    assertEquals(BufferClass.PRIVATE, unmerged.classOf(slice));

    Srdag readOnly = fork(MemoryAnnotation.READ_ONLY);
    assertEquals(ClassRule.COPY_READ, classify(readOnly, MemoryFacts.NONE)
        .rule(edge(readOnly, "explode_top/a_0_o", "top/b_1")));
  }

  @Test
  void delayTokensAndFeedbackArePrivate() {
    // f -> f (self-loop, delay 4): init -> f_0 holds the delay, f_0 -> end is written back by f itself.
    // a -> b with a delay of 1: init -> b_0 holds it, a_0 -> end is written by a and never read by a.
    TestGraph top = TestGraph.named("top");
    Actor f = top.actor("f");
    Fifo loop = top.fifo(TestGraph.out(f, "o", "4"), TestGraph.in(f, "i", "4"), "char", 8);
    TestGraph.delay(loop, "4", PersistenceLevel.PERMANENT);
    Actor a = top.actor("a");
    Actor b = top.actor("b");
    Fifo ab = top.fifo(TestGraph.out(a, "o", "1"), TestGraph.in(b, "i", "1"), "char", 8);
    TestGraph.delay(ab, "1", PersistenceLevel.PERMANENT);
    Srdag srdag = expand(top);
    Classification c = classify(srdag, MemoryPlanner.defaultFacts(srdag));
    assertEquals(ClassRule.DELAY_TOKENS, c.rule(edge(srdag, "top/f_init_i", "top/f_0")));
    assertEquals(BufferOrigin.DELAY, c.origin(edge(srdag, "top/f_init_i", "top/f_0")));
    assertEquals(ClassRule.FEEDBACK, c.rule(edge(srdag, "top/f_0", "top/f_end_o")));
    assertEquals(BufferClass.PRIVATE, c.classOf(edge(srdag, "top/f_0", "top/f_end_o")));
    assertEquals(ClassRule.DELAY_TOKENS, c.rule(edge(srdag, "top/b_init_i", "top/b_0")));
    assertEquals(ClassRule.PRODUCED, c.rule(edge(srdag, "top/a_0", "top/a_end_o")));
  }

  @Test
  void scriptMarksComeBeforeStructureAndMergingBeforeMarks() {
    Srdag srdag = broadcast();
    int in = edge(srdag, "top/src_0", "top/B_0");
    int readOnly = edge(srdag, "top/B_0", "top/c0_0");
    int written = edge(srdag, "top/B_0", "top/c1_0");
    HandFacts facts = new HandFacts().mark(in, FifoMark.READ_MOSTLY)
        .mark(written, FifoMark.PRIVATE, FifoMark.WRITE_MOSTLY).mark(readOnly, FifoMark.WRITE_MOSTLY);
    Classification c = classify(srdag, facts);
    assertEquals(ClassRule.MARKED_READ_MOSTLY, c.rule(in));
    assertEquals(ClassRule.MARKED_PRIVATE, c.rule(written), "private before write-mostly");
    assertEquals(ClassRule.MARKED_WRITE_MOSTLY, c.rule(readOnly));
    assertEquals("set by hand", c.evidenceDetail(readOnly), "the facts' word for where the marks were set");

    facts.merge(readOnly, in);
    assertEquals(ClassRule.MERGED, classify(srdag, facts).rule(readOnly), "merged buffers are aliased whatever marked");
  }

  @Test
  void crossCoreCombinesWithTheClass() {
    Srdag srdag = broadcast();
    Schedule schedule = ListScheduler.schedule(srdag, inputs(srdag, 2, new ScenarioBuilder().allow("Core0", "src", "B",
        "c0").allow("Core1", "c1").build()), MappingPolicy.LOAD_BALANCE, 1 << 20);
    Classification c = Classifier.classify(schedule, MemoryPlanner.defaultFacts(srdag));
    int written = edge(srdag, "top/B_0", "top/c1_0");
    assertTrue(c.crossCore(written));
    assertEquals(BufferClass.READ_MOSTLY, c.classOf(written));
    assertFalse(c.crossCore(edge(srdag, "top/B_0", "top/c0_0")));
  }

  @Test
  void scriptReportsGiveGroupsMarksAndRefusals() {
    Srdag srdag = broadcast();
    int in = edge(srdag, "top/src_0", "top/B_0");
    int readOnly = edge(srdag, "top/B_0", "top/c0_0");
    int written = edge(srdag, "top/B_0", "top/c1_0");
    String inId = ScriptMemoryFacts.fifoId(srdag, in);
    String readOnlyId = ScriptMemoryFacts.fifoId(srdag, readOnly);
    String writtenId = ScriptMemoryFacts.fifoId(srdag, written);
    assertEquals("top/B_0.out0->top/c0_0.i", readOnlyId);
    MergeResult merge = new MergeResult(Map.of(), Map.of(),
        List.of(new MergeResult.Group(inId, 0, 8000, List.of(new MergeResult.Member(readOnlyId,
            List.of(new Piece(0, 8000, inId, 0)))))),
        List.of("o_out1 of top/B_0 (FIFO " + writtenId + "): its consumer writes it"), 3000, 2000);
    SourceLocation at = new SourceLocation("c1.bsh", 3, 1);
    ScriptReport report = new ScriptReport("top", List.of(), merge, Map.of(writtenId,
        List.of(new MarkRecord(writtenId, FifoMark.PRIVATE, "top/c1_0", "i_i", at))), List.of());
    ScriptMemoryFacts facts = ScriptMemoryFacts.of(srdag, report);
    assertEquals(in, facts.mergeRoot(in));
    assertEquals(in, facts.mergeRoot(readOnly));
    assertEquals(-1, facts.mergeRoot(written));
    assertTrue(facts.describeMerge(readOnly).contains("bytes [0, 1000)"), facts.describeMerge(readOnly));
    assertEquals(Set.of(FifoMark.PRIVATE), facts.marks(written));
    assertTrue(facts.describeMarks(written).contains("c1.bsh:3:1"), facts.describeMarks(written));
    assertEquals("memory scripts allowed a merge that was not applied: its consumer writes it",
        facts.rejectedMerge(written));
    Classification c = classify(srdag, facts);
    assertEquals(ClassRule.MARKED_PRIVATE, c.rule(written));
    assertEquals(BufferClass.ALIASED, c.classOf(readOnly));
  }
}
