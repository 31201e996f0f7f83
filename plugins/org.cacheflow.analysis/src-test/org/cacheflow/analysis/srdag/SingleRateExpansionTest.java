package org.cacheflow.analysis.srdag;

import static org.cacheflow.analysis.TestGraph.delay;
import static org.cacheflow.analysis.TestGraph.in;
import static org.cacheflow.analysis.TestGraph.out;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.cacheflow.model.Actor;
import org.cacheflow.model.ActorKind;
import org.cacheflow.model.Fifo;
import org.cacheflow.model.PersistenceLevel;
import org.cacheflow.model.Port;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.analysis.FlatGraph;
import org.cacheflow.analysis.GraphAnalysis;
import org.cacheflow.analysis.ProgressListener;
import org.cacheflow.analysis.TestGraph;
import org.junit.jupiter.api.Test;

/** Single-rate expansion of small graphs, against counts and edges derived by hand in the comments. */
class SingleRateExpansionTest {

  private static Srdag expand(TestGraph graph) {
    FlatGraph flat = GraphAnalysis.analyse(graph.graph(), Map.of(), null).flatGraph();
    Srdag dag = SingleRateExpansion.expand(flat);
    SrdagInvariants.check(dag);
    return dag;
  }

  /** Edges as {@code source.port -tokens-> target.port}, in creation order. */
  private static List<String> edges(Srdag dag) {
    List<String> result = new ArrayList<>();
    for (int e = 0; e < dag.edgeCount(); e++) {
      result.add(dag.vertexName(dag.edgeSource(e)) + "." + dag.edgeSourcePort(e) + " -" + dag.edgeTokens(e)
          + "-> " + dag.vertexName(dag.edgeTarget(e)) + "." + dag.edgeTargetPort(e));
    }
    return result;
  }

  @Test
  void multiRateChain() {
    // a -2-> 3- b -1-> 2- c, r = (3, 2, 1): 6 firings.
    // a -> b, token stream 0..5: a0 = [0,2) a1 = [2,4) a2 = [4,6); b0 = [0,3) b1 = [3,6).
    // b0 starts against a0 (3 > 2): join J(b0). a1 starts with 1 left in b0 (2 > 1): fork F(a1), giving 1 to
    // J(b0) and, when b1 starts against F's remaining 1 (3 > 1): join J(b1), 1 to it. a2 fits J(b1) exactly.
    // b -> c: c0 reads 2 from b0 and b1 (2 > 1): join J(c0).
    // Vertices: 6 firings + 1 fork + 3 joins = 10. Edges: 7 (a -> b) + 3 (b -> c) = 10.
    TestGraph top = TestGraph.named("top");
    Actor a = top.actor("a");
    Actor b = top.actor("b");
    Actor c = top.actor("c");
    top.fifo(out(a, "o", "2"), in(b, "i", "3"), "int", 32);
    top.connect(b, "o", "1", c, "i", "2");
    Srdag dag = expand(top);
    assertEquals(10, dag.vertexCount());
    assertEquals(10, dag.edgeCount());
    assertEquals(1, dag.countVertices(ActorKind.FORK));
    assertEquals(3, dag.countVertices(ActorKind.JOIN));
    assertEquals(List.of(
        "implode_top/b_0_i.o -3-> top/b_0.i",
        "top/a_0.o -2-> implode_top/b_0_i.i_0",
        "top/a_1.o -2-> explode_top/a_1_o.i",
        "explode_top/a_1_o.o_0 -1-> implode_top/b_0_i.i_1",
        "implode_top/b_1_i.o -3-> top/b_1.i",
        "explode_top/a_1_o.o_1 -1-> implode_top/b_1_i.i_0",
        "top/a_2.o -2-> implode_top/b_1_i.i_1",
        "implode_top/c_0_i.o -2-> top/c_0.i",
        "top/b_0.o -1-> implode_top/c_0_i.i_0",
        "top/b_1.o -1-> implode_top/c_0_i.i_1"), edges(dag));
    // 32-bit tokens: 2 tokens = 8 bytes; the 8-bit default on b -> c: 1 token = 1 byte
    // (a join's output edge is created when its sink starts, before the join's inputs)
    assertEquals(8, dag.edgeBytes(1));
    assertEquals(1, dag.edgeBytes(8));
    assertEquals(2 * 4 + 3 * 4 + 2 * 4 + 4 + 3 * 4 + 4 + 2 * 4 + 1 + 2 + 1, dag.totalBytes());
    Srdag.Vertex fork = dag.vertex(dag.edgeTarget(2));
    assertEquals(ActorKind.FORK, fork.kind());
    assertTrue(fork.inserted());
    assertEquals("top/a", fork.actorPath());
    assertEquals(-1, fork.firing());
  }

