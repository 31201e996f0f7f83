package org.cacheflow.plan.classify;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.LongStream;

import org.cacheflow.scripts.merge.Piece;
import org.junit.jupiter.api.Test;

/** How a merged buffer's place in its group reads in the plan's reasons. */
class MergeTextTest {

  @Test
  void aRangeThatRepeatsIsWrittenOnceWithItsCount() {
    // a broadcast's 32 single-rate pieces all lie at the same bytes of the root (stereo's BroadcastLeft)
    List<Piece> broadcast = LongStream.range(0, 32)
        .mapToObj(i -> new Piece(i * 196608 * 8, 196608 * 8, "root", 0)).toList();
    assertEquals("bytes [0, 196608) (32 times)", ScriptMemoryFacts.pieces(broadcast));
  }

  @Test
  void distinctRangesStayInOrderAndBitsStayBits() {
    List<Piece> pieces = List.of(new Piece(0, 64, "root", 0), new Piece(64, 64, "root", 64),
        new Piece(128, 64, "root", 64), new Piece(192, 3, "root", 5));
    assertEquals("bytes [0, 8), bytes [8, 16) (2 times), bits [5, 8)", ScriptMemoryFacts.pieces(pieces));
  }
}
