package org.cacheflow.analysis.srdag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.cacheflow.model.ActorKind;
import org.cacheflow.model.Graph;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.io.pisdf.PiReader;
import org.cacheflow.io.sdf3.Sdf3Reader;
import org.cacheflow.analysis.AnalysisResult;
import org.cacheflow.analysis.FlatActor;
import org.cacheflow.analysis.FlatFifo;
import org.cacheflow.analysis.FlatGraph;
import org.cacheflow.analysis.GraphAnalysis;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Analyses the real graphs of the shared corpus (system property {@code cacheflow.corpus}; skipped when
 * absent): every graph must balance with the computed repetition vector and expand into a valid SRDAG, and
 * three graphs are compared with figures derived by hand from their files.
 */
class CorpusAnalysisTest {

  /** Graphs whose single-rate graph is expanded and checked in full; bigger ones only get analysed. */
  private static final long EXPANDED_FIRINGS_LIMIT = 200_000;

  private static Path corpus() {
    String property = System.getProperty("cacheflow.corpus");
    Path path = property == null ? null : Path.of(property);
    Assumptions.assumeTrue(path != null && Files.isDirectory(path),
        "corpus not found (system property cacheflow.corpus = " + property + "); corpus tests skipped");
    return path;
  }

  private static Path sdf3(String name) {
    Path file = corpus().resolve("sdf3").resolve(name);
    Assumptions.assumeTrue(Files.isRegularFile(file), file + " is absent; skipped");
    return file;
  }

  private static AnalysisResult analyseSdf3(Path file) {
    Graph graph = Sdf3Reader.read(file, new Diagnostics());
    return GraphAnalysis.analyse(graph, Map.of(), new Diagnostics());
  }

  private static Path preesm(String application, String graph) {
    Path file = corpus().resolve("preesm-apps").resolve(application).resolve("Algo").resolve(graph);
    Assumptions.assumeTrue(Files.isRegularFile(file), file + " is absent; skipped");
    return file;
  }

  private static AnalysisResult analysePi(Path file) {
    Graph graph = PiReader.read(file, new Diagnostics());
    return GraphAnalysis.analyse(graph, Map.of(), new Diagnostics());
  }

  private static boolean hasInterfaces(Graph graph) {
    return graph.getActors().stream().anyMatch(actor -> actor.getKind() == ActorKind.SOURCE_INTERFACE
        || actor.getKind() == ActorKind.SINK_INTERFACE);
  }

  /** Every FIFO's balance equation holds with the repetition vector found. */
  static void assertBalanced(FlatGraph flat) {
    for (FlatFifo fifo : flat.fifos()) {
      long produced = Math.multiplyExact(fifo.production(), flat.actor(fifo.source()).repetitions());
      long consumed = Math.multiplyExact(fifo.consumption(), flat.actor(fifo.target()).repetitions());
      assertEquals(produced, consumed, flat.describe(fifo));
    }
    for (var actor : flat.actors()) {
      assertTrue(actor.repetitions() > 0, actor.path());
    }
  }

