package org.cacheflow.pipeline;

/**
 * A setting the caller gave is not valid (a strategy name, an override, a core count beyond the generated program's
 * limit): the message names the option ({@code --cores}, {@code slots=K}) as users wrote it. The command line turns
 * it into a usage error; the workflow runner reports it at the task setting it came from.
 */
public final class OptionException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public OptionException(String message) {
    super(message, null, false, false);
  }
}