  @Test
  void explicitForkAndJoinActors() {
    // src -4-> F (FORK actor, two outputs of 2) -> w1, w2 (1 in, 1 out, r = 2 each) -> J (JOIN actor) -4-> snk.
    // Firings: 1 + 1 + 2 + 2 + 1 + 1 = 8. Each F output (2) feeds two w firings: an inserted fork each (+2);
    // each J input (2) gathers two w firings: an inserted join each (+2). Vertices 12.
    // Edges: 3 per inserted fork or join (12) + src -> F + J -> snk = 14.
    TestGraph top = TestGraph.named("top");
    Actor src = top.actor("src");
    Actor fork = top.actor("F", ActorKind.FORK);
    Actor w1 = top.actor("w1");
    Actor w2 = top.actor("w2");
    Actor join = top.actor("J", ActorKind.JOIN);
    Actor snk = top.actor("snk");
    top.connect(src, "o", "4", fork, "i", "4");
    top.connect(fork, "o0", "2", w1, "i", "1");
    top.connect(fork, "o1", "2", w2, "i", "1");
    top.connect(w1, "o", "1", join, "i0", "2");
    top.connect(w2, "o", "1", join, "i1", "2");
    top.connect(join, "o", "4", snk, "i", "4");
    Srdag dag = expand(top);
    assertEquals(12, dag.vertexCount());
    assertEquals(14, dag.edgeCount());
    assertEquals(3, dag.countVertices(ActorKind.FORK));
    assertEquals(3, dag.countVertices(ActorKind.JOIN));
    assertEquals(4, dag.countInsertedVertices());
  }

  @Test
  void cycleWithDelay() {
    // a -2-> 3- b, b -3-> 2- a with 4 initial tokens (PERMANENT): r = (3, 2), 5 firings.
    // b -> a, stream with the delay first: INIT = [0,4) b0 = [4,7) b1 = [7,10); a0..a2 = [0,2) [2,4) [4,6),
    // END = [6,10). INIT outlasts a0: fork (-> a0, a1). b0 outlasts a2: fork (-> a2, END). END outlasts the
    // fork's 1 left: join (<- b0's fork, b1). 2 forks + 1 join + INIT + END, 8 edges.
    // a -> b: as in the chain, 1 fork + 2 joins, 7 edges.
    // Vertices: 5 + 2 + 3 + 3 = 13; edges: 15.
    TestGraph top = TestGraph.named("top");
    Actor a = top.actor("a");
    Actor b = top.actor("b");
    top.connect(a, "o", "2", b, "i", "3");
    Fifo back = top.connect(b, "o", "3", a, "i", "2");
    delay(back, "4", PersistenceLevel.PERMANENT);
    Srdag dag = expand(top);
    assertEquals(13, dag.vertexCount());
    assertEquals(15, dag.edgeCount());
    assertEquals(1, dag.countVertices(ActorKind.INIT));
    assertEquals(1, dag.countVertices(ActorKind.END));
    assertEquals(1, dag.persistentDelayCount());
    assertEquals("top/a_init_i", dag.vertexName(dag.persistentInit(0)));
    assertEquals("top/b_end_o", dag.vertexName(dag.persistentEnd(0)));
    List<String> edges = edges(dag);
    assertTrue(edges.contains("top/a_init_i.i -4-> explode_top/a_init_i_o.i"), edges.toString());
    assertTrue(edges.contains("explode_top/a_init_i_o.o_1 -2-> top/a_1.i"), edges.toString());
    assertTrue(edges.contains("top/b_1.o -3-> implode_top/b_end_o_i.i_1"), edges.toString());
    assertTrue(edges.contains("implode_top/b_end_o_i.o -4-> top/b_end_o.o"), edges.toString());
    int fromInit = 0;
    int toEnd = 0;
    for (int e = 0; e < dag.edgeCount(); e++) {
      fromInit += dag.isFromInit(e) ? 1 : 0;
      toEnd += dag.isToEnd(e) ? 1 : 0;
    }
    assertEquals(1, fromInit);
    assertEquals(1, toEnd);
  }

