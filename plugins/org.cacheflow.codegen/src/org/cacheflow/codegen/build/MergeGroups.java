package org.cacheflow.codegen.build;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The plan's aliasing. Every buffer of a memory-script merge group lives in its root's memory at the merger's
 * offset (in pieces when the merger divided it); copy-on-write views keep their own.
 */
final class MergeGroups {

  private MergeGroups() {
  }

  static Roots of(BuildInput in, CowViews cow) {
    int[] host = new int[in.edges];
    Arrays.fill(host, -1);
    long[] offsetInRoot = new long[in.edges];
    long[] groupBytes = new long[in.edges];
    List<List<Piece>> pieces = new ArrayList<>(Collections.nCopies(in.edges, (List<Piece>) null));
    for (int e = 0; e < in.edges; e++) {
      int r = in.plan.mergeRoot(e);
      if (r >= 0 && !cow.isView(e)) {
        offsetInRoot[e] = in.plan.mergeOffset(e);
        pieces.set(e, pieces(in.plan.mergePieces(e)));
        if (r == e) {
          groupBytes[e] = in.plan.groupBytes(e);
        } else {
          host[e] = r;
        }
      }
    }
    return new Roots(in, host, offsetInRoot, pieces, groupBytes);
  }

  /** The plan's pieces, {first byte, byte in the root, bytes} each, as records; null stays null. */
  private static List<Piece> pieces(long[][] planned) {
    if (planned == null) {
      return null;
    }
    List<Piece> pieces = new ArrayList<>(planned.length);
    for (long[] piece : planned) {
      pieces.add(new Piece(piece[0], piece[1], piece[2]));
    }
    return List.copyOf(pieces);
  }
}
