package org.cacheflow.codegen.build;

import java.util.ArrayList;
import java.util.List;

import org.cacheflow.analysis.srdag.SpecialCopy;
import org.cacheflow.model.ActorKind;
import org.cacheflow.plan.classify.Classifier;

/**
 * What each special vertex (fork, join, broadcast, round buffer, a delay's init or end) still copies once aliasing
 * is decided: only the bytes its destination's consumer reads, cut to the buffers' sizes, addressed in the roots'
 * memory; a copy whose source and destination are the same bytes disappears.
 */
final class SpecialCopies {

  private final BuildInput in;
  private final Roots roots;

  private SpecialCopies(BuildInput in, Roots roots) {
    this.in = in;
    this.roots = roots;
  }

  /** Per vertex, the copies and zero-fills it makes (none for actor firings). */
  static List<List<Move>> of(BuildInput in, Roots roots, CowViews cow) {
    SpecialCopies copies = new SpecialCopies(in, roots);
    List<List<Move>> moves = new ArrayList<>(in.srdag.vertexCount());
    for (int v = 0; v < in.srdag.vertexCount(); v++) {
      moves.add(List.copyOf(copies.needed(v, cow)));
    }
    for (int e = 0; e < in.edges; e++) {
      if (roots.isDivided(e) && (!in.isSpecial(in.srdag.edgeSource(e)) || !in.isSpecial(in.srdag.edgeTarget(e)))) {
        throw new IllegalStateException(in.describe(e) + " lies in pieces but an actor accesses it as one block");
      }
    }
    return List.copyOf(moves);
  }

  private List<Move> needed(int vertex, CowViews cow) {
    List<Move> clamped = new ArrayList<>();
    for (Move move : movesOf(vertex)) {
      Move live = liveOnly(vertex, move);
      if (live != null) {
        clamped.addAll(clamped(live));
      }
    }
    List<Move> needed = new ArrayList<>(clamped.size());
    for (Move move : clamped) {
      if (!move.destination().delayState() && cow.isView(move.destination().edge())) {
        continue;
      }
      if (touchesDivided(move)) {
        needed.addAll(piecewise(move));
      } else if (!inPlace(move)) {
        needed.add(move);
      }
    }
    return needed;
  }

  /**
   * The move cut to its destination's size, and to its source's with zeros for the rest. Sizes are rounded up
   * to whole bytes per buffer, so with tokens that are not whole bytes the slices a fork or join moves (each
   * rounded on its own) can add up to more or less than the buffer they come from or go to; zeros keep what a
   * slice lacks the same under every strategy.
   */
  private List<Move> clamped(Move move) {
    long bytes = Math.min(move.bytes(), roots.bufferBytes(move.destination()) - move.destinationOffset());
    if (bytes <= 0) {
      return List.of();
    }
    long available = move.fillsZeros() ? bytes
        : Math.max(0, Math.min(bytes, roots.bufferBytes(move.source()) - move.sourceOffset()));
    if (available == move.bytes()) {
      return List.of(move);
    }
    List<Move> parts = new ArrayList<>(2);
    if (available > 0) {
      parts.add(new Move(move.source(), move.sourceOffset(), move.destination(), move.destinationOffset(), available));
    }
    if (available < bytes) {
      parts.add(new Move(null, 0, move.destination(), move.destinationOffset() + available, bytes - available));
    }
    return parts;
  }

  /**
   * The part of a fork's, join's, broadcast's or round buffer's copy that its destination's consumer reads
   * ({@link ExecutionPlan#liveRange}), null when it reads none of it; other vertices' moves unchanged.
   */
  private Move liveOnly(int vertex, Move move) {
    if (in.srdag.isInserted(vertex) && (in.srdag.vertexKind(vertex) == ActorKind.INIT
        || in.srdag.vertexKind(vertex) == ActorKind.END) || move.destination().delayState()) {
      return move;
    }
    long[] live = in.plan.liveRange(move.destination().edge());
    long from = Math.max(move.destinationOffset(), live[0]);
    long to = Math.min(move.destinationOffset() + move.bytes(), live[1]);
    if (from >= to) {
      return null;
    }
    long skipped = from - move.destinationOffset();
    return new Move(move.source(), move.fillsZeros() ? 0 : move.sourceOffset() + skipped, move.destination(), from,
        to - from);
  }

