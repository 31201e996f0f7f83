package org.cacheflow.analysis;

import static org.cacheflow.analysis.TestGraph.delay;
import static org.cacheflow.analysis.TestGraph.in;
import static org.cacheflow.analysis.TestGraph.out;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.cacheflow.model.Actor;
import org.cacheflow.model.ActorKind;
import org.cacheflow.model.Fifo;
import org.cacheflow.model.Parameter;
import org.cacheflow.model.PersistenceLevel;
import org.cacheflow.model.Port;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.junit.jupiter.api.Test;

/**
 * Repetition vectors, consistency, liveness, flattening and buffer sizes on small graphs whose figures are
 * derived by hand in the comments.
 */
class GraphAnalysisTest {

  private static AnalysisResult analyse(TestGraph graph) {
    return GraphAnalysis.analyse(graph.graph(), Map.of(), new Diagnostics());
  }

  @Test
  void chainRepetitionVector() {
    // a -2-> 3- b -1-> 2- c: 2 r(a) = 3 r(b), r(b) = 2 r(c) -> minimal (3, 2, 1)
    TestGraph top = TestGraph.named("top");
    Actor a = top.actor("a");
    Actor b = top.actor("b");
    Actor c = top.actor("c");
    top.connect(a, "o", "2", b, "i", "3");
    top.connect(b, "o", "1", c, "i", "2");
    AnalysisResult result = analyse(top);
    assertEquals(Map.of("top/a", 3L, "top/b", 2L, "top/c", 1L), result.repetitions());
    assertEquals(List.of("top/a", "top/b", "top/c"), new ArrayList<>(result.repetitions().keySet()));
  }

  @Test
  void componentsAreMinimalSeparately() {
    // two unconnected components: (x 5 -> 3 y) gives (3, 5); the lone z fires once
    TestGraph top = TestGraph.named("top");
    Actor x = top.actor("x");
    Actor y = top.actor("y");
    top.actor("z");
    top.connect(x, "o", "5", y, "i", "3");
    AnalysisResult result = analyse(top);
    assertEquals(3, result.repetitions("top/x"));
    assertEquals(5, result.repetitions("top/y"));
    assertEquals(1, result.repetitions("top/z"));
  }

  @Test
  void parameterisedRatesUseConfigInputs() {
    // N = 4 reaches a and b through dependencies: a -N-> 1- b gives (1, 4); an override N = 6 gives (1, 6)
    TestGraph top = TestGraph.named("top");
    Parameter n = top.parameter("N", "2*2");
    Actor a = top.actor("a");
    Actor b = top.actor("b");
    top.dependency(n, a);
    top.connect(a, "o", "N", b, "i", "1");
    assertEquals(4, analyse(top).repetitions("top/b"));
    Diagnostics warnings = new Diagnostics();
    AnalysisResult overridden = GraphAnalysis.analyse(top.graph(), Map.of("top/N", "6", "unknown", "3"),
        warnings);
    assertEquals(6, overridden.repetitions("top/b"));
    assertEquals(Map.of("N", 6L), overridden.flatGraph().actor("top/a").configValues());
    assertTrue(warnings.warnings().stream().anyMatch(w -> w.message().contains("'unknown'")),
        warnings.warnings().toString());
    assertEquals(5, GraphAnalysis.analyse(top.graph(), Map.of("N", "5"), null).repetitions("top/b"));
  }

  @Test
  void inconsistentGraphNamesTheFailingFifo() {
    // a -2-> 3- b, b -1-> 1- c, a -1-> 1- c: the last two force r(a) = r(b) = r(c), the first 2 r(a) = 3 r(b).
    // Breadth-first from a: r(b) = 2/3, r(c) = 1 -> (3, 2, 3); b -> c then fails: 1 x 2 != 1 x 3
    TestGraph top = TestGraph.named("top");
    Actor a = top.actor("a");
    Actor b = top.actor("b");
    Actor c = top.actor("c");
    top.connect(a, "o", "2", b, "i", "3");
    Fifo bc = top.connect(b, "o", "1", c, "i", "1");
    top.connect(a, "o2", "1", c, "i2", "1");
    InputException error = assertThrows(InputException.class, () -> analyse(top));
    assertEquals(bc.getLine(), error.location().line());
    assertEquals(TestGraph.FILE, error.location().file());
    assertTrue(error.getMessage().contains("not consistent"), error.getMessage());
    assertTrue(error.getMessage().contains("top/b.o -> top/c.i: 1 x r(top/b) != 1 x r(top/c)"), error.getMessage());
    assertTrue(error.getMessage().contains("r(top/b) = 2, r(top/c) = 3"), error.getMessage());
  }

