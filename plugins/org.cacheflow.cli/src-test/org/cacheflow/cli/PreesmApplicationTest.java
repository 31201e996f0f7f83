package org.cacheflow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.GZIPInputStream;

import org.cacheflow.cli.Examples.Run;
import org.cacheflow.codegen.build.CodePreset;
import org.cacheflow.plan.strategy.TargetCache;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A project in the style of a real PREESM application (examples/frame-crc: actors including a preesm.h
 * that opens a data file from PROJECT_ROOT_PATH, a reader setting preesmStopThreads after the last frame, zlib
 * found by CMake) goes through {@code run-workflow} and through {@code generate} plus plain CMake, and runs, with
 * no flag added by hand. The program's output is checked against CRC-32s computed here from the data file.
 */
class PreesmApplicationTest {

  /** The frame: the graph's width x height. */
  private static final int FRAME_BYTES = 32 * 16;

  @TempDir
  Path temp;
  Path project;

  @BeforeAll
  static void runtimeFromTheCheckout() {
    Examples.useCheckoutRuntime();
  }

  @BeforeEach
  void copyExample() throws IOException {
    project = Examples.copy("frame-crc", temp);
  }

  @Test
  void runWorkflowBuildsTheActorsWithTheirLibraryAndStopsWhenTheReaderSaysSo() throws IOException {
    assumeBuildTools();
    Run run = run("run-workflow", project.toString());
    assertEquals(0, run.status(), run.err());
    Path generated = project.resolve("Code/generated");
    String cmakeLists = Files.readString(generated.resolve("CMakeLists.txt"));
    assertFalse(cmakeLists.contains(temp.toString()), "no absolute path of this machine in:\n" + cmakeLists);
    assertTrue(cmakeLists.contains("set(CACHEFLOW_PROJECT_ROOT_PATH \"..\" CACHE PATH"), cmakeLists);
    assertTrue(cmakeLists.contains("set(CACHEFLOW_ACTOR_LIBRARIES \"ZLIB::ZLIB\" CACHE STRING"), cmakeLists);
    // plain CMake, no -D: PROJECT_ROOT_PATH, Code/src, Code/include and zlib come from the generated project
    String output = buildAndRun(generated, temp.resolve("build"), "--iterations", "100", "--validate");
    assertTrue(output.contains("main-sequential.c defines main(); left out"), output);
    assertFramesOf(output);
  }

  @Test
  void generateThenTheCommandItPrintsBuildsAndRuns() throws IOException, InterruptedException {
    assumeBuildTools();
    Path out = temp.resolve("out dir");
    // no --link: the library comes from the project's workflow task, as run-workflow builds it; definitions the
    // actors do not use, but which must survive the CMake file and the compiler's command line
    Run run = run("generate", project.toString(), "--out", out.toString(), "--strategy", "baseline",
        "--define", "UNUSED_FLAG", "--define", "GREETING=\"hi $USER \\\"you\\\"\"");
    assertEquals(0, run.status(), run.err());
    assertTrue(run.err().contains("note: actor sources from "), run.err());
    assertTrue(run.err().contains("cacheflow.workflow: --link ZLIB::ZLIB"), run.err());
    assertTrue(Files.readString(out.resolve("CMakeLists.txt")).contains("ZLIB::ZLIB"), "the workflow's library");
    String hint = run.out().lines().filter(line -> line.startsWith("build: ")).findFirst().orElseThrow()
        .substring("build: ".length());
    // the printed command, as a user pastes it into a shell (the folder's name holds a space)
    Process shell = new ProcessBuilder("sh", "-c", hint).redirectErrorStream(true).start();
    String output = new String(shell.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, shell.waitFor(), hint + "\n" + output);
    assertFramesOf(output);
    assertTrue(Files.readString(out.resolve("build/CMakeCache.txt")).contains(
        "CACHEFLOW_ACTOR_DEFINITIONS:STRING=UNUSED_FLAG;GREETING=\"hi $USER \\\"you\\\"\"\n"), "read back as given");
  }

