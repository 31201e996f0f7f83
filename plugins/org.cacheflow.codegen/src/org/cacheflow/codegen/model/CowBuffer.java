package org.cacheflow.codegen.model;

import java.util.List;

import org.cacheflow.plan.memoryplan.ProgramMemory;

/**
 * A copy-on-write buffer: its producers write it in place, each of {@code views} consumers opens a private view of a
 * range of it ({@code cf_cow_view_open_range}).
 *
 * @param index position in {@link CodeProject#cowBuffers()}
 * @param name C identifier of the buffer variable; views are {@code name_view[i]}
 * @param bytes size
 * @param views number of consumer views
 * @param ranges per view, the bytes of the buffer it shows
 * @param slots buffers used in turn, iteration {@code i} in slot {@code i % slots} (each with its own views), so
 *     that the producer can write the next iteration while views of this one are out
 * @param description what it carries
 * @param writers cores that use the memory in place, each a part of the buffer ({@code cf_cow_write_begin_part},
 *     {@code cf_cow_publish_part}): a view sees an iteration once every part published it
 */
public record CowBuffer(int index, String name, long bytes, int views, List<Range> ranges, int slots,
    String description, int writers) {

  /** A buffer one core writes. */
  public CowBuffer(int index, String name, long bytes, int views, List<Range> ranges, int slots, String description) {
    this(index, name, bytes, views, ranges, slots, description, 1);
  }

  /** The same buffer written by {@code parts} cores. */
  public CowBuffer withWriters(int parts) {
    return new CowBuffer(index, name, bytes, views, ranges, slots, description, parts);
  }

  /** The bytes of all its slots (one buffer each, its views sharing them), as the program's memory counts them. */
  public long totalBytes() {
    return ProgramMemory.saturatedMultiply(bytes, slots);
  }

  /** The bytes [offset, offset + bytes) of the buffer, as one view shows them. */
  public record Range(long offset, long bytes) {
  }

  public CowBuffer {
    ranges = List.copyOf(ranges);
    if (slots < 1) {
      throw new IllegalArgumentException("slots must be at least 1, got " + slots);
    }
    if (writers < 1 || writers > Core.MOST) {
      throw new IllegalArgumentException("writers must be within 1.." + Core.MOST + ", got " + writers);
    }
    if (ranges.size() != views) {
      throw new IllegalArgumentException(views + " views but " + ranges.size() + " ranges");
    }
  }
}
