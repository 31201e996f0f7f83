package org.cacheflow.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.cacheflow.io.pisdf.PiReader;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.analysis.srdag.SingleRateExpansion;
import org.cacheflow.analysis.srdag.Srdag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Delay setters and getters read from .pi text, as PREESM writes them: rates checked, errors located in the file. */
class DelayEndsFileTest {

  @TempDir
  Path project;

  /** A -> B with a delay of {@code size}; S sets it with {@code setterRate} tokens per firing, G gets it. */
  private Path graph(String size, String setterRate) throws IOException {
    String text = """
        <?xml version="1.0" encoding="UTF-8"?>
        <graphml xmlns="http://graphml.graphdrawing.org/xmlns">
            <graph edgedefault="directed">
                <data key="name">ends</data>
                <node expr="%s" id="size" kind="param"/>
                <node id="A" kind="actor"><port annotation="NONE" expr="3" kind="output" name="out"/></node>
                <node id="B" kind="actor"><port annotation="NONE" expr="1" kind="input" name="in"/></node>
                <node id="S" kind="actor"><port annotation="NONE" expr="%s" kind="output" name="o"/></node>
                <node id="G" kind="actor"><port annotation="NONE" expr="size" kind="input" name="i"/></node>
                <node expr="size" getter="G" id="d" kind="delay" level="none" setter="S">
                    <port annotation="NONE" expr="size" kind="input" name="set"/>
                    <port annotation="NONE" expr="size" kind="output" name="get"/>
                </node>
                <edge kind="fifo" source="A" sourceport="out" target="B" targetport="in" type="int">
                    <data key="delay">d</data>
                </edge>
                <edge kind="fifo" source="S" sourceport="o" target="d" targetport="set" type="int"/>
                <edge kind="fifo" source="d" sourceport="get" target="G" targetport="i" type="int"/>
            </graph>
        </graphml>
        """.formatted(size, setterRate);
    Path file = project.resolve("Algo/ends.pi");
    Files.createDirectories(file.getParent());
    Files.writeString(file, text, StandardCharsets.UTF_8);
    return file;
  }

  private static AnalysisResult analyse(Path file) {
    Diagnostics diagnostics = new Diagnostics();
    return GraphAnalysis.analyse(PiReader.read(file, diagnostics), Map.of(), diagnostics);
  }

  @Test
  void setterFiringsGiveTheDelaysTokens() throws IOException {
    // delay 4, S writes 2 per firing: S fires twice per iteration, G (4 per firing) once; A once, B 3 times
    Srdag dag = SingleRateExpansion.expand(analyse(graph("4", "2")).flatGraph());
    FlatGraph flat = dag.flatGraph();
    assertEquals(2, flat.actor("ends/S").repetitions());
    assertEquals(1, flat.actor("ends/G").repetitions());
    assertEquals(flat.actor("ends/S").index(), flat.fifo(0).setter());
    int fromSetter = 0;
    int toGetter = 0;
    for (int e = 0; e < dag.edgeCount(); e++) {
      fromSetter += dag.isFromSetter(e) ? (int) dag.edgeTokens(e) : 0;
      toGetter += dag.isToGetter(e) && dag.vertexActor(dag.edgeTarget(e)) >= 0 ? (int) dag.edgeTokens(e) : 0;
    }
    assertEquals(4 + 2 + 2, fromSetter, "S's 4 tokens, counted again on the forks' outputs");
    assertEquals(4, toGetter, "G reads the 4 final tokens");
  }

  @Test
  void aSetterRateThatDoesNotGiveTheDelaySizeIsAnErrorAtItsFifo() throws IOException {
    Path file = graph("4", "3");
    InputException error = assertThrows(InputException.class, () -> analyse(file));
    assertTrue(error.location().file().endsWith("ends.pi"), error.location().toString());
    assertEquals(17, error.location().line(), "the line of the FIFO S.o -> d.set");
    assertTrue(error.getMessage().contains("setter 'S' of delay 'd'") && error.getMessage().contains("produces 3")
        && error.getMessage().contains("holds 4 tokens"), error.getMessage());
  }

