package org.cacheflow.plan.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.cacheflow.io.pisdf.PiReader;
import org.cacheflow.io.project.PreesmProject;
import org.cacheflow.io.project.ScenarioRun;
import org.cacheflow.io.scenario.TokenSizeResolver;
import org.cacheflow.model.Graph;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.analysis.AnalysisResult;
import org.cacheflow.analysis.GraphAnalysis;
import org.cacheflow.scripts.DefaultScripts;
import org.cacheflow.scripts.testing.BeanShellOracle;
import org.cacheflow.scripts.testing.ScriptRecords;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Differential test on the environments the planner really builds: every corpus PREESM graph is expanded, its
 * scripts (the applications' and the default scripts of forks, joins, broadcasts and roundbuffers) run for
 * every single-rate instance, and each instance's script is run again by the real BeanShell 2.0b6
 * interpreter, the way PREESM's ScriptRunner runs it, against recording buffers built from the same
 * environment (the scripts bundle's {@link BeanShellOracle}). Matches (in call order, in bits) and marks must be
 * equal. Stereo also runs with its 4-core scenario, whose sizes are in bits.
 */
class CorpusInstancesDifferentialTest {

  private final Map<String, String> sources = new HashMap<>();

  private String source(String script) throws IOException {
    String known = sources.get(script);
    if (known == null) {
      known = null;
      for (DefaultScripts.Kind kind : DefaultScripts.Kind.values()) {
        if (script.equals("scripts/" + kind.fileName)) {
          known = DefaultScripts.source(kind);
        }
      }
      if (known == null) {
        known = Files.readString(Path.of(script));
      }
      sources.put(script, known);
    }
    return known;
  }

  /** Compares every instance of a report; returns the number compared per script file. */
  private void compare(ScriptReport report, String what, Map<String, Integer> compared) throws Exception {
    for (ScriptReport.Instance instance : report.instances()) {
      assertNotNull(instance.run(), what + ": " + instance.vertex() + " failed: " + instance.error());
      String source = source(instance.script());
      BeanShellOracle.Result reference = BeanShellOracle.run(source, instance.run().environment(), Map.of());
      assertNull(reference.error(), what + ": " + instance.vertex() + " fails in BeanShell");
      assertEquals(reference.matches(), ScriptRecords.matches(instance.run()), what + ": " + instance.vertex());
      assertEquals(reference.marks(), ScriptRecords.marks(instance.run()), what + ": " + instance.vertex());
      String name = instance.script().substring(instance.script().lastIndexOf('/') + 1);
      compared.merge(name, 1, Integer::sum);
    }
  }

  @Test
  void everyScriptedInstanceOfTheCorpusMatchesLikeBeanShell() throws Exception {
    String corpus = System.getProperty("cacheflow.corpus");
    Path apps = corpus == null ? null : Path.of(corpus, "preesm-apps");
    Assumptions.assumeTrue(apps != null && Files.isDirectory(apps), "corpus absent; skipped");
    List<Path> graphs;
    try (Stream<Path> files = Files.walk(apps)) {
      graphs = files.filter(f -> f.toString().endsWith(".pi") && f.getParent().getFileName().toString().equals("Algo"))
          .sorted().toList();
    }
    Map<String, Integer> compared = new TreeMap<>();
    int graphsCompared = 0;
    for (Path graph : graphs) {
      Diagnostics quiet = new Diagnostics();
      AnalysisResult analysis;
      try {
        // token sizes of the C types, as cacheflow scripts does without a scenario
        Graph read = PiReader.read(graph, quiet);
        TokenSizeResolver.resolve(read, null, quiet);
        analysis = GraphAnalysis.analyse(read, Map.of(), quiet);
      } catch (InputException | IllegalArgumentException e) {
        continue; // graphs the analysis refuses have no instances
      }
      if (analysis.flatGraph().totalFirings() > 20_000) {
        continue; // keeps the test short; the benchmark covers the large ones
      }
      ScriptReport report = MemoryScripts.evaluate(analysis, graph.getParent().getParent(), quiet);
      compare(report, apps.relativize(graph).toString(), compared);
      graphsCompared += report.instances().isEmpty() ? 0 : 1;
    }

    Path stereo = apps.resolve("org.ietr.preesm.stereo");
    Diagnostics diagnostics = new Diagnostics();
    ScenarioRun run = PreesmProject.open(stereo, diagnostics).load(stereo.resolve("Scenarios/4core.scenario"),
        PiReader::read, diagnostics);
    ScriptReport inBits = MemoryScripts.evaluate(GraphAnalysis.analyse(run.graph(), Map.of(), diagnostics), stereo,
        MemoryScripts.Options.defaults().withSizesInBits(true), diagnostics);
    assertTrue(inBits.instances().get(0).run().environment().sizesInBits());
    compare(inBits, "stereo, 4core.scenario", compared);

    // every corpus script that a graph uses, and every default script, was compared on real instances
    for (String script : List.of("fork.bsh", "join.bsh", "broadcast.bsh", "roundbuffer.bsh", "split.bsh", "fft.bsh",
        "transpose.bsh", "twiddle.bsh", "rgb2gray.bsh", "disparitySelect.bsh")) {
      assertTrue(compared.getOrDefault(script, 0) > 0, script + " never compared: " + compared);
    }
    assertTrue(graphsCompared >= 5, "graphs compared: " + graphsCompared);
  }
}
