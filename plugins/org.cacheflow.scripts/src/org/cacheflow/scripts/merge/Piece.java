package org.cacheflow.scripts.merge;

/**
 * Bits {@code [start, start + length)} of a FIFO live in FIFO {@code host} from bit {@code hostStart}.
 * Bits are used so byte- and bit-level matches compose; reports convert to bytes.
 */
public record Piece(long start, long length, String host, long hostStart) {

  public long end() {
    return start + length;
  }
}