  @Test
  void zeroRateOnOneSideIsAnError() {
    TestGraph top = TestGraph.named("top");
    Fifo fifo = top.connect(top.actor("a"), "o", "0", top.actor("b"), "i", "2");
    InputException error = assertThrows(InputException.class, () -> analyse(top));
    assertEquals(fifo.getLine(), error.location().line());
    assertTrue(error.getMessage().contains("rate of 0 on only one side"), error.getMessage());
  }

  @Test
  void zeroRatesOnBothSidesCarryNothing() {
    // the 0/0 FIFO imposes nothing: a and b are separate components, each firing once
    TestGraph top = TestGraph.named("top");
    top.connect(top.actor("a"), "o", "0", top.actor("b"), "i", "0");
    AnalysisResult result = analyse(top);
    assertEquals(1, result.repetitions("top/a"));
    assertEquals(0, result.buffers().get(0).tokensPerIteration());
  }

  @Test
  void negativeRateIsReportedAtThePort() {
    TestGraph top = TestGraph.named("top");
    Actor a = top.actor("a");
    Actor b = top.actor("b");
    Port negative = out(a, "o", "2-5");
    top.fifo(negative, in(b, "i", "1"));
    InputException error = assertThrows(InputException.class, () -> analyse(top));
    assertEquals(negative.getLine(), error.location().line());
    assertTrue(error.getMessage().contains("negative rate"), error.getMessage());
    assertTrue(error.getMessage().contains("top/a.o"), error.getMessage());
  }

  @Test
  void divisionByZeroInARateIsReportedAtThePort() {
    TestGraph top = TestGraph.named("top");
    Parameter n = top.parameter("N", "2");
    Actor a = top.actor("a");
    Actor b = top.actor("b");
    top.dependency(n, a);
    Port port = out(a, "o", "4/(N-2)");
    top.fifo(port, in(b, "i", "1"));
    InputException error = assertThrows(InputException.class, () -> analyse(top));
    assertEquals(TestGraph.FILE, error.location().file());
    assertEquals(port.getLine(), error.location().line());
  }

  @Test
  void repetitionOverflowIsAnError() {
    // 2^32 per firing twice in a row makes r(c) = 2^64, beyond a long
    TestGraph top = TestGraph.named("top");
    Actor a = top.actor("a");
    Actor b = top.actor("b");
    Actor c = top.actor("c");
    top.connect(a, "o", "4294967296", b, "i", "1");
    top.connect(b, "o", "4294967296", c, "i", "1");
    InputException error = assertThrows(InputException.class, () -> analyse(top));
    assertTrue(error.getMessage().contains("64-bit"), error.getMessage());
  }

  @Test
  void cycleWithEnoughDelayIsLive() {
    // a -2-> 3- b and b -3-> 2- a: (3, 2). With 4 initial tokens on b -> a: a fires twice (4 tokens),
    // b once (4 >= 3), a once more, b once more: the iteration completes.
    TestGraph top = TestGraph.named("top");
    Actor a = top.actor("a");
    Actor b = top.actor("b");
    top.connect(a, "o", "2", b, "i", "3");
    Fifo back = top.connect(b, "o", "3", a, "i", "2");
    delay(back, "4", PersistenceLevel.PERMANENT);
    AnalysisResult result = analyse(top);
    assertEquals(3, result.repetitions("top/a"));
    assertEquals(2, result.repetitions("top/b"));
    FlatFifo flatBack = result.flatGraph().fifo(1);
    assertEquals(4, flatBack.delay());
    assertTrue(flatBack.delayPersistent());
  }

