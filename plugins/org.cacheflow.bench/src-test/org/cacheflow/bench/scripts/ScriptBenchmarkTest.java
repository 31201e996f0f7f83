package org.cacheflow.bench.scripts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.cacheflow.io.pisdf.PiReader;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.analysis.AnalysisResult;
import org.cacheflow.analysis.GraphAnalysis;
import org.cacheflow.plan.memory.MemoryScripts;
import org.cacheflow.plan.memory.ScriptReport;
import org.cacheflow.analysis.srdag.SingleRateExpansion;
import org.cacheflow.analysis.srdag.Srdag;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The scripts benchmark measures what it says and prints a consistent table and CSV. It asserts no timing:
 * the one-second target is checked by running {@code ./cacheflow bench scripts}, not by a unit test.
 */
class ScriptBenchmarkTest {

  @Test
  void measuresEveryScriptedInstanceOfAGraphAndTabulatesIt() {
    String corpus = System.getProperty("cacheflow.corpus");
    Path stereo = corpus == null ? null : Path.of(corpus, "preesm-apps", "org.ietr.preesm.stereo");
    Assumptions.assumeTrue(stereo != null && Files.isDirectory(stereo), "stereo application absent; skipped");
    Path graph = stereo.resolve("Algo/stereo_top.pi");
    Diagnostics diagnostics = new Diagnostics();
    AnalysisResult analysis = GraphAnalysis.analyse(PiReader.read(graph, diagnostics), Map.of(), diagnostics);
    Srdag srdag = SingleRateExpansion.expand(analysis, null);
    ScriptReport reference = MemoryScripts.evaluate(srdag, stereo, MemoryScripts.Options.defaults(), diagnostics);

    ScriptBenchmark.Candidate candidate = new ScriptBenchmark.Candidate(graph, stereo, srdag,
        reference.instances().size());
    ScriptBenchmark.Row row = ScriptBenchmark.measure(candidate, "largest single-rate graph", 2);
    assertEquals("org.ietr.preesm.stereo/Algo/stereo_top.pi", row.name());
    assertEquals(srdag.vertexCount(), row.vertices());
    assertEquals(reference.instances().size(), row.scripted());
    assertEquals(reference.bytesSaved(), row.savedBytes());
    assertEquals(2, row.evaluationMs().length);
    assertTrue(row.evaluationMs()[0] > 0 && row.evaluationMs()[0] <= row.evaluationMs()[1], "sorted, measured");

    String table = ScriptBenchmark.table(List.of(row), 2);
    List<String> lines = table.lines().toList();
    assertEquals(3, lines.size(), table);
    assertTrue(lines.get(1).startsWith("org.ietr.preesm.stereo/Algo/stereo_top.pi "), table);
    assertTrue(lines.get(1).contains(" " + reference.bytesSaved() + " "), table);
    String csv = ScriptBenchmark.csv(List.of(row));
    List<String> csvLines = csv.lines().toList();
    assertEquals(2, csvLines.size(), csv);
    assertEquals(csvLines.get(0).split(",").length, csvLines.get(1).split(",").length, csv);
    assertTrue(csvLines.get(1).startsWith("org.ietr.preesm.stereo/Algo/stereo_top.pi,largest single-rate graph,"
        + srdag.vertexCount() + "," + reference.instances().size() + "," + reference.bytesSaved() + ","), csv);
  }
}
