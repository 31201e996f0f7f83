package org.cacheflow.analysis.srdag;

import java.util.ArrayList;
import java.util.List;

/**
 * One copy a fork, join, broadcast or round buffer makes per firing, before merges and clamping to the buffers'
 * sizes: {@code bytes} bytes from {@code sourceOffset} of edge {@code source} to {@code destinationOffset} of edge
 * {@code destination}. The plan (which bytes are read, {@code LiveBytes}) and the code generator (what it copies)
 * share this one definition.
 */
public record SpecialCopy(int source, long sourceOffset, int destination, long destinationOffset, long bytes) {

  /**
   * The copies of a fork (its input cut into its outputs in port order), join (its inputs one after the other),
   * broadcast (its input repeated to fill each output) or round buffer (the last inputs fill its output from the
   * end: PREESM's semantics, earlier bytes are overwritten); empty for other vertices.
   */
  public static List<SpecialCopy> of(Srdag srdag, int vertex) {
    int[] in = srdag.portOrderedEdges(vertex, true);
    int[] out = srdag.portOrderedEdges(vertex, false);
    List<SpecialCopy> result = new ArrayList<>();
    switch (srdag.vertexKind(vertex)) {
      case FORK -> {
        long offset = 0;
        for (int e : out) {
          result.add(new SpecialCopy(in[0], offset, e, 0, srdag.edgeBytes(e)));
          offset += srdag.edgeBytes(e);
        }
      }
      case JOIN -> {
        long offset = 0;
        for (int e : in) {
          result.add(new SpecialCopy(e, 0, out[0], offset, srdag.edgeBytes(e)));
          offset += srdag.edgeBytes(e);
        }
      }
      case BROADCAST -> {
        long size = srdag.edgeBytes(in[0]);
        for (int e : out) {
          long done = 0;
          long wanted = srdag.edgeBytes(e);
          while (done < wanted && size > 0) {
            long chunk = Math.min(size, wanted - done);
            result.add(new SpecialCopy(in[0], 0, e, done, chunk));
            done += chunk;
          }
        }
      }
      case ROUNDBUFFER -> {
        int output = out[0];
        long missing = srdag.edgeBytes(output);
        for (int k = in.length - 1; k >= 0 && missing > 0; k--) {
          long size = Math.min(missing, srdag.edgeBytes(in[k]));
          missing -= size;
          result.add(new SpecialCopy(in[k], srdag.edgeBytes(in[k]) - size, output, missing, size));
        }
      }
      default -> {
      }
    }
    return result;
  }
}