  @Test
  void hierarchicalGraphWithRoundBuffer() {
    // top/src -6-> [H: w x3] -> round buffer (3 in, 2 out) -2-> snk: firings 1 + 3 + 1 + 1 = 6.
    // src -> w: src's 6 go to three firings of 2: a fork, 4 edges. w -> round buffer: 3 x 1 into 3: a join,
    // 4 edges. Round buffer -> snk: 2 = 2, 1 edge. Vertices 8, edges 9.
    TestGraph sub = TestGraph.named("sub");
    Port subIn = sub.sourceInterface("in", "6");
    Port subOut = sub.sinkInterface("out", "2");
    Actor w = sub.actor("w");
    sub.fifo(subIn, in(w, "i", "2"));
    sub.fifo(out(w, "o", "1"), subOut);
    TestGraph top = TestGraph.named("top");
    Actor src = top.actor("src");
    Actor h = top.hierarchical("H", sub);
    Actor snk = top.actor("snk");
    top.connect(src, "o", "6", h, "in", "6");
    top.connect(h, "out", "2", snk, "i", "2");
    Srdag dag = expand(top);
    assertEquals(8, dag.vertexCount());
    assertEquals(9, dag.edgeCount());
    assertEquals(1, dag.countVertices(ActorKind.ROUNDBUFFER));
    assertEquals("top/H/out_0", dag.vertexName(dag.firingVertex(dag.flatGraph().actor("top/H/out").index(), 0)));
    assertEquals("top/H/w_2", dag.vertexName(dag.firingVertex(dag.flatGraph().actor("top/H/w").index(), 2)));
  }

  @Test
  void nonPersistentDelayRestartsAtEachSubgraphFiring() {
    // H fires 3 times; inside, w loops on itself with 1 token and persistence NONE: 3 segments, each
    // INIT -> w_k -> END: 6 inserted vertices and 6 edges, besides src -> w (a fork: 4 edges).
    TestGraph sub = TestGraph.named("sub");
    Port subIn = sub.sourceInterface("in", "1");
    Actor w = sub.actor("w");
    sub.fifo(subIn, in(w, "i", "1"));
    delay(sub.connect(w, "o", "1", w, "self", "1"), "1", PersistenceLevel.NONE);
    TestGraph top = TestGraph.named("top");
    Actor src = top.actor("src");
    Actor h = top.hierarchical("H", sub);
    top.connect(src, "o", "3", h, "in", "1");
    Srdag dag = expand(top);
    assertEquals(3, dag.countVertices(ActorKind.INIT));
    assertEquals(3, dag.countVertices(ActorKind.END));
    assertEquals(0, dag.persistentDelayCount());
    assertEquals(4 + 6 + 1, dag.vertexCount());
    assertEquals(4 + 6, dag.edgeCount());
    List<String> edges = edges(dag);
    assertTrue(edges.contains("top/H/w_init_self_1.self -1-> top/H/w_1.self"), edges.toString());
    assertTrue(edges.contains("top/H/w_2.o -1-> top/H/w_end_o_2.o"), edges.toString());
  }

  @Test
  void localDelayChainsSubgraphFirings() {
    // same with LOCAL: one run across the 3 firings: INIT -> w0 -> w1 -> w2 -> END, no persistence pair
    TestGraph sub = TestGraph.named("sub");
    Port subIn = sub.sourceInterface("in", "1");
    Actor w = sub.actor("w");
    sub.fifo(subIn, in(w, "i", "1"));
    delay(sub.connect(w, "o", "1", w, "self", "1"), "1", PersistenceLevel.LOCAL);
    TestGraph top = TestGraph.named("top");
    Actor h = top.hierarchical("H", sub);
    top.connect(top.actor("src"), "o", "3", h, "in", "1");
    Srdag dag = expand(top);
    assertEquals(1, dag.countVertices(ActorKind.INIT));
    assertEquals(0, dag.persistentDelayCount());
    assertTrue(edges(dag).contains("top/H/w_0.o -1-> top/H/w_1.self"), edges(dag).toString());
  }

