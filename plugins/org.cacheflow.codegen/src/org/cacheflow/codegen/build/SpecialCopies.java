package org.cacheflow.codegen.build;

import java.util.ArrayList;
import java.util.List;

import org.cacheflow.model.ActorKind;
import org.cacheflow.plan.classify.Classifier;
import org.cacheflow.analysis.srdag.SpecialCopy;

/**
 * Pass 4: what each special vertex (fork, join, broadcast, round buffer, a delay's init or end) still copies once
 * aliasing is decided: only the bytes its destination's consumer reads, cut to the buffers' sizes, addressed in the
 * roots' memory; a copy whose source and destination are the same bytes disappears.
 */
final class SpecialCopies implements Pass {

  private BuildContext c;

  @Override
  public void run(BuildContext context) {
    this.c = context;
    for (int v = 0; v < c.srdag.vertexCount(); v++) {
      List<Move> all = movesOf(v);
      List<Move> needed = new ArrayList<>(all.size());
      List<Move> clamped = new ArrayList<>(all.size());
      for (Move move : all) {
        Move live = liveOnly(v, move);
        if (live != null) {
          clamped.addAll(clamped(live));
        }
      }
      for (Move move : clamped) {
        if (move.destination() < c.edges && c.cowOfView[move.destination()] >= 0) {
          continue;
        }
        if (touchesDivided(move)) {
          needed.addAll(piecewise(move));
        } else if (!inPlace(move)) {
          needed.add(move);
        }
      }
      c.moves.add(needed);
    }
    for (int e = 0; e < c.edges; e++) {
      if (c.pieces[e] != null && (!c.isSpecial(c.srdag.edgeSource(e)) || !c.isSpecial(c.srdag.edgeTarget(e)))) {
        throw new IllegalStateException(c.describe(e) + " lies in pieces but an actor accesses it as one block");
      }
    }
  }

  /**
   * The move cut to its destination's size, and to its source's with zeros for the rest. Sizes are rounded up
   * to whole bytes per buffer, so with tokens that are not whole bytes the slices a fork or join moves (each
   * rounded on its own) can add up to more or less than the buffer they come from or go to; zeros keep what a
   * slice lacks the same under every strategy.
   */
  private List<Move> clamped(Move move) {
    long bytes = Math.min(move.bytes(), c.bufferBytes(move.destination()) - move.destinationOffset());
    if (bytes <= 0) {
      return List.of();
    }
    long available = move.source() < 0 ? bytes
        : Math.max(0, Math.min(bytes, c.bufferBytes(move.source()) - move.sourceOffset()));
    if (available == move.bytes()) {
      return List.of(move);
    }
    List<Move> parts = new ArrayList<>(2);
    if (available > 0) {
      parts.add(new Move(move.source(), move.sourceOffset(), move.destination(), move.destinationOffset(), available));
    }
    if (available < bytes) {
      parts.add(new Move(-1, 0, move.destination(), move.destinationOffset() + available, bytes - available));
    }
    return parts;
  }

  /**
   * The part of a fork's, join's, broadcast's or round buffer's copy that its destination's consumer reads
   * ({@link ExecutionPlan#liveRange}), null when it reads none of it; other vertices' moves unchanged.
   */
  private Move liveOnly(int vertex, Move move) {
    if (c.srdag.isInserted(vertex) && (c.srdag.vertexKind(vertex) == ActorKind.INIT
        || c.srdag.vertexKind(vertex) == ActorKind.END) || move.destination() >= c.edges) {
      return move;
    }
    long[] live = c.plan.liveRange(move.destination());
    long from = Math.max(move.destinationOffset(), live[0]);
    long to = Math.min(move.destinationOffset() + move.bytes(), live[1]);
    if (from >= to) {
      return null;
    }
    long skipped = from - move.destinationOffset();
    return new Move(move.source(), move.source() < 0 ? 0 : move.sourceOffset() + skipped, move.destination(), from,
        to - from);
  }

  private boolean touchesDivided(Move move) {
    return move.source() >= 0 && move.source() < c.edges && c.pieces[move.source()] != null
        || move.destination() < c.edges && c.pieces[move.destination()] != null;
  }

