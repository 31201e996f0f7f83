package org.cacheflow.plan.classify;

/**
 * The rule that gave a buffer its class: the evidence reports show (in words: the report bundle's
 * {@code DecisionText}). In the order the rules are tried.
 */
public enum ClassRule {
  /** Memory-script merging placed it in the same memory as another buffer. */
  MERGED(BufferClass.ALIASED),
  /** A memory script marked its FIFO read-mostly. */
  MARKED_READ_MOSTLY(BufferClass.READ_MOSTLY),
  /** A memory script marked its FIFO private. */
  MARKED_PRIVATE(BufferClass.PRIVATE),
  /** A memory script marked its FIFO write-mostly. */
  MARKED_WRITE_MOSTLY(BufferClass.WRITE_MOSTLY),
  /** A broadcast / round buffer output whose consumers are not all READ_ONLY: they may write, but rarely. */
  SHARED_COPY_WRITTEN(BufferClass.READ_MOSTLY),
  /** A broadcast / round buffer output whose consumers only read, which memory scripts did not merge. */
  SHARED_COPY_NOT_MERGED(BufferClass.READ_MOSTLY),
  /** A copy (fork / join output) whose destination its consumer writes. */
  COPY_WRITTEN(BufferClass.PRIVATE),
  /** A copy (fork / join output) its consumers only read. */
  COPY_READ(BufferClass.READ_MOSTLY),
  /** It holds a delay's initial tokens, which keep their own memory. */
  DELAY_TOKENS(BufferClass.PRIVATE),
  /** A feedback FIFO: only its own actor writes and reads it. */
  FEEDBACK(BufferClass.PRIVATE),
  /** Written by its producer, which does not read it again. */
  PRODUCED(BufferClass.WRITE_MOSTLY);

  /** The class the rule gives. */
  public final BufferClass bufferClass;

  ClassRule(BufferClass bufferClass) {
    this.bufferClass = bufferClass;
  }
}