  @Test
  void setterAndGetterFiringsTakeTheInitAndEndPlaces() {
    // a -1-> 1- b with a delay of 2: setter s (1 per firing, fires twice), getter g (2 per firing, once).
    // Stream: s0 = [0,1) s1 = [1,2) a0 = [2,3); b0 = [0,1), g0 = [1,3). s0 fits b0: a direct edge. g0 outlasts
    // s1: join (<- s1, a0) -> g0. No INIT or END. Vertices: a, b, s x2, g, join = 6; edges 4.
    TestGraph top = TestGraph.named("top");
    Actor a = top.actor("a");
    Actor b = top.actor("b");
    var delay = delay(top.connect(a, "o", "1", b, "i", "1"), "2", PersistenceLevel.PERMANENT);
    top.setter(delay, top.actor("s"), "so", "1");
    top.getter(delay, top.actor("g"), "gi", "2");
    Srdag dag = expand(top);
    assertEquals(0, dag.countVertices(ActorKind.INIT));
    assertEquals(0, dag.countVertices(ActorKind.END));
    assertEquals(0, dag.persistentDelayCount());
    assertEquals(6, dag.vertexCount());
    // the join's output edge is created with the join, before its inputs
    assertEquals(List.of("top/s_0.so -1-> top/b_0.i", "implode_top/g_0_gi.o -2-> top/g_0.gi",
        "top/s_1.so -1-> implode_top/g_0_gi.gi_0", "top/a_0.o -1-> implode_top/g_0_gi.gi_1"), edges(dag));
    boolean[] fromSetter = new boolean[dag.edgeCount()];
    boolean[] toGetter = new boolean[dag.edgeCount()];
    for (int e = 0; e < dag.edgeCount(); e++) {
      fromSetter[e] = dag.isFromSetter(e);
      toGetter[e] = dag.isToGetter(e);
      assertFalse(dag.isFromInit(e) || dag.isToEnd(e), "setter / getter data are not delay tokens");
    }
    assertTrue(fromSetter[0] && !fromSetter[1] && fromSetter[2] && !fromSetter[3]);
    assertTrue(!toGetter[0] && toGetter[1] && toGetter[2] && toGetter[3]);
    assertEquals("top/g", dag.vertexActorPath(dag.edgeTarget(2)), "the join gathers for the getter");
  }

  @Test
  void setterForksWhenItsFiringFeedsSeveralConsumerFirings() {
    // a -1-> 1- b, delay 2 from setter s (2 per firing, once); no getter: END takes the 2 final tokens.
    // s0 = [0,2) against b0 = [0,1): fork (-> b0, b1); a0 = [2,3) a1 = [3,4) go to END through a join.
    TestGraph top = TestGraph.named("top");
    Actor a = top.actor("a");
    Actor b = top.actor("b");
    top.connect(top.actor("src"), "o", "2", a, "i", "1");
    var delay = delay(top.connect(a, "o", "1", b, "i", "1"), "2", PersistenceLevel.NONE);
    top.setter(delay, top.actor("s"), "so", "2");
    Srdag dag = expand(top);
    List<String> edges = edges(dag);
    assertTrue(edges.contains("top/s_0.so -2-> explode_top/s_0_so.i"), edges.toString());
    assertTrue(edges.contains("explode_top/s_0_so.so_1 -1-> top/b_1.i"), edges.toString());
    assertEquals(0, dag.countVertices(ActorKind.INIT));
    assertEquals(1, dag.countVertices(ActorKind.END));
    assertEquals("top/s", dag.vertexActorPath(dag.edgeTarget(edges.indexOf("top/s_0.so -2-> explode_top/s_0_so.i"))));
  }