  @Test
  void cycleWithTooFewTokensDeadlocks() {
    // same cycle with 3 initial tokens: a fires once (3 -> 1 left), b needs 3 but has 2: stuck
    TestGraph top = TestGraph.named("top");
    Actor a = top.actor("a");
    Actor b = top.actor("b");
    Fifo forward = top.connect(a, "o", "2", b, "i", "3");
    Fifo back = top.connect(b, "o", "3", a, "i", "2");
    delay(back, "3", PersistenceLevel.PERMANENT);
    InputException error = assertThrows(InputException.class, () -> analyse(top));
    String message = error.getMessage();
    assertTrue(message.startsWith("deadlock: the cycle "), message);
    assertTrue(message.contains("top/a -> top/b -> top/a") || message.contains("top/b -> top/a -> top/b"),
        message);
    assertTrue(message.contains("test.pi:" + forward.getLine() + ":3: top/a.o -> top/b.i has 0 initial tokens"),
        message);
    assertTrue(message.contains("test.pi:" + back.getLine() + ":3: top/b.o -> top/a.i has 3 initial tokens"),
        message);
    assertTrue(message.contains("top/a fired 1 of 3 times"), message);
  }

  @Test
  void selfLoopWithoutDelayDeadlocks() {
    TestGraph top = TestGraph.named("top");
    Actor a = top.actor("a");
    Fifo loop = top.connect(a, "o", "1", a, "i", "1");
    InputException error = assertThrows(InputException.class, () -> analyse(top));
    assertEquals(loop.getLine(), error.location().line());
    assertTrue(error.getMessage().contains("top/a -> top/a"), error.getMessage());
  }

  @Test
  void negativeDelayIsReportedAtTheDelay() {
    TestGraph top = TestGraph.named("top");
    Fifo fifo = top.connect(top.actor("a"), "o", "1", top.actor("b"), "i", "1");
    var delay = delay(fifo, "-1", PersistenceLevel.PERMANENT);
    InputException error = assertThrows(InputException.class, () -> analyse(top));
    assertEquals(delay.getLine(), error.location().line());
  }

  @Test
  void bufferSizesInBytes() {
    // a -2-> 3- b: r = (3, 2), 6 tokens per iteration. 32-bit tokens: 24 bytes. 12-bit: 72 bits = 9 bytes.
    // Without a size: 8 bits assumed and flagged, 6 bytes.
    TestGraph top = TestGraph.named("top");
    Actor a = top.actor("a");
    Actor b = top.actor("b");
    top.fifo(out(a, "o1", "2"), in(b, "i1", "3"), "int", 32);
    top.fifo(out(a, "o2", "2"), in(b, "i2", "3"), "twelve", 12);
    Fifo unsized = top.fifo(out(a, "o3", "2"), in(b, "i3", "3"), "mystery", 0);
    delay(unsized, "1", PersistenceLevel.NONE);
    Diagnostics warnings = new Diagnostics();
    AnalysisResult result = GraphAnalysis.analyse(top.graph(), null, warnings);
    List<FifoBuffer> buffers = result.buffers();
    assertEquals(6, buffers.get(0).tokensPerIteration());
    assertEquals(24, buffers.get(0).bytesPerIteration());
    assertEquals(9, buffers.get(1).bytesPerIteration());
    assertEquals(6, buffers.get(2).bytesPerIteration());
    assertEquals(1, buffers.get(2).delayBytes());
    assertTrue(buffers.get(2).tokenBitsDefaulted());
    assertFalse(buffers.get(0).tokenBitsDefaulted());
    assertEquals(24 + 9 + 6, result.totalBufferBytes());
    assertTrue(warnings.warnings().stream().anyMatch(w -> w.message().contains("'mystery' has no size")),
        warnings.warnings().toString());
    // 3 tokens of 12 bits = 36 bits -> 5 bytes, rounded up
    assertEquals(5, result.flatGraph().fifo(1).bytesFor(3));
  }

  // ---------------------------------------------------------------------------------------------------
  // Hierarchy

  /**
   * top: src -6-> [H: in -> w -> out] -2-> snk, w reading 2 and writing 1 per firing.
   *
   * <p>
   * Inside H, w alone has r = 1; the source interface brings 6 tokens per H firing and w reads 2, so w is
   * scaled to 3 (PREESM's updateRVWithInterfaces). The sink interface wants 2 and w writes 3 x 1 = 3 >= 2.
   * The input broadcast passes 6 -> 6 and is removed; the output round buffer takes 3 and keeps the last 2.
   * Top: r(src) = r(H) = r(snk) = 1, so r(top/H/w) = 3.
   */
  static TestGraph hierarchicalExample(String sourceRate) {
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
    top.fifo(out(src, "o", sourceRate), in(h, "in", "6"), "char", 8);
    top.fifo(out(h, "out", "2"), in(snk, "i", "2"), "char", 8);
    return top;
  }