  private boolean touchesDivided(Move move) {
    return isDivided(move.source()) || isDivided(move.destination());
  }

  private boolean isDivided(BufferId buffer) {
    return buffer != null && !buffer.delayState() && roots.isDivided(buffer.edge());
  }

  /** Where a byte of a buffer lies: in which root, at which byte of its memory, and how many bytes stay contiguous. */
  private record Location(BufferId root, long inRoot, long contiguous) {
  }

  /** Where byte {@code offset} of a buffer lies, counted from its root's own first byte. */
  private Location locate(BufferId buffer, long offset) {
    if (buffer.delayState()) {
      return new Location(buffer, offset, Long.MAX_VALUE);
    }
    int edge = buffer.edge();
    BufferId r = roots.root(edge);
    long rootStart = roots.offset(r.edge());
    if (!roots.isDivided(edge)) {
      return new Location(r, roots.offset(edge) - rootStart + offset, in.srdag.edgeBytes(edge) - offset);
    }
    for (Piece piece : roots.pieces(edge)) {
      if (piece.holds(offset)) {
        return new Location(r, piece.inRoot() - rootStart + offset - piece.first(), piece.first() + piece.bytes()
            - offset);
      }
    }
    throw new IllegalStateException("byte " + offset + " of " + in.describe(edge) + " lies in none of its pieces");
  }

  /**
   * A copy from or into a divided buffer, cut where pieces end and addressed in the roots' memory; the parts
   * whose source and destination are the same bytes are left out.
   */
  private List<Move> piecewise(Move move) {
    List<Move> parts = new ArrayList<>();
    long done = 0;
    while (done < move.bytes()) {
      Location to = locate(move.destination(), move.destinationOffset() + done);
      long length = Math.min(move.bytes() - done, to.contiguous());
      Location from = null;
      if (!move.fillsZeros()) {
        from = locate(move.source(), move.sourceOffset() + done);
        length = Math.min(length, from.contiguous());
      }
      Move part = new Move(from == null ? null : from.root(), from == null ? 0 : from.inRoot(), to.root(),
          to.inRoot(), length);
      if (!inPlace(part)) {
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
    if (move.fillsZeros() || move.source().delayState() || move.destination().delayState()) {
      return false;
    }
    int source = move.source().edge();
    int destination = move.destination().edge();
    if (!roots.root(source).equals(roots.root(destination))) {
      return false;
    }
    long from = roots.offset(source) + move.sourceOffset();
    long to = roots.offset(destination) + move.destinationOffset();
    if (from != to && from < to + move.bytes() && to < from + move.bytes()) {
      throw new IllegalStateException("merged buffers " + in.describe(source) + " and " + in.describe(destination)
          + " overlap without being the same bytes");
    }
    return from == to;
  }

  /** The copies a special vertex has to make before aliasing is taken into account (nothing for actor firings). */
  private List<Move> movesOf(int vertex) {
    if (!in.isSpecial(vertex)) {
      return List.of();
    }
    ActorKind kind = in.srdag.vertexKind(vertex);
    List<Move> result = new ArrayList<>();
    if (in.srdag.isInserted(vertex) && kind == ActorKind.INIT) {
      BufferId state = in.stateStartedBy(vertex);
      for (int e : in.outputs(vertex)) {
        result.add(new Move(state, 0, BufferId.edge(e), 0, in.srdag.edgeBytes(e)));
      }
      return result;
    }
    if (in.srdag.isInserted(vertex) && kind == ActorKind.END) {
      BufferId state = in.stateEndedBy(vertex);
      int[] inputs = in.inputs(vertex);
      if (state != null && inputs.length == 1) {
        result.add(new Move(BufferId.edge(inputs[0]), 0, state, 0, in.srdag.edgeBytes(inputs[0])));
      }
      return result;
    }
    if (!Classifier.isCopying(kind)) {
      throw new IllegalStateException("special vertex of kind " + kind);
    }
    for (SpecialCopy copy : SpecialCopy.of(in.srdag, vertex)) {
      result.add(new Move(BufferId.edge(copy.source()), copy.sourceOffset(), BufferId.edge(copy.destination()),
          copy.destinationOffset(), copy.bytes()));
    }
    return result;
  }
}
