package org.cacheflow.pipeline;

/** {@link Pipeline#profile} could not build or run the profiled program; the message says why, with its output. */
public final class ProfileException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public ProfileException(String message) {
    super(message);
  }
}