  /**
   * A sub-graph's delay fed by the enclosing graph: inside H (fired twice), A's self-loop carries 3 tokens set by
   * the source interface s and got by the sink interface g ({@code level}: the delay's persistence).
   */
  private Path hierarchical(String level, String outerRate) throws IOException {
    Path sub = project.resolve("Algo/h.pi");
    Files.createDirectories(sub.getParent());
    Files.writeString(sub, """
        <?xml version="1.0" encoding="UTF-8"?>
        <graphml xmlns="http://graphml.graphdrawing.org/xmlns">
            <graph edgedefault="directed">
                <data key="name">h</data>
                <node id="s" kind="src"><port annotation="NONE" expr="%2$s" kind="output" name="s"/></node>
                <node id="g" kind="snk"><port annotation="NONE" expr="3" kind="input" name="g"/></node>
                <node id="A" kind="actor">
                    <port annotation="NONE" expr="3" kind="input" name="prev"/>
                    <port annotation="NONE" expr="3" kind="output" name="next"/>
                </node>
                <node expr="3" getter="" id="d" kind="delay" level="%1$s" setter="">
                    <port annotation="NONE" expr="3" kind="input" name="set"/>
                    <port annotation="NONE" expr="3" kind="output" name="get"/>
                </node>
                <edge kind="fifo" source="A" sourceport="next" target="A" targetport="prev" type="int">
                    <data key="delay">d</data>
                </edge>
                <edge kind="fifo" source="s" sourceport="s" target="d" targetport="set" type="int"/>
                <edge kind="fifo" source="d" sourceport="get" target="g" targetport="g" type="int"/>
            </graph>
        </graphml>
        """.formatted(level, outerRate), StandardCharsets.UTF_8);
    Path top = project.resolve("Algo/top.pi");
    Files.writeString(top, """
        <?xml version="1.0" encoding="UTF-8"?>
        <graphml xmlns="http://graphml.graphdrawing.org/xmlns">
            <key attr.name="graph_desc" attr.type="string" for="node"/>
            <graph edgedefault="directed">
                <data key="name">top</data>
                <node id="P" kind="actor"><port annotation="NONE" expr="6" kind="output" name="o"/></node>
                <node id="H" kind="actor">
                    <data key="graph_desc">Algo/h.pi</data>
                    <port annotation="NONE" expr="%1$s" kind="input" name="s"/>
                    <port annotation="NONE" expr="3" kind="output" name="g"/>
                </node>
                <node id="C" kind="actor"><port annotation="NONE" expr="6" kind="input" name="i"/></node>
                <edge kind="fifo" source="P" sourceport="o" target="H" targetport="s" type="int"/>
                <edge kind="fifo" source="H" sourceport="g" target="C" targetport="i" type="int"/>
            </graph>
        </graphml>
        """.formatted(outerRate), StandardCharsets.UTF_8);
    return top;
  }

  @Test
  void aSubgraphDelayMayBeSetAndGotThroughItsInterfaces() throws IOException {
    Srdag dag = SingleRateExpansion.expand(analyse(hierarchical("none", "3")).flatGraph());
    FlatGraph flat = dag.flatGraph();
    assertEquals(2, flat.actor("top/H/A").repetitions());
    FlatFifo loop = flat.fifos().stream().filter(f -> f.delay() > 0).findFirst().orElseThrow();
    assertEquals(flat.actor("top/H/s").index(), loop.setter(), "the source interface's broadcast sets the delay");
    assertEquals("if_s", loop.setterPort());
    assertEquals(flat.actor("top/H/g").index(), loop.getter(), "the sink interface's round buffer gets it");
    assertEquals(2, loop.delaySegments(), "one run of the delay per firing of H");
    assertEquals(false, loop.delayPersistent());
    // per firing of H: its broadcast gives A's 3 initial tokens, A's 3 final tokens go to its round buffer
    int fromSetter = 0;
    int toGetter = 0;
    for (int e = 0; e < dag.edgeCount(); e++) {
      fromSetter += dag.isFromSetter(e) ? (int) dag.edgeTokens(e) : 0;
      toGetter += dag.isToGetter(e) ? (int) dag.edgeTokens(e) : 0;
    }
    assertEquals(2 * 3, fromSetter);
    assertEquals(2 * 3, toGetter);
  }

  @Test
  void aSubgraphDelaySetThroughAnInterfaceMustNotPersist() throws IOException {
    InputException error = assertThrows(InputException.class, () -> analyse(hierarchical("permanent", "3")));
    assertTrue(error.location().file().endsWith("h.pi"), error.location().toString());
    assertTrue(error.getMessage().contains("only persistence NONE allows a setter or getter"), error.getMessage());
  }

  @Test
  void anInterfaceGivingMoreThanTheDelaysSizeIsAnError() throws IOException {
    InputException error = assertThrows(InputException.class, () -> analyse(hierarchical("none", "6")));
    assertTrue(error.location().file().endsWith("h.pi"), error.location().toString());
    assertTrue(error.getMessage().contains("setter 's' of delay 'd'") && error.getMessage().contains("holds 3"),
        error.getMessage());
  }
}
