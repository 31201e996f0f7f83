package org.cacheflow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.CRC32;

import org.cacheflow.cli.Examples.Run;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A project built by its own {@code Code/CMakeLists.txt}, written as PREESM's example applications write theirs
 * (src-test/resources/preesm-build: the actors and {@code generated/} globbed, the include folder, zlib found by
 * {@code find_package}, {@code -std=c99}; {@link PreesmValidationTest} checks its sinks' digests), whose workflow has
 * PREESM's code generation task: {@code run-workflow}
 * with no option writes into {@code Code/generated}, and the project's own build compiles and links it unchanged.
 * The program's output is checked against CRC-32s computed here from the actors' definitions.
 */
class PreesmBuildTest {

  /** Bytes of a frame: the graph's size. */
  static final int SIZE = 64;
  private static final int ITERATIONS = 4;

  @TempDir
  Path temp;

  /**
   * A copy of the project in {@code temp}, with the checkout's runtime; skips the test without CMake or a C
   * compiler.
   */
  static Path project(Path temp) throws IOException {
    Assumptions.assumeTrue(Examples.onPath("cmake") && (Examples.onPath("cc") || Examples.onPath("gcc")),
        "skipped: building the project needs cmake and a C compiler");
    Examples.useCheckoutRuntime();
    return Examples.copy(Path.of("src-test/resources/preesm-build"), temp);
  }

  @Test
  void theProjectsOwnBuildCompilesWhatRunWorkflowWroteIntoCodeGenerated() throws IOException {
    Path project = project(temp);
    Run run = Examples.run("run-workflow", project.toString());
    assertEquals(0, run.status(), run.err());
    Path generated = project.resolve("Code/generated");
    assertTrue(Files.isRegularFile(generated.resolve("main.c")), "the program in Code/generated");
    assertFalse(Files.exists(generated.resolve("CMakeLists.txt")), "no CMake project of its own");
    try (Stream<Path> files = Files.walk(generated)) {
      List<String> arch = files.map(path -> generated.relativize(path).toString())
          .filter(name -> name.contains("/arch/") && name.endsWith(".c")).toList();
      // every architecture's sources are there, and the project's build below compiles them all: those of another
      // processor (aarch64's assembly, x86-64's <immintrin.h> elsewhere) must compile to nothing
      for (String processor : List.of("x86_64", "aarch64", "armhf", "riscv64", "generic")) {
        assertTrue(arch.stream().anyMatch(name -> name.contains("/arch/" + processor + "/")), processor + ": " + arch);
      }
    }
    Path build = temp.resolve("build");
    Examples.exec(List.of("cmake", "-S", project.resolve("Code").toString(), "-B", build.toString()));
    Examples.exec(List.of("cmake", "--build", build.toString()));
    String output = Examples.exec(List.of(build.resolve("Release/crc").toString(), "--iterations",
        Integer.toString(ITERATIONS)));
    assertEquals(expectedLines(), output.lines().filter(line -> line.startsWith("frame ")).toList(), output);
  }

  /** What the sink prints: the CRC-32 of every inverted frame. */
  private static List<String> expectedLines() {
    List<String> lines = new ArrayList<>();
    for (int k = 0; k < ITERATIONS; k++) {
      CRC32 crc = new CRC32();
      for (int i = 0; i < SIZE; i++) {
        crc.update(255 - ((31 * k + 7 * i) & 0xff));
      }
      lines.add(String.format("frame %d: crc32 %08x", k, crc.getValue()));
    }
    return lines;
  }
}
