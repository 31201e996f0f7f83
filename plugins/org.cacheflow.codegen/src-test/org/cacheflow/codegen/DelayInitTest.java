package org.cacheflow.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import org.cacheflow.codegen.model.ActorSources;
import org.cacheflow.codegen.model.CodeProject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A persistent delay whose init refinement writes non-zero tokens (src-test/resources/delayinit): the generated
 * program calls it once, so the sink digest is the one a Java simulation of the graph gives, not the one of
 * zero initial tokens.
 */
class DelayInitTest {

  private static final Path GRAPH = Path.of("src-test/resources/delayinit").toAbsolutePath();
  private static final Path WORK = Path.of(System.getProperty("cacheflow.e2e.work", "target/e2e")).toAbsolutePath();
  private static final int COUNT = 2;
  private static final int SEED = 7;
  private static final int ITERATIONS = 3;

  @Test
  void theInitRefinementIsCalledOnceWithTheDelaysConfigValuesAndState() {
    Map<String, String> files = ProjectWriter.print(model("auto", 2, false),
        actorSources(WORK.resolve("delayinit-print")));
    String calls = String.join("\n", files.entrySet().stream().filter(f -> f.getKey().startsWith("core_"))
        .map(Map.Entry::getValue).toList());
    List<String> lines = calls.lines().filter(l -> l.contains("fillHistory(")).toList();
    assertEquals(1, lines.size(), "one call of the init refinement:\n" + calls);
    assertTrue(lines.get(0).matches("\\s*fillHistory\\(2 /\\* count \\*/, 7 /\\* seed \\*/, \\(int \\*\\).*\\);"),
        lines.get(0));
    assertTrue(calls.contains("if (iteration == 0) {\n"), "the call is guarded to the first iteration:\n" + calls);
  }

  @Test
  void syntheticActorsKeepZeroInitialTokens() {
    Map<String, String> files = ProjectWriter.print(model("auto", 1, true), ActorSources.NONE);
    assertTrue(files.values().stream().noneMatch(text -> text.contains("fillHistory")));
  }

  @ParameterizedTest(name = "{0} on {1} cores")
  @CsvSource({"baseline, 1", "baseline, 2", "auto, 1", "auto, 2"})
  void theSinkDigestIsTheOneOfTheInitialisedDelay(String strategy, int cores) throws Exception {
    EndToEndTest.assumeBuildTools("delay init run");
    CodeProject project = model(strategy, cores, false);
    Path dir = WORK.resolve("delayinit-" + strategy + "-" + cores);
    List<String> digests = EndToEndTest.buildAndRunDigests(project, actorSources(dir), dir, ITERATIONS);
    assertEquals(1, digests.size(), "one sink digest expected: " + digests);
    String initialised = simulatedDigest(initialTokens());
    String zeros = simulatedDigest(new int[COUNT]);
    assertNotEquals(zeros, initialised, "the test's init tokens must change the output");
    assertEquals(initialised, digests.get(0), "sink digest under " + strategy + " on " + cores + " cores");
  }

  /** What fillHistory in delayinit.c writes. */
  private static int[] initialTokens() {
    int[] tokens = new int[COUNT];
    for (int i = 0; i < COUNT; i++) {
      tokens[i] = SEED * (i + 1) + 100;
    }
    return tokens;
  }

  /** The MD5 of Record's input over the iterations: Step's outputs, its state fed back through the delay. */
  private static String simulatedDigest(int[] initial) throws Exception {
    int[] previous = initial.clone();
    ByteBuffer sink = ByteBuffer.allocate(ITERATIONS * COUNT * Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    for (int iteration = 0; iteration < ITERATIONS; iteration++) {
      int[] state = new int[COUNT];
      for (int i = 0; i < COUNT; i++) {
        state[i] = previous[i] * 3 + i + 1;
        sink.putInt(state[i]);
      }
      previous = state;
    }
    return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(sink.array()));
  }

  private static CodeProject model(String strategy, int cores, boolean synthetic) {
    return TestInputs.model(TestInputs.srdag(GRAPH.resolve("Algo/delayinit.pi"), null), cores, strategy, synthetic);
  }

  private static ActorSources actorSources(Path dir) {
    return new ActorSources(dir.relativize(GRAPH.resolve("Code/src")).toString(),
        new ArrayList<>(List.of(dir.relativize(GRAPH.resolve("Code/include")).toString())));
  }
}