  @Test
  void setterAndGetterRunOncePerSubgraphFiring() {
    // H fires 3 times; inside, w loops on itself with 1 token, persistence NONE, setter s and getter g (1
    // each): 3 runs s_k -> w_k -> g_k, no inserted vertices besides src's fork.
    TestGraph sub = TestGraph.named("sub");
    Actor w = sub.actor("w");
    sub.fifo(sub.sourceInterface("in", "1"), in(w, "i", "1"));
    var delay = delay(sub.connect(w, "o", "1", w, "self", "1"), "1", PersistenceLevel.NONE);
    sub.setter(delay, sub.actor("s"), "o", "1");
    sub.getter(delay, sub.actor("g"), "i", "1");
    TestGraph top = TestGraph.named("top");
    Actor h = top.hierarchical("H", sub);
    top.connect(top.actor("src"), "o", "3", h, "in", "1");
    Srdag dag = expand(top);
    assertEquals(3, dag.flatGraph().actor("top/H/s").repetitions());
    assertEquals(3, dag.flatGraph().actor("top/H/g").repetitions());
    assertEquals(0, dag.countVertices(ActorKind.INIT) + dag.countVertices(ActorKind.END));
    List<String> edges = edges(dag);
    assertTrue(edges.contains("top/H/s_1.o -1-> top/H/w_1.self"), edges.toString());
    assertTrue(edges.contains("top/H/w_2.o -1-> top/H/g_2.i"), edges.toString());
    assertEquals(1 + 3 * 3 + 1, dag.vertexCount());
  }

  @Test
  void setterThatWaitsOnItsOwnDelayIsALocatedError() {
    // a -> b with a delay set by s, but s reads what b produces: s0 waits on b0, which waits on s0
    TestGraph top = TestGraph.named("top");
    Actor b = top.actor("b");
    Actor setter = top.actor("s");
    Fifo delayed = top.connect(top.actor("a"), "o", "1", b, "i", "1");
    var delay = delay(delayed, "1", PersistenceLevel.NONE);
    top.setter(delay, setter, "so", "1");
    top.connect(b, "o", "1", setter, "si", "1");
    FlatGraph flat = GraphAnalysis.analyse(top.graph(), Map.of(), null).flatGraph();
    InputException error = assertThrows(InputException.class, () -> SingleRateExpansion.expand(flat));
    assertEquals(delayed.getLine(), error.location().line());
    assertTrue(error.getMessage().contains("setter 'top/s'") && error.getMessage().contains("cycle"),
        error.getMessage());
  }

  @Test
  void vertexLimitIsAnInputError() {
    TestGraph top = TestGraph.named("top");
    top.connect(top.actor("a"), "o", "1", top.actor("b"), "i", "1000");
    FlatGraph flat = GraphAnalysis.analyse(top.graph(), null, null).flatGraph();
    InputException error = assertThrows(InputException.class,
        () -> SingleRateExpansion.expand(flat, 500, ProgressListener.NONE));
    assertTrue(error.getMessage().contains("limit of 500"), error.getMessage());
    assertEquals(TestGraph.FILE, error.location().file());
  }

  @Test
  void progressCoversAllWork() {
    TestGraph top = TestGraph.named("top");
    top.connect(top.actor("a"), "o", "1", top.actor("b"), "i", "100000");
    FlatGraph flat = GraphAnalysis.analyse(top.graph(), null, null).flatGraph();
    long[] reported = new long[3];
    SingleRateExpansion.expand(flat, 1_000_000, new ProgressListener() {
      @Override
      public void begin(String task, long total) {
        reported[0] = total;
      }

      @Override
      public void worked(long units) {
        reported[1] += units;
      }

      @Override
      public void done() {
        reported[2]++;
      }
    });
    // firings 100001, plus both ends of the FIFO again
    assertEquals(2 * 100_001, reported[0]);
    assertEquals(reported[0], reported[1]);
    assertEquals(1, reported[2]);
  }

  @Test
  void largeExpansionIsLinear() {
    // a -1000-> 1- b: 1001 firings, one fork with 1000 outputs
    TestGraph top = TestGraph.named("top");
    top.connect(top.actor("a"), "o", "1000", top.actor("b"), "i", "1");
    Srdag dag = expand(top);
    assertEquals(1002, dag.vertexCount());
    assertEquals(1001, dag.edgeCount());
    int fork = dag.edgeTarget(0);
    assertEquals(1000, dag.outgoingEdges(fork).length);
    assertEquals("o_999", dag.edgeSourcePort(dag.outgoingEdges(fork)[999]));
    assertFalse(dag.isInserted(dag.edgeTarget(dag.outgoingEdges(fork)[0])));
  }
}