  /** The agreement on the last iteration, on pipelined cores, under ThreadSanitizer (the actors' own race aside). */
  @Test
  void stoppingPipelinedCoresIsRaceFree() throws IOException {
    assumeBuildTools();
    Path out = temp.resolve("tsan");
    Run run = run("generate", project.toString(), "--out", out.toString(), "--strategy", "channels", "--link",
        "zlib");
    assertEquals(0, run.status(), run.err());
    Path build = temp.resolve("tsan-build");
    Examples.exec(List.of("cmake", "-S", out.toString(), "-B", build.toString(), "-DCACHEFLOW_SANITIZE=thread",
        "-DCACHEFLOW_BUNDLED_RUNTIME=ON"));
    Examples.exec(List.of("cmake", "--build", build.toString()));
    ProcessBuilder program = new ProcessBuilder(build.resolve("frame_crc").toString(), "--iterations", "100",
        "--validate").redirectErrorStream(true);
    program.environment().put("TSAN_OPTIONS", "halt_on_error=1 exitcode=66");
    Process process = program.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    try {
      assertEquals(0, process.waitFor(), output);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
    assertFalse(output.contains("ThreadSanitizer"), output);
    assertFramesOf(output);
  }

  @Test
  void scenariosAreNamedAsPreesmUsersWriteThem() {
    Path elsewhere = Path.of("Scenarios/2core.scenario");
    assertFalse(Files.exists(elsewhere), "the test needs a working directory without that file");
    for (String scenario : List.of("2core", "2core.scenario", "Scenarios/2core.scenario",
        project.resolve("Scenarios/2core.scenario").toString())) {
      Run generate = run("generate", project.toString(), "--out", temp.resolve("s").toString(), "--scenario", scenario,
          "--synthetic-actors");
      assertEquals(0, generate.status(), scenario + ": " + generate.err());
      Run workflow = run("run-workflow", project.toString(), "-s", scenario, "--out", temp.resolve("w").toString(),
          "--synthetic-actors");
      assertEquals(0, workflow.status(), scenario + ": " + workflow.err());
      assertEquals(0, run("inspect", project.toString(), "--scenario", scenario).status(), scenario);
      assertEquals(0, run("plan", project.resolve("Algo/frame_crc.pi").toString(), "--scenario", scenario).status(),
          scenario);
    }
    Run missing = run("generate", project.toString(), "--out", temp.resolve("m").toString(), "--scenario", "8core");
    assertEquals(1, missing.status(), missing.err());
    assertTrue(missing.err().contains("no such scenario (looked for 8core, "), missing.err());
    assertTrue(missing.err().contains(project.resolve("Scenarios/8core.scenario").toString()), missing.err());
  }

  @Test
  void generateHelpListsEveryStrategyAndTarget() {
    String help = run("generate", "--help").out();
    for (String strategy : CodePreset.NAMES) {
      assertTrue(help.contains(" " + strategy + " ") || help.contains(" " + strategy + "\n"), strategy + " in\n"
          + help);
    }
    // continued lines of the strategy list start in the options' description column
    // (whole lines: options are indented in the generated help)
    String strategies = help.substring(help.lastIndexOf('\n', help.indexOf("  --strategy S")) + 1,
        help.lastIndexOf('\n', help.indexOf("  --override")) + 1);
    int column = strategies.indexOf("baseline");
    strategies.lines().skip(1).forEach(line -> assertEquals(column, line.length() - line.stripLeading().length(),
        line));
    for (String target : TargetCache.BUILT_IN.keySet()) {
      assertTrue(help.contains(target), target);
    }
    for (String option : List.of("--define NAME=VALUE", "--link LIB", "--include DIR", "--sources DIR")) {
      assertTrue(help.contains(option), option);
      assertTrue(run("run-workflow", "--help").out().contains(option.split(" ")[0]), option);
    }
  }

  @Test
  void badDefinitionsAndLibrariesAreUsageErrors() {
    Run definition = run("generate", project.toString(), "--out", temp.resolve("d").toString(), "--define", "1X=2");
    assertEquals(2, definition.status(), definition.err());
    assertTrue(definition.err().contains("--define expects NAME=VALUE or NAME"), definition.err());
    Run library = run("generate", project.toString(), "--out", temp.resolve("l").toString(), "--link",
        "/usr/lib/libz.so");
    assertEquals(2, library.status(), library.err());
    assertTrue(library.err().contains("--link expects a library name"), library.err());
  }

  @Test
  void theHintQuotesWhatTheShellWouldSplit() {
    assertEquals("cmake -S 'a b' -B 'a b/build' && cmake --build 'a b/build' && 'a b/build/g' --iterations 10 "
        + "--validate", GenerateCommand.buildHint(Path.of("a b"), "g", 1));
    assertEquals("cmake -S . -B build && cmake --build build && build/g --iterations 10 --validate",
        GenerateCommand.buildHint(Path.of("."), "g", 1));
    // one process per node
    assertEquals("cmake -S . -B build && cmake --build build && mpirun -np 3 build/g --iterations 10 --validate",
        GenerateCommand.buildHint(Path.of("."), "g", 3));
  }

  /** Six frames in the data file: one CRC line per frame, in order, and the run stopped after the last. */
  private void assertFramesOf(String output) throws IOException {
    List<String> expected = expectedLines();
    assertEquals(6, expected.size());
    List<String> printed = output.lines().filter(line -> line.startsWith("frame ")).toList();
    assertEquals(expected, printed, output);
    assertTrue(output.contains("for 6 iterations"), output);
  }

  /** What the actors print: the CRC-32 of every inverted frame of the data file. */
  private List<String> expectedLines() throws IOException {
    byte[] data;
    try (InputStream in = new GZIPInputStream(Files.newInputStream(project.resolve("Code/dat/frames.gz")))) {
      data = in.readAllBytes();
    }
    List<String> lines = new ArrayList<>();
    for (int frame = 0; frame * FRAME_BYTES < data.length; frame++) {
      CRC32 crc = new CRC32();
      for (int i = 0; i < FRAME_BYTES; i++) {
        crc.update(255 - (data[frame * FRAME_BYTES + i] & 0xff));
      }
      lines.add(String.format("frame %d: crc32 %08x", frame, crc.getValue()));
    }
    return lines;
  }

  private static String buildAndRun(Path source, Path build, String... programArguments) {
    String configure = Examples.exec(List.of("cmake", "-S", source.toString(), "-B", build.toString()));
    Examples.exec(List.of("cmake", "--build", build.toString()));
    List<String> command = new ArrayList<>(List.of(build.resolve("frame_crc").toString()));
    command.addAll(Arrays.asList(programArguments));
    return configure + Examples.exec(command);
  }

  private static void assumeBuildTools() {
    Assumptions.assumeTrue(Examples.onPath("cmake") && (Examples.onPath("cc") || Examples.onPath("gcc")),
        "skipped: building the generated project needs cmake and a C compiler");
  }

  private static Run run(String... args) {
    return Examples.run(args);
  }
}
