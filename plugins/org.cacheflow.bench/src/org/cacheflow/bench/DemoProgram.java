package org.cacheflow.bench;

import java.nio.file.Path;

/** A generated and built program: a strategy at a frame size. */
record DemoProgram(String strategy, Path project, Path build, Path log) {
  Path executable() {
    return build.resolve("stereo");
  }
}
