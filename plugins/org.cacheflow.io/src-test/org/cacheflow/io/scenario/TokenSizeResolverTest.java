package org.cacheflow.io.scenario;

import static org.cacheflow.io.scenario.TestGraphs.actor;
import static org.cacheflow.io.scenario.TestGraphs.fifo;
import static org.cacheflow.io.scenario.TestGraphs.graph;
import static org.cacheflow.io.scenario.TestGraphs.refine;
import static org.cacheflow.io.scenario.TestGraphs.scenario;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalLong;

import org.cacheflow.model.Actor;
import org.cacheflow.model.Fifo;
import org.cacheflow.model.Graph;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.junit.jupiter.api.Test;

class TokenSizeResolverTest {

  private final Graph graph = graph("top");
  private final Actor source = actor(graph, "Src");
  private final Actor sink = actor(graph, "Snk");

  @Test
  void scenarioSizesInBitsAreUsedAsIs() {
    Fifo pixels = fifo(graph, source, sink, "uchar");
    Fifo words = fifo(graph, source, sink, " int ");
    Diagnostics diagnostics = new Diagnostics();
    TokenSizeResolver.resolve(graph, scenario(true, "uchar", 8, "int", 32), diagnostics);
    assertEquals(8, pixels.getTokenBits());
    assertEquals(32, words.getTokenBits(), "spaces around a type name do not matter");
    assertTrue(diagnostics.isEmpty(), diagnostics.warnings().toString());
  }

  @Test
  void scenarioSizesInBytesAreConvertedToBits() {
    Fifo coordinates = fifo(graph, source, sink, "coord");
    TokenSizeResolver.resolve(graph, scenario(false, "coord", 8), new Diagnostics());
    assertEquals(64, coordinates.getTokenBits());
  }

  @Test
  void scenarioSizeOverridesTheCDefault() {
    Fifo longs = fifo(graph, source, sink, "long");
    TokenSizeResolver.resolve(graph, scenario(true, "long", 32), new Diagnostics());
    assertEquals(32, longs.getTokenBits(), "some corpus scenarios make long 32 bits");
  }

  @Test
  void withoutScenarioStandardCTypesUseTheirLp64SizeSilently() {
    Fifo doubles = fifo(graph, source, sink, "double");
    Fifo bytes = fifo(graph, source, sink, "const unsigned  char");
    Fifo fixed = fifo(graph, source, sink, "uint16_t");
    Diagnostics diagnostics = new Diagnostics();
    TokenSizeResolver.resolve(graph, null, diagnostics);
    assertEquals(64, doubles.getTokenBits());
    assertEquals(8, bytes.getTokenBits());
    assertEquals(16, fixed.getTokenBits());
    assertTrue(diagnostics.isEmpty(), diagnostics.warnings().toString());
  }

  @Test
  void standardTypeMissingFromScenarioIsWarnedOncePerType() {
    Fifo first = fifo(graph, source, sink, "float");
    fifo(graph, source, sink, "float");
    Diagnostics diagnostics = new Diagnostics();
    TokenSizeResolver.resolve(graph, scenario(true, "char", 8), diagnostics);
    assertEquals(32, first.getTokenBits());
    assertEquals(1, diagnostics.warnings().size(), diagnostics.warnings().toString());
    assertTrue(diagnostics.warnings().get(0).message().contains("'float' is not among the scenario's data types"));
  }

  @Test
  void unknownTypeIsGuessedWithAWarningNamingFifoAndType() {
    Fifo mystery = fifo(graph, source, sink, "Pixel");
    Diagnostics diagnostics = new Diagnostics();
    TokenSizeResolver.resolve(graph, scenario(true, "char", 8), diagnostics);
    assertEquals(TokenSizeResolver.GUESSED_BITS, mystery.getTokenBits());
    String warning = diagnostics.warnings().get(0).toString();
    assertTrue(warning.startsWith("g.pi:10: FIFO Src.out0 -> Snk.in0 has data type 'Pixel'"), warning);
  }

  @Test
  void untypedFifoKeepsTheSizeItsReaderSet() {
    Fifo sdf3Channel = fifo(graph, source, sink, null);
    sdf3Channel.setTokenBits(304128);
    Diagnostics diagnostics = new Diagnostics();
    TokenSizeResolver.resolve(graph, null, diagnostics);
    assertEquals(304128, sdf3Channel.getTokenBits());
    assertTrue(diagnostics.isEmpty());
  }

  @Test
  void subGraphsOfHierarchicalActorsAreResolvedToo() {
    Graph inner = refine(actor(graph, "Hier"), "inner");
    Fifo nested = fifo(inner, actor(inner, "X"), actor(inner, "Y"), "uchar");
    TokenSizeResolver.resolve(graph, scenario(true, "uchar", 8), new Diagnostics());
    assertEquals(8, nested.getTokenBits());
  }

  @Test
  void cTypeSizesKnowPointersAndRejectUnknownNames() {
    assertEquals(OptionalLong.of(64), CTypeSizes.bits(" char* "));
    assertEquals(OptionalLong.of(128), CTypeSizes.bits("long double"));
    assertEquals(OptionalLong.empty(), CTypeSizes.bits("coordf"));
    assertEquals("unsigned char", CTypeSizes.normalize(" const unsigned   char "));
  }
}
