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
 * A delay with a setter and a getter actor (src-test/resources/delayends): Src -> Mix carries 2 initial tokens
 * that Seed (the setter) writes and ends with 2 final tokens that Last (the getter) takes. The generated
 * program calls Seed and Last like other actors; the sinks' digests are those of a Java simulation of the graph.
 */
class DelayEndsTest {

  private static final Path GRAPH = Path.of("src-test/resources/delayends").toAbsolutePath();
  private static final Path WORK = Path.of(System.getProperty("cacheflow.e2e.work", "target/e2e")).toAbsolutePath();
  private static final int COUNT = 4;
  private static final int HALF = 2;
  private static final int BASE = 10;
  private static final int FIRST = 7;
  private static final int ITERATIONS = 3;

  @Test
  void theSetterAndGetterAreCalledOncePerIterationInPlaceOfInitAndEnd() {
    Map<String, String> files = ProjectWriter.print(model("auto", 2, false), actorSources(WORK.resolve(
        "delayends-print")));
    String cores = String.join("\n", files.entrySet().stream().filter(f -> f.getKey().startsWith("core_"))
        .map(Map.Entry::getValue).toList());
    assertEquals(1, cores.lines().filter(l -> l.matches("\\s*seedTokens\\(2 /\\* half \\*/, 7 /\\* first \\*/, .*"))
        .count(), "one call of the setter with its config values:\n" + cores);
    assertEquals(1, cores.lines().filter(l -> l.matches("\\s*last\\(2 /\\* half \\*/, .*")).count(),
        "one call of the getter:\n" + cores);
    assertTrue(!cores.contains("_init_") && !cores.contains("_end_"), "no init or end vertex:\n" + cores);
  }

  @Test
  void syntheticActorsGiveTheSetterAndGetterBodiesToo() {
    Map<String, String> files = ProjectWriter.print(model("auto", 2, true), ActorSources.NONE);
    String all = String.join("\n", files.values());
    assertTrue(all.contains("synth_Seed(") && all.contains("synth_Last("), "synthetic setter and getter");
    assertTrue(!all.contains("seedTokens("), "synthetic programs call no real actor");
  }

  @ParameterizedTest(name = "{0} on {1} cores")
  @CsvSource({"baseline, 1", "baseline, 2", "auto, 1", "auto, 2"})
  void theSinkDigestsAreThoseOfTheSimulation(String strategy, int cores) throws Exception {
    assumeToolchain();
    List<String> digests = buildAndRun(model(strategy, cores, false), "delayends-" + strategy + "-" + cores, true);
    List<String> expected = simulatedDigests(seedTokens());
    assertNotEquals(simulatedDigests(new int[HALF]).get(0), expected.get(0),
        "the setter's tokens must change the output");
    assertEquals(expected, digests, "Record and Tail digests under " + strategy + " on " + cores + " cores");
  }

  @Test
  void syntheticProgramsRunAndAgreeAcrossStrategiesAndCores() throws Exception {
    assumeToolchain();
    List<String> one = buildAndRun(model("baseline", 1, true), "delayends-synthetic-baseline-1", false);
    List<String> two = buildAndRun(model("auto", 2, true), "delayends-synthetic-auto-2", false);
    assertEquals(2, one.size(), "a digest per sink (Record, Tail): " + one);
    assertEquals(one, two, "synthetic digests under baseline / 1 core and auto / 2 cores");
  }

  private static void assumeToolchain() {
    EndToEndTest.assumeBuildTools("delay setter / getter run");
  }

  private static List<String> buildAndRun(CodeProject project, String name, boolean realActors) throws Exception {
    Path dir = WORK.resolve(name);
    List<String> digests = EndToEndTest.buildAndRunDigests(project, realActors ? actorSources(dir)
        : ActorSources.NONE, dir, ITERATIONS);
    assertEquals(2, digests.size(), "two sink digests (Record, Tail) expected: " + digests);
    return digests;
  }

  /** What seedTokens in delayends.c writes. */
  private static int[] seedTokens() {
    int[] tokens = new int[HALF];
    for (int i = 0; i < HALF; i++) {
      tokens[i] = FIRST * (i + 1) + 100;
    }
    return tokens;
  }

  /**
   * The MD5s of Record's and Tail's inputs over the iterations. Src -> Mix carries the setter's tokens, then
   * Src's: Mix's four firings read the 2 setter tokens and Src's first 2; Last (the getter) reads Src's last 2.
   * The setter gives the same tokens at every iteration: nothing carries over.
   */
  private static List<String> simulatedDigests(int[] setterTokens) throws Exception {
    ByteBuffer record = ByteBuffer.allocate(ITERATIONS * COUNT * Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    ByteBuffer tail = ByteBuffer.allocate(ITERATIONS * HALF * Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    for (int iteration = 0; iteration < ITERATIONS; iteration++) {
      int[] stream = new int[HALF + COUNT];
      System.arraycopy(setterTokens, 0, stream, 0, HALF);
      for (int i = 0; i < COUNT; i++) {
        stream[HALF + i] = BASE + i;
      }
      for (int i = 0; i < COUNT; i++) {
        record.putInt(stream[i] * 3 + 1);
      }
      for (int i = 0; i < HALF; i++) {
        tail.putInt(stream[COUNT + i] * 5 - i);
      }
    }
    MessageDigest md5 = MessageDigest.getInstance("MD5");
    return List.of(HexFormat.of().formatHex(md5.digest(record.array())),
        HexFormat.of().formatHex(md5.digest(tail.array())));
  }

  private static CodeProject model(String strategy, int cores, boolean synthetic) {
    return TestInputs.model(TestInputs.srdag(GRAPH.resolve("Algo/delayends.pi"), null), cores, strategy, synthetic);
  }

  private static ActorSources actorSources(Path dir) {
    return new ActorSources(dir.relativize(GRAPH.resolve("Code/src")).toString(),
        new ArrayList<>(List.of(dir.relativize(GRAPH.resolve("Code/include")).toString())));
  }
}
