package org.cacheflow.plan.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.cacheflow.io.pisdf.PiReader;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.analysis.GraphAnalysis;
import org.cacheflow.scripts.testing.ScriptedProjects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Marks set by the scripts of both ends of a FIFO: kept when they agree, an error at both places when not. */
class MemoryScriptsMarksTest {

  private static final String GRAPH = """
      <?xml version="1.0" encoding="UTF-8"?>
      <graphml xmlns="http://graphml.graphdrawing.org/xmlns">
          <key attr.name="memoryScript" attr.type="string" for="node"/>
          <graph edgedefault="directed">
              <data key="name">top</data>
              <node id="A" kind="actor">
                  <data key="memoryScript">Code/Scripts/a.bsh</data>
                  <port annotation="NONE" expr="4" kind="output" name="out"/>
              </node>
              <node id="B" kind="actor">
                  <data key="memoryScript">Code/Scripts/b.bsh</data>
                  <port annotation="READ_ONLY" expr="4" kind="input" name="in"/>
              </node>
              <edge kind="fifo" source="A" sourceport="out" target="B" targetport="in" type="char"/>
          </graph>
      </graphml>
      """;

  private static ScriptReport evaluate(Path project, String producerScript, String consumerScript) throws Exception {
    Path graph = ScriptedProjects.write(project, GRAPH, Map.of("a.bsh", producerScript, "b.bsh", consumerScript));
    Diagnostics diagnostics = new Diagnostics();
    return MemoryScripts.evaluate(GraphAnalysis.analyse(PiReader.read(graph, diagnostics), Map.of(), diagnostics),
        project, diagnostics);
  }

  @Test
  void agreeingMarksFromBothEndsBelongToTheFifo(@TempDir Path project) throws Exception {
    ScriptReport report = evaluate(project, "o_out.markPrivate();\n", "i_in.markPrivate();\no_none = 1;\n");
    assertEquals(List.of(), report.errors());
    assertEquals(List.of("top/A_0.out->top/B_0.in"), List.copyOf(report.marks().keySet()));
    assertEquals(2, report.marks().get("top/A_0.out->top/B_0.in").size());
  }

  @Test
  void contradictingMarksFromBothEndsNameBothPlaces(@TempDir Path project) throws Exception {
    ScriptReport report = evaluate(project, "// producer\n  o_out.markWriteMostly();\n", "i_in.markReadMostly();\n");
    assertEquals(List.of(project.resolve("Code/Scripts/b.bsh") + ":1:6: contradictory marks on FIFO "
        + "top/A_0.out->top/B_0.in: top/B_0.i_in.markReadMostly() here, but top/A_0.o_out.markWriteMostly() at "
        + project.resolve("Code/Scripts/a.bsh") + ":2:9 (write-mostly and read-mostly cannot both hold)"
        + " (actor instance top/B_0)"), report.errors());
  }
}
