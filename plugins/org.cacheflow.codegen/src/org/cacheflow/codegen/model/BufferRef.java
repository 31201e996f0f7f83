package org.cacheflow.codegen.model;

/**
 * Where a statement reads or writes: the first byte of a root buffer plus a byte offset into it. The root's first
 * byte is a typed value ({@link Base}); the printers write it as C.
 *
 * @param base where the root buffer's first byte is this iteration
 * @param offset bytes from it
 */
public record BufferRef(Base base, long offset) {

  /** Where a root buffer's first byte is; {@link #name()} is the C identifier of the array or pointer. */
  public sealed interface Base {
    String name();
  }

  /** A static array, or a pointer a channel or copy-on-write call set. */
  public record Named(String name) implements Base {
  }

  /**
   * This iteration's slot of an array of {@code slots} slots of {@code slotBytes} bytes each (iteration i in slot
   * i % slots): a merge group several cores pipeline, an inter-node transfer's send or receive slots.
   */
  public record IterationSlot(String name, int slots, long slotBytes) implements Base {
  }

  /**
   * One of a persistent delay's two copies of {@code bytes} bytes: the one this iteration reads, or ({@code next})
   * the one it writes for the next iteration.
   */
  public record DelayCopy(String name, long bytes, boolean next) implements Base {
  }

  /** A named array or pointer at offset 0. */
  public static BufferRef of(String name) {
    return new BufferRef(new Named(name), 0);
  }

  /** A named array or pointer at an offset. */
  public BufferRef(String name, long offset) {
    this(new Named(name), offset);
  }

  public static BufferRef of(Base base) {
    return new BufferRef(base, 0);
  }

  /** The C identifier of the root's array or pointer. */
  public String name() {
    return base.name();
  }

  public BufferRef plus(long bytes) {
    return new BufferRef(base, offset + bytes);
  }
}
