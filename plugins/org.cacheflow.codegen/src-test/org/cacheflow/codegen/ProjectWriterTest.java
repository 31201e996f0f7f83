package org.cacheflow.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.cacheflow.codegen.model.ActorSources;
import org.cacheflow.codegen.model.CodeProject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProjectWriterTest {

  private static final CodeProject PROJECT = TestInputs.model(TestInputs.srdag(TestInputs.TINY.resolve("Algo/tiny.pi"),
      null), 2, "auto", true);

  @Test
  void writesTheFilesAndACopyOfTheRuntime(@TempDir Path dir) {
    Path out = dir.resolve("out");
    ProjectWriter.write(PROJECT, ActorSources.NONE, TestInputs.runtime(), out);
    for (String name : new String[] {"CMakeLists.txt", "graph.h", "main.c", "core_0.c", "core_1.c",
        "synthetic_actors.c", "toolchains/aarch64-linux-gnu.cmake",
        "cacheflow-runtime/include/cacheflow/support.h", "cacheflow-runtime/src/support.c",
        "cacheflow-runtime/CMakeLists.txt", "cacheflow-runtime/include/cacheflow/cacheflow.h"}) {
      assertTrue(Files.isRegularFile(out.resolve(name)), name);
    }
    assertTrue(Files.notExists(out.resolve("cacheflow-runtime/tests")), "the runtime's tests are not copied");
  }

  @Test
  void replacesThePreviousOutputOnlyWhenGenerationSucceeds(@TempDir Path dir) throws IOException {
    Path out = dir.resolve("out");
    Files.createDirectories(out);
    Files.writeString(out.resolve("stale.c"), "old");
    assertThrows(UncheckedIOException.class,
        () -> ProjectWriter.write(PROJECT, ActorSources.NONE, dir.resolve("no-runtime"), out));
    assertEquals("old", Files.readString(out.resolve("stale.c")), "a failed generation leaves the output intact");
    try (Stream<Path> left = Files.list(dir)) {
      assertEquals(1, left.count(), "no staging folder is left behind");
    }
    ProjectWriter.write(PROJECT, ActorSources.NONE, TestInputs.runtime(), out);
    assertTrue(Files.notExists(out.resolve("stale.c")), "a successful generation replaces the folder");
    assertTrue(Files.isRegularFile(out.resolve("main.c")));
  }
}