  @Test
  void everySdf3GraphBalancesAndExpands() throws IOException {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(corpus().resolve("sdf3"))) {
      files = walk.filter(p -> p.toString().endsWith(".xml")).sorted().toList();
    }
    assertFalse(files.isEmpty());
    List<String> checked = new ArrayList<>();
    for (Path file : files) {
      AnalysisResult result;
      try {
        result = analyseSdf3(file);
      } catch (InputException e) {
        // a graph may be rejected (deadlock, inconsistency) but only with a located message
        assertTrue(e.location() != null && e.location().line() > 0, file + ": " + e.describe());
        checked.add(file.getFileName() + " rejected: " + e.getMessage().lines().findFirst().orElse(""));
        continue;
      }
      assertBalanced(result.flatGraph());
      if (result.flatGraph().totalFirings() <= EXPANDED_FIRINGS_LIMIT) {
        SrdagInvariants.check(SingleRateExpansion.expand(result.flatGraph()));
      }
      checked.add(file.getFileName().toString());
    }
    assertEquals(files.size(), checked.size(), checked.toString());
  }

  /**
   * Every top-level PiSDF graph of the corpus (graphs with interfaces are sub-graphs, analysed through
   * their parents) with its default parameters.
   */
  @Test
  void everyPiSdfGraphBalancesAndExpands() throws IOException {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(corpus().resolve("preesm-apps"))) {
      files = walk.filter(p -> p.toString().endsWith(".pi")).sorted().toList();
    }
    assertFalse(files.isEmpty());
    int analysed = 0;
    for (Path file : files) {
      Graph graph;
      try {
        graph = PiReader.read(file, new Diagnostics());
      } catch (InputException e) {
        assertTrue(e.location() != null, file + ": " + e.describe());
        continue;
      }
      if (hasInterfaces(graph)) {
        continue;
      }
      AnalysisResult result;
      try {
        result = GraphAnalysis.analyse(graph, Map.of(), new Diagnostics());
      } catch (InputException e) {
        assertTrue(e.location() != null && e.location().line() > 0, file + ": " + e.describe());
        continue;
      }
      assertBalanced(result.flatGraph());
      if (result.flatGraph().totalFirings() <= EXPANDED_FIRINGS_LIMIT) {
        SrdagInvariants.check(SingleRateExpansion.expand(result.flatGraph()));
      }
      analysed++;
    }
    assertTrue(analysed >= 20, "only " + analysed + " top-level graphs analysed");
  }

  /**
   * hello-world's hierarchical_hello_world.pi: nbTokens = 256, nbSubTokens = nbTokens/16 = 16.
   * GenerateTokens writes 256, the hierarchical HelloWorld reads and writes 16, VerifyTokens reads 256: r =
   * (1, 16, 1) at the top. Inside (subgraph_hello_world.pi) the interfaces carry nbSubTokens = 16 and the
   * inner HelloWorld reads and writes 1, so it is scaled to 16 per firing: 16 x 16 = 256 firings. Both
   * interfaces pass 16 -> 16 and are removed. SRDAG: 258 firings; GenerateTokens forks to the 256 inner
   * firings (1 vertex, 257 edges) and VerifyTokens joins them (1 vertex, 257 edges): 260 vertices, 514
   * edges.
   */
  @Test
  void hierarchicalHelloWorldByHand() {
    AnalysisResult result = analysePi(preesm("org.ietr.preesm.hello-world", "hierarchical_hello_world.pi"));
    String g = result.flatGraph().name() + "/";
    assertEquals(Map.of(g + "GenerateTokens", 1L, g + "HelloWorld/HelloWorld", 256L, g + "VerifyTokens", 1L),
        result.repetitions());
    Srdag dag = SingleRateExpansion.expand(result.flatGraph());
    SrdagInvariants.check(dag);
    assertEquals(260, dag.vertexCount());
    assertEquals(514, dag.edgeCount());
  }

  /**
   * stereo_top.pi with its defaults: height 380, width 434 (size 164920), nbSlice 20, maxDisparity 60,
   * minDisparity 0, nbIterations 5. At the top everything fires once except Median_Filter: Split writes
   * nbSlice x width x (height/nbSlice + 2) = 20 x 434 x 21 = 182280 and each filter reads 434 x 21 = 9114,
   * so 20 firings. In Cost_Parallel_Work (fires once): DisparityGen's nbDisparity = 60 disparities are read
   * one per firing by CostConstruction, and CostConstruction, AggregateCost and disparitySelect exchange
   * whole images, so all three fire 60 times; OffsetGen's nbIterations = 5 offsets give 5 firings of
   * ComputeHorWeights and ComputeVertWeights. Interfaces: grayL brings one 164920-pixel image per firing
   * but CostConstruction reads 60 of them, so it is a broadcast of 164920 -> 9895200; rawDisparity gets 60
   * images and keeps the last: a round buffer 9895200 -> 164920.
   */
  @Test
  void stereoByHand() {
    AnalysisResult result = analysePi(preesm("org.ietr.preesm.stereo", "stereo_top.pi"));
    FlatGraph flat = result.flatGraph();
    String top = flat.name() + "/";
    String cost = top + "Cost_Parallel_Work/";
    assertEquals(20, result.repetitions(top + "Median_Filter"));
    assertEquals(1, result.repetitions(top + "Split"));
    for (String actor : List.of("CostConstruction", "AggregateCost", "disparitySelect")) {
      assertEquals(60, result.repetitions(cost + actor), actor);
    }
    assertEquals(5, result.repetitions(cost + "ComputeHorWeights"));
    assertEquals(5, result.repetitions(cost + "ComputeVertWeights"));
    assertEquals(1, result.repetitions(cost + "DisparityGen"));
    FlatActor grayL = flat.actor(cost + "grayL");
    assertEquals(ActorKind.BROADCAST, grayL.kind());
    assertEquals(164920, grayL.port("grayL").rate());
    assertEquals(60 * 164920, grayL.port("if_grayL").rate());
    FlatActor rawDisparity = flat.actor(cost + "rawDisparity");
    assertEquals(ActorKind.ROUNDBUFFER, rawDisparity.kind());
    assertEquals(60 * 164920, rawDisparity.port("if_rawDisparity").rate());
    assertEquals(164920, rawDisparity.port("rawDisparity").rate());
    SrdagInvariants.check(SingleRateExpansion.expand(flat));
  }

  /**
   * samplerate.xml (CD to DAT): a -1-> 1- b -2-> 3- c -2-> 7- d -8-> 7- e -5-> 1- f, each actor with a
   * 1-token self-loop. With r(a) = x: r(b) = x, r(c) = 2x/3, r(d) = 2r(c)/7 = 4x/21, r(e) = 8r(d)/7 =
   * 32x/147, r(f) = 5r(e) = 160x/147; x = 147 gives (147, 147, 98, 28, 32, 160), 612 firings.
   *
   * <p>
   * SRDAG: each self-loop adds an INIT and an END and r + 1 one-token edges (12 vertices, 612 + 6 edges).
   * a -> b: 147 direct edges. b -> c repeats every 6 tokens (3 b, 2 c firings): the middle b forks, both c
   * join, 7 edges; 49 periods: 49 forks, 98 joins, 343 edges. c -> d repeats every 14 tokens: the c firing
   * holding tokens 6..7 forks, both d join; edges 2 join outputs + 1 fork input + 8 overlaps = 11; 14
   * periods: 14 forks, 28 joins, 154 edges. d -> e every 56 tokens: all 7 d firings fork (8 > 7), 6 of the 8
   * e firings straddle a d boundary and join; 7 + 6 + 14 overlaps = 27 edges; 4 periods: 28 forks, 24
   * joins, 108 edges. e -> f: 32 forks of 5, 192 edges. Vertices 612 + 12 + 123 forks + 150 joins = 897;
   * edges 618 + 147 + 343 + 154 + 108 + 192 = 1562.
   */
  @Test
  void samplerateByHand() {
    AnalysisResult result = analyseSdf3(sdf3("samplerate.xml"));
    String g = result.flatGraph().name() + "/";
    assertEquals(Map.of(g + "a", 147L, g + "b", 147L, g + "c", 98L, g + "d", 28L, g + "e", 32L, g + "f", 160L),
        result.repetitions());
    Srdag dag = SingleRateExpansion.expand(result.flatGraph());
    SrdagInvariants.check(dag);
    assertEquals(897, dag.vertexCount());
    assertEquals(1562, dag.edgeCount());
    assertEquals(123, dag.countVertices(ActorKind.FORK));
    assertEquals(150, dag.countVertices(ActorKind.JOIN));
    assertEquals(6, dag.countVertices(ActorKind.INIT));
    assertEquals(6, dag.persistentDelayCount());
  }

  /**
   * h263decoder.xml: vld -594-> 1- iq -1-> 1- idct -1-> 594- mc, each with a 1-token self-loop: r = (1,
   * 594, 594, 1), 1190 firings. SRDAG: vld's 594 tokens fork to the 594 iq firings (1 fork, 595 edges),
   * iq -> idct is 594 direct edges, mc joins the 594 idct firings (1 join, 595 edges); self-loops add 6
   * vertices and 2 + 595 + 2 edges. Vertices 1190 + 2 + 6 = 1198; edges 595 + 594 + 595 + 599 = 2383.
   * Sizes: vld2iq carries 594 tokens of 512 bits = 38016 bytes per iteration, as does mc's 304128-bit
   * frame self-loop.
   */
  @Test
  void h263decoderByHand() {
    AnalysisResult result = analyseSdf3(sdf3("h263decoder.xml"));
    String g = result.flatGraph().name() + "/";
    assertEquals(Map.of(g + "vld", 1L, g + "iq", 594L, g + "idct", 594L, g + "mc", 1L), result.repetitions());
    Srdag dag = SingleRateExpansion.expand(result.flatGraph());
    SrdagInvariants.check(dag);
    assertEquals(1198, dag.vertexCount());
    assertEquals(2383, dag.edgeCount());
    FlatGraph flat = result.flatGraph();
    for (FlatFifo fifo : flat.fifos()) {
      String name = flat.describe(fifo);
      if (name.equals(g + "vld.p0 -> " + g + "iq.p0") || name.equals(g + "mc.p2 -> " + g + "mc.p1")) {
        assertEquals(38016, result.buffers().get(fifo.index()).bytesPerIteration(), name);
      }
    }
    int fork = dag.edgeTarget(dag.outgoingEdges(dag.firingVertex(flat.actor(g + "vld").index(), 0))[0]);
    assertEquals(ActorKind.FORK, dag.vertexKind(fork));
    assertEquals(594, dag.outgoingEdges(fork).length);
    assertEquals(64, dag.edgeBytes(dag.outgoingEdges(fork)[0]));
  }

  /**
   * mp3decoder_granule_parallelism.xml: huffman writes 2 tokens per firing to req0 and req1, every other
   * channel is 1:1, so r(huffman) = 1 and the 13 other actors fire twice: 27 firings. SRDAG: huffman's two
   * outputs fork (2 vertices, 3 edges each); the 16 other data channels link twice (32 edges); the
   * self-loops of huffman (r 1), req0 and req1 (r 2) add 6 vertices and 2 + 3 + 3 edges. Vertices 27 + 2 +
   * 6 = 35; edges 6 + 32 + 8 = 46.
   */
  @Test
  void mp3decoderByHand() {
    AnalysisResult result = analyseSdf3(sdf3("mp3decoder_granule_parallelism.xml"));
    String g = result.flatGraph().name() + "/";
    assertEquals(1, result.repetitions(g + "huffman"));
    assertEquals(14, result.repetitions().size());
    result.repetitions().forEach((path, count) -> {
      if (!path.equals(g + "huffman")) {
        assertEquals(2, count, path);
      }
    });
    Srdag dag = SingleRateExpansion.expand(result.flatGraph());
    SrdagInvariants.check(dag);
    assertEquals(35, dag.vertexCount());
    assertEquals(46, dag.edgeCount());
  }
}
