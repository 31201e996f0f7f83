package org.cacheflow.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.plan.memoryplan.ProgramMemory;
import org.cacheflow.plan.strategy.TargetCache;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The program's memory before anything is written (plan reports it, generate refuses a program that cannot fit),
 * and generations into one output folder at once.
 */
class MemoryAndOutputTest {

  private static final Path STEREO = Path.of("../../examples/stereo");
  private static final Path EXAMPLE = Path.of("../../examples/filter-bank");
  private static final Path RUNTIME = Path.of("../../runtime-c");

  @TempDir
  Path dir;

  private static Input stereo(long width, long height) {
    return new Input(STEREO, null, Map.of("width", Long.toString(width), "height", Long.toString(height)));
  }

  @Test
  void planReportsTheMemoryGenerateChecks() {
    PlanResult plan = new Pipeline().plan(new PlanOptions(stereo(512, 384), new PlatformOptions(null, 2), null, null,
        List.of(), null, dir.resolve("report")));
    ProgramMemory memory = plan.memory();
    assertNotNull(memory);
    GenerateResult generated = new Pipeline().generate(GenerateOptions.of(stereo(512, 384), dir.resolve("out"),
        RUNTIME).withPlatform(new PlatformOptions(null, 2)).withSyntheticActors(true));
    assertEquals(generated.project().memory(), memory, "plan lays the memory out as generate does");
    assertEquals(2, memory.perCore().size());
    assertEquals(ProgramMemory.LISTED, memory.largest().size());
    long sum = memory.copyOnWriteBytes() + memory.perCore().stream().mapToLong(Long::longValue).sum();
    assertEquals(sum, memory.totalBytes());
    assertTrue(memory.largest().get(0).bytes() >= memory.largest().get(1).bytes(), "largest first");
    assertEquals(TargetCache.ZEN4_VM.memoryBytes(), plan.memoryLimit().bytes());
    assertEquals("target zen4-vm's memory", plan.memoryLimit().source());
    // the generated program checks the same figure at start
    assertTrue(generated.project().memory().totalBytes() > 0);
  }

  @Test
  void generateRefusesAnAbsurdProgramAndWritesNothing() throws IOException {
    Path out = dir.resolve("absurd");
    InputException refused = assertThrows(InputException.class, () -> new Pipeline().generate(GenerateOptions.of(
        stereo(10_000_000, 1_000_000), out, RUNTIME).withSyntheticActors(true)));
    String message = refused.getMessage();
    assertTrue(message.startsWith("the program would need "), message);
    assertTrue(message.contains("PiB of memory (core 0 "), message);
    assertTrue(message.contains("more than the 24 GiB target zen4-vm's memory allows (--max-memory SIZE to allow "
        + "more); nothing was written. Largest buffers: buf"), message);
    assertEquals(3, message.split("Largest buffers: ")[1].split("; buf|; ch_").length, "three named: " + message);
    assertTrue(refused.location().file().endsWith("stereo.pi"), refused.location().toString());
    assertFalse(Files.exists(out), "nothing written");
    try (Stream<Path> left = Files.list(dir)) {
      assertEquals(List.of(), left.toList(), "no staging folder left either");
    }
  }

  @Test
  void maxMemoryReplacesTheTargetsMemory() {
    InputException refused = assertThrows(InputException.class, () -> new Pipeline().generate(GenerateOptions.of(
        Input.of(EXAMPLE), dir.resolve("small"), RUNTIME).withSyntheticActors(true)
        .withPlatform(new PlatformOptions(null, 1, 1024L))));
    assertTrue(refused.getMessage().contains("more than the 1 KiB --max-memory allows"), refused.getMessage());
    // 0: no limit, even for a program of petabytes
    GenerateResult huge = new Pipeline().generate(GenerateOptions.of(stereo(100_000, 100_000), dir.resolve("huge"),
        RUNTIME).withSyntheticActors(true).withPlatform(new PlatformOptions(null, 2, 0L)));
    assertTrue(huge.project().memory().totalBytes() > TargetCache.ZEN4_VM.memoryBytes());
    assertThrows(OptionException.class, () -> new PlatformOptions(null, null, -1L));
  }

  @Test
  void twoGenerationsIntoOneFolderAtOnceLeaveOneWholeOutput() throws Exception {
    Path out = dir.resolve("shared");
    List<GenerateOptions> runs = List.of(
        GenerateOptions.of(Input.of(EXAMPLE), out, RUNTIME).withSyntheticActors(true)
            .withPlatform(new PlatformOptions(null, 1)),
        GenerateOptions.of(Input.of(EXAMPLE), out, RUNTIME).withSyntheticActors(true)
            .withPlatform(new PlatformOptions(null, 2)));
    for (int round = 0; round < 3; round++) {
      ExecutorService pool = Executors.newFixedThreadPool(2);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<GenerateResult>> results = new ArrayList<>();
      for (GenerateOptions options : runs) {
        results.add(pool.submit(() -> {
          start.await();
          return new Pipeline().generate(options);
        }));
      }
      start.countDown();
      for (Future<GenerateResult> result : results) {
        assertNotNull(result.get(), "both complete");
      }
      pool.shutdown();
      // one generation's files, whole: one core file and main.c, or two core files and main.c for two cores
      boolean twoCores = Files.exists(out.resolve("core_1.c"));
      String main = Files.readString(out.resolve("main.c"));
      String table = main.lines().filter(line -> line.contains("cores[CF_GRAPH_CORES])")).findFirst().orElseThrow();
      assertEquals(twoCores ? 2 : 1, table.split("_run").length - 1, "main.c and the core files are of one "
          + "generation: " + table);
      try (Stream<Path> left = Files.list(dir)) {
        assertEquals(List.of(".shared.lock", "shared"), left.map(p -> p.getFileName().toString()).sorted().toList(),
            "no staging or old folder left");
      }
    }
  }

  @Test
  void aGenerationWaitsForAnotherProcessHoldingTheFolder() throws Exception {
    Path out = dir.resolve("held");
    Path lockFile = dir.resolve(".held.lock");
    // another process holds the folder's lock (a POSIX record lock, as the JVM takes it) until its input closes
    Process holder = new ProcessBuilder("python3", "-c", "import fcntl, sys\n"
        + "f = open(sys.argv[1], 'w')\nfcntl.lockf(f, fcntl.LOCK_EX)\nprint('locked', flush=True)\nsys.stdin.read()\n",
        lockFile.toString()).start();
    try (BufferedReader said = new BufferedReader(new InputStreamReader(holder.getInputStream(),
        StandardCharsets.UTF_8))) {
      assertEquals("locked", said.readLine());
    }
    List<String> notes = new ArrayList<>();
    List<Boolean> heldWhenTold = new ArrayList<>();
    PipelineListener listener = new PipelineListener() {
      @Override
      public void diagnostic(Diagnostic diagnostic) {
        notes.add(diagnostic.message());
        if (diagnostic.message().startsWith("another generation is writing ")) {
          heldWhenTold.add(holder.isAlive());
          try {
            holder.getOutputStream().close(); // the other process ends, and its lock with it
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      }
    };
    try {
      new Pipeline(listener).generate(GenerateOptions.of(Input.of(EXAMPLE), out, RUNTIME).withSyntheticActors(true));
    } finally {
      holder.destroy();
    }
    assertEquals(List.of(true), heldWhenTold, "told once, while the other process held the folder: " + notes);
    assertTrue(Files.isRegularFile(out.resolve("main.c")));
  }


}
