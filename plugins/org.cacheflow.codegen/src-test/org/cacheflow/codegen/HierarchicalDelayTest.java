package org.cacheflow.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import org.cacheflow.codegen.model.ActorSources;
import org.cacheflow.codegen.model.CodeProject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A sub-graph delay fed by the enclosing graph (src-test/resources/hierdelay): inside Step, fired twice per
 * iteration, Acc's state loop is set by the source interface state_in and got by the sink interface state_out.
 * At each firing of Step the loop starts from that firing's tokens of Seed and its final tokens go to Keep. The
 * sinks' digests are those of a Java simulation of the graph.
 */
class HierarchicalDelayTest {

  private static final Path GRAPH = Path.of("src-test/resources/hierdelay").toAbsolutePath();
  private static final Path WORK = Path.of(System.getProperty("cacheflow.e2e.work", "target/e2e")).toAbsolutePath();
  private static final int N = 3;
  private static final int K = 2;
  private static final int ITERATIONS = 3;

  @ParameterizedTest(name = "{0} on {1} cores")
  @CsvSource({"baseline, 1", "auto, 2"})
  void theSinkDigestsAreThoseOfTheSimulation(String strategy, int cores) throws Exception {
    EndToEndTest.assumeBuildTools("hierarchical delay run");
    Path dir = WORK.resolve("hierdelay-" + strategy + "-" + cores);
    List<String> digests = EndToEndTest.buildAndRunDigests(model(strategy, cores, false), new ActorSources(
        dir.relativize(GRAPH.resolve("Code/src")).toString(), new ArrayList<>(List.of(dir.relativize(
            GRAPH.resolve("Code/include")).toString()))), dir, ITERATIONS);
    assertNotEquals(simulatedDigests(false), simulatedDigests(true), "the setter's tokens must change the output");
    assertEquals(simulatedDigests(true), digests, "Keep and Out digests under " + strategy + " on " + cores
        + " cores");
  }

  @Test
  void syntheticProgramsAgreeAcrossStrategiesAndCores() throws Exception {
    EndToEndTest.assumeBuildTools("hierarchical delay run");
    List<String> one = EndToEndTest.buildAndRunDigests(model("baseline", 1, true), ActorSources.NONE,
        WORK.resolve("hierdelay-synthetic-baseline-1"), ITERATIONS);
    List<String> two = EndToEndTest.buildAndRunDigests(model("auto", 2, true), ActorSources.NONE,
        WORK.resolve("hierdelay-synthetic-auto-2"), ITERATIONS);
    assertEquals(2, one.size(), "a digest per sink (Keep, Out): " + one);
    assertEquals(one, two);
  }

  /**
   * Keep's and Out's inputs over the iterations, as hierdelay.c computes them: firing f of Step starts its loop
   * from Seed's tokens 100 + 7i (i = f N ...), or from zeros when {@code fromSetter} is false (what a delay
   * without its setter would give).
   */
  private static List<String> simulatedDigests(boolean fromSetter) throws Exception {
    ByteBuffer keep = ByteBuffer.allocate(ITERATIONS * N * K * Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    ByteBuffer out = ByteBuffer.allocate(ITERATIONS * K * Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    for (int iteration = 0; iteration < ITERATIONS; iteration++) {
      for (int f = 0; f < K; f++) {
        int x = 10 + f;
        int sum = 0;
        for (int i = 0; i < N; i++) {
          int prev = fromSetter ? 100 + 7 * (f * N + i) : 0;
          keep.putInt(prev * 2 + x + i);
          sum += prev;
        }
        out.putInt(sum + x);
      }
    }
    MessageDigest md5 = MessageDigest.getInstance("MD5");
    return List.of(HexFormat.of().formatHex(md5.digest(keep.array())),
        HexFormat.of().formatHex(md5.digest(out.array())));
  }

  private static CodeProject model(String strategy, int cores, boolean synthetic) {
    return TestInputs.model(TestInputs.srdag(GRAPH.resolve("Algo/hierdelay.pi"), null), cores, strategy, synthetic);
  }
}
