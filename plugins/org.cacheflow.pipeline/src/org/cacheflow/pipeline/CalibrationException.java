package org.cacheflow.pipeline;

/**
 * A calibration could not be made: the program did not build, the board could not be reached, or the program
 * could not run there. The message says which and quotes what the failing command said.
 */
public final class CalibrationException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public CalibrationException(String message) {
    super(message, null, false, false);
  }
}
