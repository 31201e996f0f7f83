package org.cacheflow.codegen.build;

import java.util.ArrayList;
import java.util.List;

import org.cacheflow.analysis.FlatFifo;

/**
 * Where each buffer's bytes live once the plan's aliasing is applied ({@link MergeGroups}): an edge lies in its
 * merge root's memory at an offset (in pieces when the merger divided it), or is a root of its own; a persistent
 * delay's state is always a root. Also each root's size, C name and description.
 */
final class Roots {

  private final BuildInput in;
  /** Per edge, the merge root whose memory holds it (-1: its own memory, or it is the root). */
  private final int[] host;
  /** Per edge, the byte offset of its first byte in its root's memory. */
  private final long[] offsetInRoot;
  /** Per edge lying in pieces of its root's memory, the pieces; null otherwise. */
  private final List<List<Piece>> pieces;
  /** Per merge root, the bytes its group spans (0: not a root hosting others). */
  private final long[] groupBytes;

  Roots(BuildInput in, int[] host, long[] offsetInRoot, List<List<Piece>> pieces, long[] groupBytes) {
    this.in = in;
    this.host = host;
    this.offsetInRoot = offsetInRoot;
    this.pieces = pieces;
    this.groupBytes = groupBytes;
  }

  /** Every buffer by index (edges, then delay states): the roots, and the edges living in a root's memory. */
  List<BufferId> everyBuffer() {
    List<BufferId> all = new ArrayList<>(in.buffers());
    for (int index = 0; index < in.buffers(); index++) {
      all.add(in.buffer(index));
    }
    return all;
  }

  /** The root whose memory holds an edge. */
  BufferId root(int edge) {
    return BufferId.edge(host[edge] >= 0 ? host[edge] : edge);
  }

  /** The root of a buffer: a delay's state is its own. */
  BufferId root(BufferId buffer) {
    return buffer.delayState() ? buffer : root(buffer.edge());
  }

  /** Whether an edge lives in another edge's memory (it is no root). */
  boolean isHosted(int edge) {
    return host[edge] >= 0;
  }

  /** Whether an edge belongs to a merge group: it lives in another's memory or hosts others. */
  boolean isGrouped(int edge) {
    return host[edge] >= 0 || groupBytes[edge] > 0;
  }

  /** Whether a root is a merge group's root, hosting other edges. */
  boolean hostsGroup(BufferId root) {
    return !root.delayState() && groupBytes[root.edge()] > 0;
  }

  /** The byte offset of an edge's first byte in its root's memory. */
  long offset(int edge) {
    return offsetInRoot[edge];
  }

  /** The pieces of an edge lying in pieces of its root's memory; null when it lies in one block. */
  List<Piece> pieces(int edge) {
    return pieces.get(edge);
  }

  boolean isDivided(int edge) {
    return pieces.get(edge) != null;
  }

  /** The bytes of an edge, or of a persistent delay's state. */
  long bufferBytes(BufferId buffer) {
    return buffer.delayState() ? bytes(buffer) : in.srdag.edgeBytes(buffer.edge());
  }

  /** The bytes of a root's memory (at least one). */
  long bytes(BufferId root) {
    if (root.delayState()) {
      // the tokens that leave the delay's end and those its init hands out next iteration: equal, but each
      // rounded to whole bytes on its own when tokens are not whole bytes
      long bytes = 1;
      for (int e : in.srdag.incomingEdges(in.srdag.persistentEnd(root.delay()))) {
        bytes = Math.max(bytes, in.srdag.edgeBytes(e));
      }
      for (int e : in.srdag.outgoingEdges(in.srdag.persistentInit(root.delay()))) {
        bytes = Math.max(bytes, in.srdag.edgeBytes(e));
      }
      return bytes;
    }
    int edge = root.edge();
    return Math.max(1, groupBytes[edge] > 0 ? groupBytes[edge] : in.srdag.edgeBytes(edge));
  }

  /** The root's name in C. */
  String name(BufferId root) {
    return root.delayState() ? "delay" + root.delay() : "buf" + root.edge();
  }

  String describe(BufferId root) {
    if (root.delayState()) {
      FlatFifo fifo = in.graph.fifo(in.srdag.vertexFifo(in.srdag.persistentEnd(root.delay())));
      return "persistent delay of " + in.label(fifo);
    }
    return in.describe(root.edge());
  }
}