  @Test
  void hierarchyFlattensWithInterfaceActors() {
    AnalysisResult result = analyse(hierarchicalExample("6"));
    FlatGraph flat = result.flatGraph();
    assertEquals(Map.of("top/src", 1L, "top/H/w", 3L, "top/H/out", 1L, "top/snk", 1L), result.repetitions());
    assertNull(flat.actor("top/H/in"), "the identity broadcast is removed");
    FlatActor roundBuffer = flat.actor("top/H/out");
    assertEquals(ActorKind.ROUNDBUFFER, roundBuffer.kind());
    assertTrue(roundBuffer.fromInterface());
    assertEquals(3, roundBuffer.port("if_out").rate());
    assertEquals(2, roundBuffer.port("out").rate());
    // src.o -> w.i joined through the removed broadcast, keeping the outer FIFO's type
    FlatFifo joined = flat.fifo(flat.actor("top/src").ports().get(0).fifo());
    assertEquals("top/src.o -> top/H/w.i", flat.describe(joined));
    assertEquals(6, joined.production());
    assertEquals(2, joined.consumption());
    assertEquals("char", joined.type());
  }

  @Test
  void hierarchicalActorFiringTwiceMultipliesInnerRepetitions() {
    // src writes 12, H reads 6: r(H) = 2, so w fires 2 x 3 = 6 times and the round buffer twice
    AnalysisResult result = analyse(hierarchicalExample("12"));
    assertEquals(6, result.repetitions("top/H/w"));
    assertEquals(2, result.repetitions("top/H/out"));
    // H writes 2 per firing, twice: snk (reading 2) fires twice
    assertEquals(2, result.repetitions("top/snk"));
  }

  @Test
  void sourceInterfaceBroadcastsWhenTheSubgraphReadsMore() {
    // H gets 2 tokens per firing but w reads 3: no scaling is needed (3 >= 2), w fires once per H firing
    // and a broadcast 2 -> 3 stands for the interface (PREESM repeats the parent's tokens)
    TestGraph sub = TestGraph.named("sub");
    Port subIn = sub.sourceInterface("in", "2");
    Actor w = sub.actor("w");
    sub.fifo(subIn, in(w, "i", "3"));
    TestGraph top = TestGraph.named("top");
    Actor src = top.actor("src");
    Actor h = top.hierarchical("H", sub);
    top.connect(src, "o", "1", h, "in", "2");
    AnalysisResult result = analyse(top);
    assertEquals(Map.of("top/src", 2L, "top/H/in", 1L, "top/H/w", 1L), result.repetitions());
    FlatActor broadcast = result.flatGraph().actor("top/H/in");
    assertEquals(ActorKind.BROADCAST, broadcast.kind());
    assertEquals(2, broadcast.port("in").rate());
    assertEquals(3, broadcast.port("if_in").rate());
  }

  @Test
  void configInputsFlowIntoSubgraphs() {
    // top N = 3 -> H's port N -> sub's config input N -> w reads N per firing from an interface giving 6:
    // w is scaled to 6 / 3 = 2 firings; an override sub-path value does not apply to a config input
    TestGraph sub = TestGraph.named("sub");
    Parameter innerN = sub.configInput("N");
    Port subIn = sub.sourceInterface("in", "6");
    Actor w = sub.actor("w");
    sub.dependency(innerN, w);
    sub.fifo(subIn, in(w, "i", "N"));
    TestGraph top = TestGraph.named("top");
    Parameter n = top.parameter("N", "3");
    Actor src = top.actor("src");
    Actor h = top.hierarchical("H", sub);
    top.dependency(n, h);
    top.connect(src, "o", "6", h, "in", "6");
    AnalysisResult result = analyse(top);
    assertEquals(2, result.repetitions("top/H/w"));
    assertEquals(Map.of("N", 3L), result.flatGraph().actor("top/H/w").configValues());
    assertEquals(3, GraphAnalysis.analyse(top.graph(), Map.of("top/N", "2"), null).repetitions("top/H/w"));
  }

