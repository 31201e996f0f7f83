package org.cacheflow.bench;

/** The demo cannot go on (a build failed, outputs differ): message for the user, exit status 1. */
final class DemoFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  DemoFailure(String message) {
    super(message);
  }
}
