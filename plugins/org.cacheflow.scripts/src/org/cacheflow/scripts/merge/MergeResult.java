package org.cacheflow.scripts.merge;

import java.util.List;
import java.util.Map;

/**
 * Which single-rate FIFOs share memory and where. Every FIFO is either a root (its own allocation, possibly
 * enlarged by virtual tokens) or lives inside roots: {@link #layout()} gives, per FIFO, its pieces placed in
 * their root FIFO (a FIFO in its own memory has one piece in itself). The code generator omits the copies of
 * merged FIFOs.
 *
 * @param layout per FIFO, its pieces in root FIFOs
 * @param rootExtents per root FIFO, the bit range [min, max) its allocation must cover
 * @param groups roots hosting at least one other FIFO, with their members
 * @param rejected merges the scripts allowed but that were not applied, with the reason
 * @param bytesBefore total size of all FIFOs, each in its own memory
 * @param bytesAfter total size of the root allocations
 */
public record MergeResult(Map<String, List<Piece>> layout, Map<String, long[]> rootExtents, List<Group> groups,
    List<String> rejected, long bytesBefore, long bytesAfter) {

  /** The memory saved by merging, in bytes. */
  public long bytesSaved() {
    return bytesBefore - bytesAfter;
  }

  /** A root and the FIFOs placed in it. */
  public record Group(String root, long extentStartBits, long extentEndBits, List<Member> members) {

    public long sizeBytes() {
      return (extentEndBits - extentStartBits + 7) / 8;
    }
  }

  /** A FIFO of a group and its pieces in the root. */
  public record Member(String fifo, List<Piece> pieces) {
  }
}
