package org.cacheflow.scripts;

/**
 * cacheflow's extension to memory scripts, after the copy-on-write / non-temporal paper: how a FIFO is used,
 * so the classification stage can pick its memory strategy. A mark belongs to the FIFO behind the buffer it
 * was set on, whichever end set it.
 */
public enum FifoMark {
  /** Mostly read: readers share one copy, copy-on-write ({@code markReadMostly()}). */
  READ_MOSTLY("markReadMostly"),
  /** The consumer needs its own copy: make it with non-temporal stores ({@code markPrivate()}). */
  PRIVATE("markPrivate"),
  /** Mostly written: a candidate for pre-stores ({@code markWriteMostly()}). */
  WRITE_MOSTLY("markWriteMostly");

  /** The buffer method that sets the mark. */
  public final String method;

  FifoMark(String method) {
    this.method = method;
  }

  /**
   * Whether two marks on one FIFO cannot both hold: a shared copy-on-write FIFO cannot also be private, and a
   * FIFO cannot be both mostly read and mostly written. A private FIFO may well be written mostly.
   */
  public boolean contradicts(FifoMark other) {
    return (this == READ_MOSTLY && other != READ_MOSTLY) || (other == READ_MOSTLY && this != READ_MOSTLY);
  }

  /** The form used in reports and JSON: read-mostly, private, write-mostly. */
  public String label() {
    return name().toLowerCase().replace('_', '-');
  }
}
