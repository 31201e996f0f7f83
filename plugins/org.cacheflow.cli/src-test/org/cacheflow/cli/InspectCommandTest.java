package org.cacheflow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.cacheflow.cli.Examples.Run;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code inspect} command as users run it: output, exit codes and messages. */
class InspectCommandTest {

  /** The bundled example, found from the bundle directory (tests run with it as working directory). */
  private static final Path EXAMPLE = Path.of("../../examples/filter-bank");

  static Run run(String... args) {
    return Examples.run(args);
  }

  private static long jsonNumberAfter(String json, String context, String key) {
    int at = json.indexOf(context);
    assertTrue(at >= 0, "no " + context + " in " + json);
    Matcher matcher = Pattern.compile("\"" + key + "\": (\\d+)").matcher(json);
    assertTrue(matcher.find(at), "no " + key + " after " + context);
    return Long.parseLong(matcher.group(1));
  }

  @Test
  void exampleRepetitionsAndSingleRateSizeMatchHandDerivation() {
    Run run = run("inspect", EXAMPLE.toString(), "--json");
    assertEquals(0, run.status(), run.err());
    // size = width x height = 64 x 48 = 3072 tokens per frame; the scenario keeps nbSlices = 4, so Blur
    // reads 64 x 12 = 768 tokens per firing: r(Blur) = 3072 / 768 = 4. Sharpen's Edges reads rows of
    // rowLength = 64: r(Sharpen/Edges) = 3072 / 64 = 48.
    assertEquals(4, jsonNumberAfter(run.out(), "\"name\": \"Blur\"", "repetitions"));
    assertEquals(48, jsonNumberAfter(run.out(), "\"name\": \"Sharpen/Edges\"", "repetitions"));
    // Firings: Read 1 + Blur 4 + Copy 1 + Edges 48 + Combine 1 + Bcast 1 + Histogram 1 + Display 1 = 58;
    // one fork and one join around Blur, one fork and one join around Edges: 62; the permanent delay on
    // Histogram's self-loop adds an init and an end vertex: 64.
    assertEquals(64, jsonNumberAfter(run.out(), "\"srdag\"", "vertices"));
    // Edges: Read->fork 1, fork->Blur 4, Blur->join 4, join->Copy 1, Copy->fork 1, fork->Edges 48,
    // Edges->join 48, join->Combine 1, Copy->Combine 1, Combine->Bcast 1, Bcast->Histogram 1,
    // Bcast->Display 1, init->Histogram 1, Histogram->end 1 = 114.
    assertEquals(114, jsonNumberAfter(run.out(), "\"srdag\"", "edges"));
    // The scenario sizes int as 32 bits: the histogram FIFO carries 4-byte tokens.
    assertEquals(4, jsonNumberAfter(run.out(), "\"source\": \"Histogram.counts\"", "tokenBytes"));
    assertEquals(256, jsonNumberAfter(run.out(), "\"source\": \"Histogram.counts\"", "delay"));
    assertTrue(run.err().contains("note: using scenario"), run.err());
  }

  @Test
  void parameterOverrideChangesRepetitions() {
    Run run = run("inspect", EXAMPLE.resolve("Algo/filter_bank.pi").toString(), "--param", "nbSlices=8",
        "--json");
    assertEquals(0, run.status(), run.err());
    assertEquals(8, jsonNumberAfter(run.out(), "\"name\": \"Blur\"", "repetitions"));
  }

  @Test
  void textSummaryNamesActorsFifosAndSingleRateGraph() {
    Run run = run("inspect", EXAMPLE.toString());
    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().contains("Sharpen/Edges"), run.out());
    assertTrue(run.out().contains("Read.frame"), run.out());
    assertTrue(run.out().contains("single-rate graph: 64 vertices"), run.out());
  }

  @Test
  void missingFileIsBadInputWithItsName() {
    Run run = run("inspect", "no/such/graph.pi");
    assertEquals(Main.BAD_INPUT, run.status());
    assertEquals("error: no/such/graph.pi: no such file or directory\n", run.err());
  }

  @Test
  void truncatedGraphIsReportedAtItsLine(@TempDir Path dir) throws IOException {
    Path graph = dir.resolve("broken.pi");
    Files.writeString(graph,
        "<?xml version=\"1.0\"?>\n<graphml>\n  <graph edgedefault=\"directed\">\n    <node id=\"a\"");
    Run run = run("inspect", graph.toString());
    assertEquals(Main.BAD_INPUT, run.status());
    assertTrue(run.err().startsWith("error: " + graph + ":4:"), run.err());
    assertTrue(run.err().contains("malformed XML"), run.err());
    assertEquals("", run.out(), "no partial output on error");
  }

  @Test
  void inconsistentSdf3GraphNamesTheEdge(@TempDir Path dir) throws IOException {
    Path graph = dir.resolve("bad.xml");
    Files.writeString(graph, String.join("\n", List.of(
        "<?xml version=\"1.0\"?>",
        "<sdf3 type=\"sdf\" version=\"1.0\">",
        "<applicationGraph name=\"bad\">",
        "<sdf name=\"bad\" type=\"bad\">",
        "  <actor name=\"a\" type=\"A\"><port name=\"o\" type=\"out\" rate=\"2\"/><port name=\"o2\" type=\"out\" "
            + "rate=\"1\"/></actor>",
        "  <actor name=\"b\" type=\"B\"><port name=\"i\" type=\"in\" rate=\"1\"/><port name=\"i2\" type=\"in\" "
            + "rate=\"1\"/></actor>",
        "  <channel name=\"c1\" srcActor=\"a\" srcPort=\"o\" dstActor=\"b\" dstPort=\"i\"/>",
        "  <channel name=\"c2\" srcActor=\"a\" srcPort=\"o2\" dstActor=\"b\" dstPort=\"i2\"/>",
        "</sdf>",
        "</applicationGraph>",
        "</sdf3>")));
    Run run = run("inspect", graph.toString());
    assertEquals(Main.BAD_INPUT, run.status(), run.err());
    assertTrue(run.err().startsWith("error: " + graph + ":"), run.err());
    assertTrue(run.err().contains("a.o") || run.err().contains("a.o2"), run.err());
  }

  @Test
  void usageErrorsExitWithTwo() {
    assertEquals(Main.USAGE, run("inspect").status());
    assertEquals(Main.USAGE, run("inspect", EXAMPLE.toString(), "--no-such-option").status());
    assertEquals(Main.USAGE, run("inspect", EXAMPLE.toString(), "--param", "nbSlices").status());
    assertEquals(Main.USAGE, run("frobnicate").status());
  }

  @Test
  void everyCommandHasHelp() {
    Run overview = run("--help");
    assertEquals(0, overview.status());
    for (String line : overview.out().split("\n")) {
      if (line.startsWith("  ") && !line.isBlank()) {
        String command = line.trim().split("\\s+")[0];
        Run help = run(command, "--help");
        assertEquals(0, help.status(), command);
        assertTrue(help.out().startsWith("usage: cacheflow " + command), help.out());
      }
    }
  }
}