  /**
   * Where byte {@code offset} of an edge lies: {root, byte in the root's memory counted from the root's own
   * first byte, bytes from there that stay contiguous}.
   */
  private long[] locate(int edge, long offset) {
    if (edge >= c.edges) {
      return new long[] {edge, offset, Long.MAX_VALUE};
    }
    if (c.pieces[edge] == null) {
      int r = c.root(edge);
      return new long[] {r, c.rootOffset(edge) - c.rootOffset(r) + offset, c.srdag.edgeBytes(edge) - offset};
    }
    int r = c.root(edge);
    for (long[] piece : c.pieces[edge]) {
      if (offset >= piece[0] && offset < piece[0] + piece[2]) {
        return new long[] {r, piece[1] - c.rootOffset(r) + offset - piece[0], piece[0] + piece[2] - offset};
      }
    }
    throw new IllegalStateException("byte " + offset + " of " + c.describe(edge) + " lies in none of its pieces");
  }

  /**
   * A copy from or into a divided buffer, cut where pieces end and addressed in the roots' memory; the parts
   * whose source and destination are the same bytes are left out.
   */
  private List<Move> piecewise(Move move) {
    List<Move> parts = new ArrayList<>();
    long done = 0;
    while (done < move.bytes()) {
      long[] to = locate(move.destination(), move.destinationOffset() + done);
      long length = Math.min(move.bytes() - done, to[2]);
      long[] from = null;
      if (move.source() >= 0) {
        from = locate(move.source(), move.sourceOffset() + done);
        length = Math.min(length, from[2]);
      }
      Move part = new Move(from == null ? -1 : (int) from[0], from == null ? 0 : from[1], (int) to[0], to[1], length);
      if (part.source() < 0 || part.source() >= c.edges || part.destination() >= c.edges || !inPlace(part)) {
        parts.add(part);
      }
      done += length;
    }
    return parts;
  }

  /**
   * Whether a copy is already done by the memory layout: source and destination are the same bytes of one
   * root. Partly overlapping ranges would be a merge the merger must not make.
   */
  private boolean inPlace(Move move) {
    if (move.source() < 0 || move.source() >= c.edges || move.destination() >= c.edges
        || c.root(move.source()) != c.root(move.destination())) {
      return false;
    }
    long from = c.rootOffset(move.source()) + move.sourceOffset();
    long to = c.rootOffset(move.destination()) + move.destinationOffset();
    if (from != to && from < to + move.bytes() && to < from + move.bytes()) {
      throw new IllegalStateException("merged buffers " + c.describe(move.source()) + " and "
          + c.describe(move.destination()) + " overlap without being the same bytes");
    }
    return from == to;
  }

  /** The copies a special vertex still has to make once aliasing is decided (nothing for actor firings). */
  private List<Move> movesOf(int vertex) {
    if (!c.isSpecial(vertex)) {
      return List.of();
    }
    int[] in = c.inputs(vertex);
    int[] out = c.outputs(vertex);
    List<Move> result = new ArrayList<>();
    ActorKind kind = c.srdag.vertexKind(vertex);
    if (c.srdag.isInserted(vertex) && kind == ActorKind.INIT) {
      int state = c.persistentOfInit[vertex];
      for (int e : out) {
        result.add(new Move(state < 0 ? -1 : c.edges + state, 0, e, 0, c.srdag.edgeBytes(e)));
      }
      return result;
    }
    if (c.srdag.isInserted(vertex) && kind == ActorKind.END) {
      int state = c.persistentOfEnd[vertex];
      if (state >= 0 && in.length == 1) {
        result.add(new Move(in[0], 0, c.edges + state, 0, c.srdag.edgeBytes(in[0])));
      }
      return result;
    }
    if (!Classifier.isCopying(kind)) {
      throw new IllegalStateException("special vertex of kind " + kind);
    }
    for (SpecialCopy copy : SpecialCopy.of(c.srdag, vertex)) {
      result.add(new Move(copy.source(), copy.sourceOffset(), copy.destination(), copy.destinationOffset(),
          copy.bytes()));
    }
    return result;
  }
}
