package org.cacheflow.plan.strategy;

/** A per-FIFO strategy override is malformed, names no FIFO, or asks for a strategy that cannot apply. */
public final class OverrideException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public OverrideException(String message) {
    super(message);
  }
}
