package org.cacheflow.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.codegen.build.SchedFirings;
import org.cacheflow.codegen.model.ActorSources;
import org.cacheflow.codegen.model.CodeProject;
import org.cacheflow.codegen.model.SchedTable;
import org.cacheflow.plan.schedule.RunSchedule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Generated programs that fail clearly: an actor that crashes is named with its firing, iteration and core before the
 * program dies with the signal; SIGINT and SIGTERM stop the run after an iteration with the statistics and times so
 * far (a dynamic schedule with overlapped iterations too, with the static program's digests for the iterations it
 * reports); a program whose buffers cannot fit the address space it may use refuses to start. The test graph's actors
 * (tiny.pi) are built with a fault switched on by the environment: {@code TINY_FAULT=segv|fpe} makes the Scale firing
 * that reads iteration 2's second slice crash, {@code TINY_FAULT=slow} makes every Collect firing sleep.
 */
class FaultsEndToEndTest {

  /** Scale's input slice begins with this byte in iteration 2, firing 1 (Gen writes 16, 17, ... per frame). */
  private static final int CRASHING_FIRST_BYTE = 16 + 16 * 2 + 4;

  @TempDir
  static Path shared;

  private static Path program;
  /** The same graph and actors under a dynamic schedule, two iterations in flight. */
  private static Path dispatched;

  @TempDir
  Path dir;

  @BeforeAll
  static void build() throws Exception {
    if (!System.getProperty("cacheflow.e2e", "default").equals("none") && EndToEndTest.available("cmake")
        && EndToEndTest.available("ninja") && EndToEndTest.available("cc")) {
      program = buildFaultyTiny(shared);
      dispatched = buildFaultyTiny(shared, true);
    }
  }

  @BeforeEach
  void needsTools() {
    EndToEndTest.assumeBuildTools("fault handling of generated programs");
  }

  /** tiny.pi on 2 cores, its actors with the faults the environment switches on. */
  private static Path buildFaultyTiny(Path root) throws Exception {
    return buildFaultyTiny(root, false);
  }

  /**
   * tiny.pi on 2 cores with a static schedule, or with a dynamic one (two iterations in flight), its actors with the
   * faults the environment switches on.
   */
  private static Path buildFaultyTiny(Path root, boolean dynamic) throws Exception {
    Path sources = Files.createDirectories(root.resolve("src"));
    String actors = Files.readString(TestInputs.TINY.resolve("Code/src/tiny.c"));
    String scale = "void scale(int slice, const unsigned char *in, unsigned char *out) {";
    assertTrue(actors.contains(scale), "tiny.c's scale changed");
    actors = "#include <signal.h>\n#include <stdlib.h>\n#include <string.h>\n#include <time.h>\n"
        + "static const char *fault(void) { const char *f = getenv(\"TINY_FAULT\"); return f ? f : \"\"; }\n"
        + actors.replace(scale, scale + "\n    if (in[0] == " + CRASHING_FIRST_BYTE + ") {\n"
            + "        if (strcmp(fault(), \"segv\") == 0) *(volatile int *)(size_t)16 = 1;\n"
            + "        volatile int zero = 0;\n"
            + "        if (strcmp(fault(), \"fpe\") == 0) out[0] = (unsigned char)(slice / zero);\n    }")
            .replace("    (void)total;\n", "    (void)total;\n    if (strcmp(fault(), \"slow\") == 0) {\n"
                + "        struct timespec pause = {0, 2000000};\n        nanosleep(&pause, NULL);\n    }\n");
    Files.writeString(sources.resolve("tiny.c"), actors);
    Path out = root.resolve(dynamic ? "out-dynamic" : "out");
    Path tiny = TestInputs.TINY.resolve("Algo/tiny.pi");
    Srdag srdag = TestInputs.srdag(tiny, null);
    CodeProject project = dynamic ? TestInputs.dispatchedModel(tiny, srdag, "auto", false, 2)
        : TestInputs.model(srdag, 2, "auto", false);
    SchedTable table = dynamic ? SchedFirings.of(project, new RunSchedule(RunSchedule.Kind.DYNAMIC, List.of()), 2, 2)
        : null;
    ActorSources code = new ActorSources(out.relativize(sources).toString(),
        List.of(out.relativize(TestInputs.TINY.resolve("Code/include")).toString()));
    return EndToEndTest.writeAndBuild(project, table, code, out, "RelWithDebInfo");
  }

  /** What a run printed and how it ended. */
  private record Run(int status, String out, String err) {
  }

  private Run run(Map<String, String> environment, List<String> arguments, Signal signal) throws Exception {
    List<String> command = new ArrayList<>(List.of(program.toString()));
    command.addAll(arguments);
    return exec(environment, command, signal);
  }

