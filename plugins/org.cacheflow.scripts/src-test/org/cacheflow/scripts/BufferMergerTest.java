package org.cacheflow.scripts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.cacheflow.model.MemoryAnnotation;
import org.cacheflow.scripts.merge.BufferMerger;
import org.cacheflow.scripts.merge.FifoInfo;
import org.cacheflow.scripts.merge.MergeResult;
import org.cacheflow.scripts.merge.Piece;
import org.junit.jupiter.api.Test;

/** Merging on small hand-made graphs whose outcome is worked out in the comments. */
class BufferMergerTest {

  private static final MemoryAnnotation RO = MemoryAnnotation.READ_ONLY;
  private static final MemoryAnnotation NONE = MemoryAnnotation.NONE;

  private static FifoInfo fifo(String id, String producer, String consumer, long bytes, MemoryAnnotation consumerPort) {
    return new FifoInfo(id, producer, consumer, bytes * 8, consumerPort == RO, true);
  }

  private static ScriptRun broadcast(String input, List<String> outputs, long bytes, MemoryAnnotation inPort,
      List<MemoryAnnotation> outPorts) {
    ScriptEnvironment.Builder builder = ScriptEnvironment.builder("B").input(new BufferSpec("in", input, bytes, 1,
        inPort));
    for (int i = 0; i < outputs.size(); i++) {
      builder.output(new BufferSpec("out" + i, outputs.get(i), bytes, 1, outPorts.get(i)));
    }
    return DefaultScripts.of(DefaultScripts.Kind.BROADCAST).evaluate(builder.build());
  }

  @Test
  void broadcastToReadersSharesOneBuffer() {
    // P -> B -> {R0, R1}, readers only read: both outputs live in B's input, 3 * 100 bytes become 100
    List<FifoInfo> fifos = List.of(fifo("in", "P", "B", 100, NONE), fifo("o0", "B", "R0", 100, RO),
        fifo("o1", "B", "R1", 100, RO));
    MergeResult result = BufferMerger.merge(fifos, List.of(broadcast("in", List.of("o0", "o1"), 100, NONE,
        List.of(RO, RO))));
    assertEquals(300, result.bytesBefore());
    assertEquals(100, result.bytesAfter());
    assertEquals(200, result.bytesSaved());
    assertEquals(List.of(new Piece(0, 800, "in", 0)), result.layout().get("o1"));
    assertEquals(List.of(), result.rejected());
  }

  @Test
  void aWritingReaderKeepsItsOwnCopy() {
    // R1 may write its input: it cannot share with R0's input, which lives at the same time
    List<FifoInfo> fifos = List.of(fifo("in", "P", "B", 100, NONE), fifo("o0", "B", "R0", 100, RO),
        fifo("o1", "B", "R1", 100, NONE));
    MergeResult result = BufferMerger.merge(fifos, List.of(broadcast("in", List.of("o0", "o1"), 100, NONE,
        List.of(RO, NONE))));
    assertEquals(100, result.bytesSaved());
    assertEquals(List.of(new Piece(0, 800, "o1", 0)), result.layout().get("o1"));
    assertEquals(1, result.rejected().size());
    assertTrue(result.rejected().get(0).contains("its consumer R1 may write it"), result.rejected().toString());
  }

  @Test
  void forkSlicesLiveInTheInputAndChainsCompose() {
    // P -> F (fork 12 -> 4 + 8) -> {C0, C1}; C1 works in place (o_out aliases i_in) -> D
    List<FifoInfo> fifos = List.of(fifo("in", "P", "F", 12, NONE), fifo("s0", "F", "C0", 4, NONE),
        fifo("s1", "F", "C1", 8, NONE), fifo("d", "C1", "D", 8, NONE));
    ScriptRun fork = DefaultScripts.of(DefaultScripts.Kind.FORK).evaluate(ScriptEnvironment.builder("F")
        .input(new BufferSpec("in", "in", 12, 1, NONE)).output(new BufferSpec("o0", "s0", 4, 1, NONE))
        .output(new BufferSpec("o1", "s1", 8, 1, NONE)).build());
    ScriptRun inPlace = MemoryScript.parse("o_out.matchWith(0, i_in, 0, 8);", "c1.bsh").evaluate(ScriptEnvironment
        .builder("C1").input(new BufferSpec("in", "s1", 8, 1, NONE)).output(new BufferSpec("out", "d", 8, 1, NONE))
        .build());
    List<ScriptRun> runs = new ArrayList<>(List.of(fork, inPlace));
    MergeResult result = BufferMerger.merge(fifos, runs);
    // P has no script, so the fork input stays contiguous: the slices live in it, at 0 and 4, and C1's output
    // lives in its input, hence in the fork input from byte 4
    assertEquals(12 + 4 + 8 + 8, result.bytesBefore());
    assertEquals(12, result.bytesAfter());
    assertEquals(List.of(new Piece(0, 32, "in", 0)), result.layout().get("s0"));
    assertEquals(List.of(new Piece(0, 64, "in", 32)), result.layout().get("d"));
  }

  @Test
  void splitWithOverlapDividesTheOutputOverTheInput() {
    // Split: 2 slices of 6 rows (4 rows + 1 overlap row each side), rows of 10 bytes, over a 8-row input
    String split = "sliceSize = width*(height/nbSlice+2*overlap);\n"
        + "for(i=0;i<nbSlice;i++){ o_output.matchWith(i*sliceSize, i_input, (i*height/nbSlice-overlap)*width,"
        + " sliceSize); }";
    ScriptRun run = MemoryScript.parse(split, "split.bsh").evaluate(ScriptEnvironment.builder("Split")
        .parameter("width", 10).parameter("height", 8).parameter("nbSlice", 2).parameter("overlap", 1)
        .input(new BufferSpec("input", "raw", 80, 1, NONE)).output(new BufferSpec("output", "slices", 120, 1, RO))
        .build());
    List<FifoInfo> fifos = List.of(fifo("raw", "P", "Split", 80, NONE), fifo("slices", "Split", "M", 120, RO));
    // the consumer M is scripted too (its script matches nothing), so the slices may be divided
    ScriptRun consumer = MemoryScript.parse("// reads its slices", "m.bsh").evaluate(ScriptEnvironment.builder("M")
        .input(new BufferSpec("slices", "slices", 120, 1, RO)).build());
    MergeResult result = BufferMerger.merge(fifos, List.of(run, consumer));
    assertEquals(List.of(new Piece(0, 480, "raw", -80), new Piece(480, 480, "raw", 240)),
        result.layout().get("slices"));
    // the input grows by one virtual row on each side: 100 bytes instead of 80 + 120
    assertEquals(100, result.bytesAfter());
    assertEquals(100, result.bytesSaved());
  }

  @Test
  void delayedFifosKeepTheirMemory() {
    List<FifoInfo> fifos = List.of(new FifoInfo("in", "P", "B", 800, false, false), fifo("o0", "B", "R0", 100, RO));
    MergeResult result = BufferMerger.merge(fifos, List.of(broadcast("in", List.of("o0"), 100, NONE, List.of(RO))));
    assertEquals(0, result.bytesSaved());
    assertTrue(result.rejected().get(0).contains("keeps its own memory"), result.rejected().toString());
  }
}
