package org.cacheflow.plan.classify;

/** The rule that gave a buffer its class: the evidence reports show. In the order the rules are tried. */
public enum ClassRule {
  MERGED(BufferClass.ALIASED, "memory-script merging placed it in the same memory as another buffer"),
  MARKED_READ_MOSTLY(BufferClass.READ_MOSTLY, "a memory script marked its FIFO read-mostly"),
  MARKED_PRIVATE(BufferClass.PRIVATE, "a memory script marked its FIFO private"),
  MARKED_WRITE_MOSTLY(BufferClass.WRITE_MOSTLY, "a memory script marked its FIFO write-mostly"),
  SHARED_COPY_WRITTEN(BufferClass.READ_MOSTLY,
      "a broadcast / round buffer output whose consumers are not all READ_ONLY: they may write, but rarely"),
  SHARED_COPY_NOT_MERGED(BufferClass.READ_MOSTLY,
      "a broadcast / round buffer output whose consumers only read, which memory scripts did not merge"),
  COPY_WRITTEN(BufferClass.PRIVATE, "a copy (fork / join output) whose destination its consumer writes"),
  COPY_READ(BufferClass.READ_MOSTLY, "a copy (fork / join output) its consumers only read"),
  DELAY_TOKENS(BufferClass.PRIVATE, "it holds a delay's initial tokens, which keep their own memory"),
  FEEDBACK(BufferClass.PRIVATE, "a feedback FIFO: only its own actor writes and reads it"),
  PRODUCED(BufferClass.WRITE_MOSTLY, "written by its producer, which does not read it again");

  /** The class the rule gives. */
  public final BufferClass bufferClass;
  /** The rule in words. */
  public final String description;

  ClassRule(BufferClass bufferClass, String description) {
    this.bufferClass = bufferClass;
    this.description = description;
  }
}