  private Run exec(Map<String, String> environment, List<String> command, Signal signal) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
        .redirectOutput(dir.resolve("out.txt").toFile()).redirectError(dir.resolve("err.txt").toFile());
    builder.environment().put("CACHEFLOW_NO_PIN", "1");
    builder.environment().putAll(environment);
    Process process = builder.start();
    if (signal != null) {
      Thread.sleep(signal.afterMillis());
      new ProcessBuilder("kill", "-" + signal.name(), Long.toString(process.pid())).start().waitFor();
    }
    assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the program did not end");
    return new Run(process.exitValue(), Files.readString(dir.resolve("out.txt"), StandardCharsets.UTF_8),
        Files.readString(dir.resolve("err.txt"), StandardCharsets.UTF_8));
  }

  /** A signal sent to the running program after some time. */
  private record Signal(String name, long afterMillis) {
  }

  @ParameterizedTest
  @CsvSource({"segv, 11, SIGSEGV (invalid memory access) at address 0x10",
      "fpe, 8, 'SIGFPE (arithmetic error, such as an integer division by zero)'"})
  void aCrashingActorIsNamedWithItsFiringIterationAndCore(String fault, int signal, String cause) throws Exception {
    Run run = run(Map.of("TINY_FAULT", fault), List.of("--iterations", "5"), null);
    assertEquals(128 + signal, run.status(), "dies with the signal's status; stderr:\n" + run.err());
    Matcher crash = Pattern.compile("tiny: actor Scale_(\\d) \\(tiny\\.pi:\\d+(:\\d+)?\\) crashed in firing (\\d+) of "
        + "iteration (\\d+) on core ([01]): (.*)").matcher(run.err());
    assertTrue(crash.find(), run.err());
    assertEquals("1", crash.group(1), "the firing that read iteration 2's second slice");
    assertEquals("1", crash.group(3));
    assertEquals("2", crash.group(4));
    assertEquals(cause, crash.group(6));
  }

  @ParameterizedTest
  @CsvSource({"INT, 2, SIGINT", "TERM, 15, SIGTERM"})
  void aStopSignalEndsTheRunAfterAnIterationWithItsStatistics(String name, int signal, String words)
      throws Exception {
    Run run = run(Map.of("TINY_FAULT", "slow"), List.of("--iterations", "1000000", "--validate", "--time"),
        new Signal(name, 700));
    assertEquals(128 + signal, run.status(), "ends with the signal's status; stderr:\n" + run.err());
    Matcher time = Pattern.compile("time: [0-9.]+ s for (\\d+) iterations").matcher(run.out());
    assertTrue(time.find(), run.out());
    long iterations = Long.parseLong(time.group(1));
    assertTrue(iterations > 0 && iterations < 1000000, "stopped early, after whole iterations: " + iterations);
    assertTrue(run.out().contains("stats: bytes copied"), run.out());
    assertTrue(run.out().contains("iterations (core 0, start to start): median"), run.out());
    assertTrue(run.out().lines().anyMatch(l -> l.matches(".* : [0-9a-f]{32}")), "the digests so far: " + run.out());
    assertTrue(run.err().contains("tiny: stopped by " + words + " after " + iterations + " iterations"), run.err());
  }

  /**
   * A dynamic schedule with two iterations in flight stops on SIGTERM as a static program does: with its signal's
   * status, after the iterations it reports, whose sink digests are the static program's for as many iterations.
   */
  @Test
  void aDispatchedProgramWithOverlappedIterationsStopsAfterTheIterationsItReports() throws Exception {
    // a million iterations asked: the dispatcher skips those after the stop instead of passing them through
    Run run = exec(Map.of("TINY_FAULT", "slow"), List.of(dispatched.toString(), "--iterations", "1000000",
        "--validate", "--time"), new Signal("TERM", 700));
    assertEquals(128 + 15, run.status(), "ends with the signal's status; stderr:\n" + run.err());
    Matcher stopped = Pattern.compile("tiny: stopped by SIGTERM after (\\d+) iterations").matcher(run.err());
    assertTrue(stopped.find(), run.err());
    long iterations = Long.parseLong(stopped.group(1));
    assertTrue(iterations > 0 && iterations < 1000000, "stopped early, after whole iterations: " + iterations);
    assertTrue(run.out().contains("time: ") && run.out().contains(" for " + iterations + " iterations"), run.out());
    assertTrue(run.out().contains("sched core 1: working"), "the dispatcher's times: " + run.out());
    Run reference = run(Map.of(), List.of("--iterations", Long.toString(iterations), "--validate"), null);
    assertEquals(0, reference.status(), reference.err());
    List<String> digests = digests(run.out());
    assertFalse(digests.isEmpty(), "no digests: " + run.out());
    assertEquals(digests(reference.out()), digests, "the digests are not the static program's after " + iterations
        + " iterations");
  }

  private static List<String> digests(String output) {
    return output.lines().filter(l -> l.matches(".* : [0-9a-f]{32}")).toList();
  }

  @Test
  void aProgramRefusesToStartWhenItsBuffersCannotFitTheAddressSpaceAllowed() throws Exception {
    // 24 MiB of address space: the program and its libraries fit, its buffers' reservation (over 24 MiB) does not
    Run run = exec(Map.of(), List.of("sh", "-c", "ulimit -v 24576; exec \"$0\" --iterations 3", program.toString()),
        null);
    assertEquals(1, run.status(), run.err());
    assertTrue(run.err().matches("(?s)tiny: the program needs [0-9.]+ MiB of address space for its buffers, more "
        + "than the 24.0 MiB of address space 'ulimit -v' allows; nothing was run\\. Largest buffers:\n  .*"),
        run.err());
    assertFalse(run.out().contains("time:"), run.out());
  }
}
