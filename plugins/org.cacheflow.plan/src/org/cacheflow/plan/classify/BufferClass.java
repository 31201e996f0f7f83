package org.cacheflow.plan.classify;

import java.util.Locale;

/**
 * How a single-rate buffer is used: every buffer has exactly one class (and, separately, may cross cores).
 * The classes are those of the copy-on-write / non-temporal paper (read-mostly and private FIFOs) plus the
 * pre-stores paper's write-heavy data, and buffers that memory scripts merged.
 */
public enum BufferClass {
  /** Memory-script merging made it share memory with another buffer: no copy at all. */
  ALIASED,
  /** Its consumers may write it, but rarely: sharing one copy, copied page by page on write, fits. */
  READ_MOSTLY,
  /** Its consumer needs its own copy (it writes it), or only its own actor uses it. */
  PRIVATE,
  /** Written by its producer, which does not read it again. */
  WRITE_MOSTLY;

  /** The form used in reports and JSON: aliased, read-mostly, private, write-mostly. */
  public String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** The class with that label, or null. */
  public static BufferClass byLabel(String label) {
    for (BufferClass c : values()) {
      if (c.label().equals(label)) {
        return c;
      }
    }
    return null;
  }
}
