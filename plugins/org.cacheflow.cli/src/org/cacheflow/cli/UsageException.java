package org.cacheflow.cli;

/** The command line itself is wrong (unknown option, missing argument): exit status 2. */
public final class UsageException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public UsageException(String message) {
    super(message);
  }
}
