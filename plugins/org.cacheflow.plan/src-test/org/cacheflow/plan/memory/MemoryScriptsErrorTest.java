package org.cacheflow.plan.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;

import org.cacheflow.io.pisdf.PiReader;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.analysis.GraphAnalysis;
import org.cacheflow.scripts.testing.ScriptedProjects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A small project written here: errors carry the graph line or the script position. */
class MemoryScriptsErrorTest {

  /** The chain A -> B -> C of 8 chars where B runs {@code scriptName}; B's script is named on graph line 11. */
  private static ScriptReport evaluate(Path project, String scriptName, String script) throws Exception {
    Path graph = ScriptedProjects.writeChain(project, "char", scriptName, script);
    Diagnostics diagnostics = new Diagnostics();
    return MemoryScripts.evaluate(GraphAnalysis.analyse(PiReader.read(graph, diagnostics), Map.of(), diagnostics),
        project, diagnostics);
  }

  @Test
  void inPlaceScriptMergesTheOutputIntoTheInput(@TempDir Path project) throws Exception {
    ScriptReport report = evaluate(project, "inplace.bsh", "o_out.matchWith(0, i_in, 0, n);\ni_in.markPrivate();\n");
    assertEquals(16, report.bytesBefore());
    assertEquals(8, report.bytesSaved());
    assertTrue(report.toText().contains("mark i_in private"), report.toText());
    assertTrue(report.instances().stream().flatMap(i -> i.run().marks().stream())
        .anyMatch(m -> m.mark().label().equals("private")), report.toText());
  }

  @Test
  void missingScriptNamesTheGraphLine(@TempDir Path project) throws Exception {
    ScriptReport report = evaluate(project, "absent.bsh", null);
    assertEquals(1, report.errors().size());
    String error = report.errors().get(0);
    assertTrue(error.startsWith(project.resolve("Algo/top.pi") + ":11:"), error);
    assertTrue(error.contains("memory script 'Code/Scripts/absent.bsh' of actor top/B does not exist"), error);
    assertEquals(0, report.bytesSaved());
  }

  @Test
  void failingScriptIsReportedAtItsPosition(@TempDir Path project) throws Exception {
    ScriptReport report = evaluate(project, "bad.bsh", "x = n / (n - 8);\n");
    assertEquals(1, report.errors().size());
    assertTrue(report.errors().get(0).startsWith(project.resolve("Code/Scripts/bad.bsh") + ":1:7: division by zero"),
        report.errors().get(0));
    assertTrue(report.toText().contains("error: "), report.toText());
  }
}
