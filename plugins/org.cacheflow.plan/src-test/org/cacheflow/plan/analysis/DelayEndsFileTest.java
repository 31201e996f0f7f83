package org.cacheflow.plan.analysis;

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
import org.cacheflow.plan.srdag.SingleRateExpansion;
import org.cacheflow.plan.srdag.Srdag;
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
}