  @Test
  void inconsistentSubgraphNamesItsPath() {
    TestGraph sub = TestGraph.named("sub");
    Actor x = sub.actor("x");
    Actor y = sub.actor("y");
    sub.connect(x, "o", "2", y, "i", "1");
    sub.connect(y, "o", "1", x, "i", "1");
    TestGraph top = TestGraph.named("top");
    top.hierarchical("H", sub);
    InputException error = assertThrows(InputException.class, () -> analyse(top));
    assertTrue(error.getMessage().contains("graph 'top/H' is not consistent"), error.getMessage());
    assertTrue(error.getMessage().contains("top/H/"), error.getMessage());
  }

  @Test
  void interfaceWithoutMatchingPortIsAnError() {
    TestGraph sub = TestGraph.named("sub");
    Port subIn = sub.sourceInterface("data", "1");
    sub.fifo(subIn, in(sub.actor("w"), "i", "1"));
    TestGraph top = TestGraph.named("top");
    top.hierarchical("H", sub);
    InputException error = assertThrows(InputException.class, () -> analyse(top));
    assertTrue(error.getMessage().contains("interface 'data'"), error.getMessage());
    assertEquals(subIn.getActor().getLine(), error.location().line());
  }

  @Test
  void hierarchicalPortWithoutInterfaceIsAnError() {
    TestGraph sub = TestGraph.named("sub");
    sub.actor("w");
    TestGraph top = TestGraph.named("top");
    Actor h = top.hierarchical("H", sub);
    Port dangling = in(h, "data", "1");
    top.fifo(out(top.actor("src"), "o", "1"), dangling);
    InputException error = assertThrows(InputException.class, () -> analyse(top));
    assertEquals(dangling.getLine(), error.location().line());
    assertTrue(error.getMessage().contains("port 'data' of hierarchical actor 'top/H'"), error.getMessage());
  }

  @Test
  void delaySetterAndGetterAreActorsThatEndTheDelay() {
    // a -> b with 2 initial tokens from setter s (1 token per firing: the delay's actor fires once, so s
    // fires twice) and final tokens to getter g (2 per firing: once). Nothing persists across iterations.
    TestGraph top = TestGraph.named("top");
    Actor a = top.actor("a");
    Actor b = top.actor("b");
    Actor setter = top.actor("s");
    Actor getter = top.actor("g");
    Fifo fifo = top.connect(a, "o", "1", b, "i", "1");
    var delay = delay(fifo, "2", PersistenceLevel.PERMANENT);
    top.setter(delay, setter, "so", "1");
    top.getter(delay, getter, "gi", "2");
    Diagnostics warnings = new Diagnostics();
    FlatGraph flat = GraphAnalysis.analyse(top.graph(), null, warnings).flatGraph();
    assertEquals(1, flat.fifos().size(), "the setter and getter FIFOs are no FIFOs of their own");
    FlatFifo flatFifo = flat.fifo(0);
    assertEquals(2, flatFifo.delay());
    assertEquals(flat.actor("top/s").index(), flatFifo.setter());
    assertEquals("so", flatFifo.setterPort());
    assertEquals(flat.actor("top/g").index(), flatFifo.getter());
    assertEquals("gi", flatFifo.getterPort());
    assertFalse(flatFifo.delayPersistent());
    assertEquals(1, flatFifo.delaySegments());
    assertEquals(2, flat.actor("top/s").repetitions());
    assertEquals(1, flat.actor("top/g").repetitions());
    assertEquals(0, flat.actor("top/s").port("so").fifo(), "the setter's port writes the delayed FIFO");
    assertEquals(0, flat.actor("top/g").port("gi").fifo());
    assertTrue(warnings.warnings().stream().noneMatch(w -> w.message().contains("delay")
        || w.message().contains("not connected")), warnings.warnings().toString());
  }

  @Test
  void setterThatDoesNotGiveTheDelaySizeIsALocatedError() {
    // s gives 2 tokens per firing to a delay of 3: the delay's actor would fire 2 times for 3 of s
    TestGraph top = TestGraph.named("top");
    Fifo fifo = top.connect(top.actor("a"), "o", "1", top.actor("b"), "i", "1");
    var delay = delay(fifo, "3", PersistenceLevel.NONE);
    Fifo setterFifo = top.setter(delay, top.actor("s"), "o", "2");
    InputException error = assertThrows(InputException.class, () -> analyse(top));
    assertEquals(setterFifo.getLine(), error.location().line());
    assertTrue(error.getMessage().contains("setter 's'") && error.getMessage().contains("produces 2 tokens")
        && error.getMessage().contains("holds 3 tokens"), error.getMessage());
  }

