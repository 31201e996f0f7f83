package org.cacheflow.plan.classify;

import java.util.Locale;

/** Who fills a single-rate buffer. */
public enum BufferOrigin {
  /** An actor firing writes it through its output port: nothing is copied into it. */
  PRODUCED,
  /**
   * A special vertex (fork, join, broadcast, round buffer) fills it by copying from its inputs, as PREESM's
   * generated code does: this is the copy a strategy may remove or make cheaper.
   */
  COPY,
  /** It holds a delay's initial tokens (it leaves an init vertex). */
  DELAY;

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
