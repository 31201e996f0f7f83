package org.cacheflow.io.sdf3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.cacheflow.io.project.TestCorpus;
import org.cacheflow.model.Actor;
import org.cacheflow.model.Fifo;
import org.cacheflow.model.Graph;
import org.cacheflow.model.PersistenceLevel;
import org.cacheflow.model.Port;
import org.cacheflow.model.PortDirection;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class Sdf3ReaderTest {

  @TempDir
  Path temp;

  private static final String HEADER = "<?xml version=\"1.0\"?>\n";

  /** A two-actor graph; line numbers below are those of this text (line 1 is the XML declaration). */
  private static String graph(String actorsAndChannels) {
    return HEADER
        + "<sdf3 type=\"sdf\" version=\"1.0\">\n"
        + "<applicationGraph name=\"two\">\n"
        + "<sdf name=\"two\" type=\"Two\">\n"
        + actorsAndChannels
        + "</sdf>\n"
        + "</applicationGraph>\n"
        + "</sdf3>\n";
  }

  private static final String ACTORS = ""
      + "<actor name=\"a\"><port name=\"out\" type=\"out\" rate=\"3\"/></actor>\n" // line 5
      + "<actor name=\"b\"><port name=\"in\" type=\"in\" rate=\"2\"/></actor>\n"; // line 6

  private Path write(String name, String text) throws IOException {
    Path file = temp.resolve(name);
    Files.writeString(file, text);
    return file;
  }

  private InputException readError(String text) throws IOException {
    Path file = write("bad.xml", text);
    return assertThrows(InputException.class, () -> Sdf3Reader.read(file, new Diagnostics()));
  }

  @Test
  void readsActorsRatesChannelsAndDelays() throws IOException {
    Path file = write("two.xml", graph(ACTORS
        + "<channel name=\"ab\" srcActor=\"a\" srcPort=\"out\" dstActor=\"b\" dstPort=\"in\" initialTokens=\"4\"/>\n")
        .replace("</sdf>\n", "</sdf>\n<sdfProperties><channelProperties channel=\"ab\"><tokenSize sz=\"16\"/>"
            + "</channelProperties></sdfProperties>\n"));
    Diagnostics diagnostics = new Diagnostics();
    Graph graph = Sdf3Reader.read(file, diagnostics);

    assertEquals("two", graph.getName());
    assertEquals(List.of("a", "b"), graph.getActors().stream().map(Actor::getName).toList());
    Port out = graph.getActors().get(0).getPorts().get(0);
    assertEquals(PortDirection.OUTPUT, out.getDirection());
    assertEquals("3", out.getRate());
    Fifo fifo = graph.getFifos().get(0);
    assertSame(out, fifo.getSource());
    assertSame(fifo, out.getFifo());
    assertEquals("b", fifo.getTarget().getActor().getName());
    assertEquals(16, fifo.getTokenBits());
    assertEquals("4", fifo.getDelay().getExpression());
    assertEquals(PersistenceLevel.PERMANENT, fifo.getDelay().getPersistence());
    assertEquals(7, fifo.getLine());
    assertTrue(diagnostics.isEmpty(), diagnostics.warnings().toString());
  }

  @Test
  void missingTokenSizeAndGraphNameAreDefaultedWithWarnings() throws IOException {
    Path file = write("unnamed_graph.xml", graph(ACTORS
        + "<channel name=\"ab\" srcActor=\"a\" srcPort=\"out\" dstActor=\"b\" dstPort=\"in\" initialTokens=\"0\"/>\n")
        .replace("<applicationGraph name=\"two\">", "<applicationGraph>"));
    Diagnostics diagnostics = new Diagnostics();
    Graph graph = Sdf3Reader.read(file, diagnostics);

    assertEquals("unnamed_graph", graph.getName());
    Fifo fifo = graph.getFifos().get(0);
    assertEquals(Sdf3Reader.DEFAULT_TOKEN_BITS, fifo.getTokenBits());
    assertNull(fifo.getDelay(), "zero initial tokens make no delay");
    String warnings = diagnostics.warnings().toString();
    assertTrue(warnings.contains("named 'unnamed_graph' after the file"), warnings);
    assertTrue(warnings.contains("assuming 32 bits per token"), warnings);
    assertTrue(warnings.contains("(ab)"), warnings);
  }

  @Test
  void selfLoopConnectsTwoPortsOfOneActor() throws IOException {
    Path file = write("loop.xml", graph("<actor name=\"s\"><port name=\"o\" type=\"out\" rate=\"1\"/>"
        + "<port name=\"i\" type=\"in\" rate=\"1\"/></actor>\n"
        + "<channel name=\"ss\" srcActor=\"s\" srcPort=\"o\" dstActor=\"s\" dstPort=\"i\" initialTokens=\"1\"/>\n"));
    Graph graph = Sdf3Reader.read(file, new Diagnostics());
    Fifo loop = graph.getFifos().get(0);
    assertSame(loop.getSource().getActor(), loop.getTarget().getActor());
    assertNotNull(loop.getDelay());
  }

  @Test
  void truncatedXmlIsReportedAtTheEndOfTheFile() throws IOException {
    String full = graph(ACTORS);
    InputException error = readError(full.substring(0, full.indexOf("</sdf>")));
    assertTrue(error.getMessage().startsWith("malformed XML"), error.getMessage());
    assertEquals(7, error.location().line());
  }

  @Test
  void nonSdfTypeIsRejected() throws IOException {
    InputException error = readError(graph(ACTORS).replace("type=\"sdf\"", "type=\"csdf\""));
    assertEquals("SDF3 graph type 'csdf' is not supported; only type=\"sdf\" graphs can be read",
        error.getMessage());
    assertEquals(2, error.location().line());
  }

  @Test
  void unknownPortInChannelIsRejected() throws IOException {
    InputException error = readError(graph(ACTORS
        + "<channel name=\"ab\" srcActor=\"a\" srcPort=\"nope\" dstActor=\"b\" dstPort=\"in\"/>\n"));
    assertEquals("channel 'ab': actor 'a' has no port 'nope' (srcPort)", error.getMessage());
    assertEquals(7, error.location().line());
    assertTrue(error.location().file().endsWith("bad.xml"));
  }

  @Test
  void unknownActorInChannelIsRejected() throws IOException {
    InputException error = readError(graph(ACTORS
        + "<channel name=\"ab\" srcActor=\"a\" srcPort=\"out\" dstActor=\"c\" dstPort=\"in\"/>\n"));
    assertEquals("channel 'ab': dstActor 'c' is not an actor of the graph", error.getMessage());
    assertEquals(7, error.location().line());
  }

  @Test
  void negativeRateIsRejected() throws IOException {
    InputException error = readError(graph(ACTORS.replace("rate=\"2\"", "rate=\"-2\"")));
    assertEquals("rate of port 'b.in' is -2; it must not be negative", error.getMessage());
    assertEquals(6, error.location().line());
  }

  @Test
  void nonNumericAndFractionalRatesAreRejected() throws IOException {
    InputException word = readError(graph(ACTORS.replace("rate=\"3\"", "rate=\"three\"")));
    assertEquals("rate of port 'a.out' is 'three', not a number", word.getMessage());
    assertEquals(5, word.location().line());
    InputException fraction = readError(graph(ACTORS.replace("rate=\"3\"", "rate=\"1.5\"")));
    assertEquals("rate of port 'a.out' is 1.5; it must be a whole number", fraction.getMessage());
  }

  @Test
  void missingRequiredAttributeIsRejected() throws IOException {
    InputException error = readError(graph(ACTORS
        + "<channel name=\"ab\" srcActor=\"a\" srcPort=\"out\" dstActor=\"b\"/>\n"));
    assertEquals("<channel> has no 'dstPort' attribute", error.getMessage());
    assertEquals(7, error.location().line());
  }

  @Test
  void channelIntoAnOutputPortIsRejected() throws IOException {
    InputException error = readError(graph(ACTORS
        + "<channel name=\"ab\" srcActor=\"b\" srcPort=\"in\" dstActor=\"a\" dstPort=\"out\"/>\n"));
    assertEquals("channel 'ab': srcPort 'b.in' must be an output (type=\"out\")", error.getMessage());
  }

  @Test
  void portConnectedTwiceIsRejected() throws IOException {
    InputException error = readError(graph(ACTORS
        + "<channel name=\"ab\" srcActor=\"a\" srcPort=\"out\" dstActor=\"b\" dstPort=\"in\"/>\n"
        + "<channel name=\"ab2\" srcActor=\"a\" srcPort=\"out\" dstActor=\"b\" dstPort=\"in\"/>\n"));
    assertEquals("channel 'ab2': port 'a.out' is already connected by channel 'ab'", error.getMessage());
    assertEquals(8, error.location().line());
  }

  @Test
  void everyCorpusGraphReads() {
    List<Path> files = TestCorpus.files("sdf3", ".xml");
    for (Path file : files) {
      Graph graph = Sdf3Reader.read(file, new Diagnostics());
      assertTrue(!graph.getActors().isEmpty(), file + " has actors");
      for (Fifo fifo : graph.getFifos()) {
        assertTrue(fifo.getTokenBits() > 0, file + ": every FIFO has a token size");
      }
    }
    assertTrue(files.stream().anyMatch(file -> file.toString().contains("generated")), "generated/ is included");
  }

  @Test
  void h263DecoderHandChecked() {
    Path file = TestCorpus.root().resolve("sdf3/h263decoder.xml");
    Diagnostics diagnostics = new Diagnostics();
    Graph graph = Sdf3Reader.read(file, diagnostics);

    assertEquals("h263decoder", graph.getName());
    assertEquals(List.of("vld", "iq", "idct", "mc"), graph.getActors().stream().map(Actor::getName).toList());
    assertEquals(6, graph.getFifos().size());
    Actor vld = graph.getActors().get(0);
    assertEquals(List.of("594", "1", "1"), vld.getPorts().stream().map(Port::getRate).toList());
    Actor mc = graph.getActors().get(3);
    assertEquals("594", mc.getPorts().get(0).getRate());
    Fifo frames = mc.getPorts().get(2).getFifo(); // mc2mc, the decoded-frame self-loop
    assertSame(mc, frames.getTarget().getActor());
    assertEquals(304128, frames.getTokenBits());
    assertEquals("1", frames.getDelay().getExpression());
    assertEquals(512, vld.getPorts().get(0).getFifo().getTokenBits());
    long selfLoops = graph.getFifos().stream()
        .filter(fifo -> fifo.getSource().getActor() == fifo.getTarget().getActor()).count();
    assertEquals(3, selfLoops);
    assertTrue(diagnostics.isEmpty(), diagnostics.warnings().toString());
  }

  @Test
  void generatedCorpusGraphsAreNamedAfterTheirFile() {
    Path file = TestCorpus.root().resolve("sdf3/generated/small_cyclic.xml");
    Diagnostics diagnostics = new Diagnostics();
    Graph graph = Sdf3Reader.read(file, diagnostics);
    assertEquals("small_cyclic", graph.getName());
    assertEquals(1, diagnostics.warnings().size(), diagnostics.warnings().toString());
    assertEquals(67, graph.getFifos().get(0).getTokenBits());
  }

  @Test
  void samplerateHasNoTokenSizesSoAllAreDefaulted() {
    Path file = TestCorpus.root().resolve("sdf3/samplerate.xml");
    Diagnostics diagnostics = new Diagnostics();
    Graph graph = Sdf3Reader.read(file, diagnostics);
    assertTrue(graph.getFifos().stream().allMatch(fifo -> fifo.getTokenBits() == Sdf3Reader.DEFAULT_TOKEN_BITS));
    assertTrue(diagnostics.warnings().toString().contains("assuming 32 bits per token"));
  }
}