  @Test
  void setterInsideASubgraphNeedsPersistenceNone() {
    TestGraph sub = TestGraph.named("sub");
    Actor w = sub.actor("w");
    sub.fifo(sub.sourceInterface("in", "1"), in(w, "i", "1"));
    var delay = delay(sub.connect(w, "o", "1", w, "self", "1"), "1", PersistenceLevel.LOCAL);
    sub.setter(delay, sub.actor("s"), "o", "1");
    TestGraph top = TestGraph.named("top");
    Actor h = top.hierarchical("H", sub);
    top.connect(top.actor("src"), "o", "3", h, "in", "1");
    InputException error = assertThrows(InputException.class, () -> analyse(top));
    assertEquals(delay.getLine(), error.location().line());
    assertTrue(error.getMessage().contains("only persistence NONE"), error.getMessage());
  }

  @Test
  void setterThatIsTheDelayedFifosProducerIsRejected() {
    TestGraph top = TestGraph.named("top");
    Actor a = top.actor("a");
    var delay = delay(top.connect(a, "o", "1", top.actor("b"), "i", "1"), "1", PersistenceLevel.NONE);
    Fifo setterFifo = top.setter(delay, a, "init", "1");
    InputException error = assertThrows(InputException.class, () -> analyse(top));
    assertEquals(setterFifo.getLine(), error.location().line());
    assertTrue(error.getMessage().contains("producer of the delayed FIFO"), error.getMessage());
  }

  @Test
  void delayPersistenceInsideSubgraphs() {
    // H fires 3 times (src writes 3, H reads 1). Inside, w loops on itself through three delayed FIFOs.
    // NONE restarts at each H firing: 3 segments. LOCAL keeps tokens across the H firings of one
    // iteration: 1 segment, not persistent. PERMANENT: 1 segment carried to the next iteration.
    TestGraph sub = TestGraph.named("sub");
    Port subIn = sub.sourceInterface("in", "1");
    Actor w = sub.actor("w");
    sub.fifo(subIn, in(w, "i", "1"));
    delay(sub.connect(w, "n_o", "1", w, "n_i", "1"), "1", PersistenceLevel.NONE);
    delay(sub.connect(w, "l_o", "1", w, "l_i", "1"), "1", PersistenceLevel.LOCAL);
    delay(sub.connect(w, "p_o", "1", w, "p_i", "1"), "1", PersistenceLevel.PERMANENT);
    TestGraph top = TestGraph.named("top");
    Actor src = top.actor("src");
    Actor h = top.hierarchical("H", sub);
    top.connect(src, "o", "3", h, "in", "1");
    FlatGraph flat = analyse(top).flatGraph();
    FlatActor inner = flat.actor("top/H/w");
    assertEquals(3, inner.repetitions());
    FlatFifo none = flat.fifo(inner.port("n_o").fifo());
    FlatFifo local = flat.fifo(inner.port("l_o").fifo());
    FlatFifo permanent = flat.fifo(inner.port("p_o").fifo());
    assertEquals(3, none.delaySegments());
    assertFalse(none.delayPersistent());
    assertEquals(1, local.delaySegments());
    assertFalse(local.delayPersistent());
    assertEquals(1, permanent.delaySegments());
    assertTrue(permanent.delayPersistent());
  }

  @Test
  void progressIsReported() {
    List<String> events = new ArrayList<>();
    ProgressListener listener = new ProgressListener() {
      @Override
      public void begin(String task, long total) {
        events.add("begin " + task);
      }

      @Override
      public void worked(long units) {
        events.add("worked " + units);
      }

      @Override
      public void done() {
        events.add("done");
      }
    };
    GraphAnalysis.analyse(hierarchicalExample("6").graph(), null, null, listener);
    // two levels flattened
    assertEquals(List.of("begin flattening top", "worked 1", "worked 1", "done"), events);
  }

  @Test
  void flatGraphIndexesFifosByActor() {
    AnalysisResult result = analyse(hierarchicalExample("6"));
    FlatGraph flat = result.flatGraph();
    FlatActor w = flat.actor("top/H/w");
    assertNotNull(w);
    assertEquals(1, flat.inputFifos(w.index()).length);
    assertEquals(1, flat.outputFifos(w.index()).length);
    assertEquals(3 + 1 + 1 + 1, flat.totalFirings());
  }
}
