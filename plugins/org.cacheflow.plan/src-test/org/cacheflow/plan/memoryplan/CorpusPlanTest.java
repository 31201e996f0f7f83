package org.cacheflow.plan.memoryplan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.cacheflow.io.pisdf.PiReader;
import org.cacheflow.io.project.PreesmProject;
import org.cacheflow.io.project.ScenarioRun;
import org.cacheflow.io.sdf3.Sdf3Reader;
import org.cacheflow.model.Graph;
import org.cacheflow.model.Scenario;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.analysis.AnalysisResult;
import org.cacheflow.analysis.GraphAnalysis;
import org.cacheflow.plan.classify.MemoryFacts;
import org.cacheflow.plan.classify.ScriptMemoryFacts;
import org.cacheflow.plan.mapping.MappingInputs;
import org.cacheflow.plan.mapping.MappingPolicy;
import org.cacheflow.plan.mapping.Platform;
import org.cacheflow.plan.memory.MemoryScripts;
import org.cacheflow.analysis.srdag.SingleRateExpansion;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.plan.strategy.BufferClassCheck;
import org.cacheflow.plan.strategy.GlobalStrategy;
import org.cacheflow.plan.strategy.TargetCache;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plans every graph of the shared corpus (system property {@code cacheflow.corpus}; skipped when absent): every
 * PREESM scenario whose files exist, with its architecture, constraints, timings and evaluated memory scripts,
 * and every SDF3 graph on 2 cores. Each plan must satisfy {@link PlanInvariants} (totals recomputed from the
 * rows), under {@code auto} and {@code baseline}, both mapping policies; on stereo, {@code auto} must copy at
 * least 90% fewer bytes than the baseline.
 */
class CorpusPlanTest {

  static Path corpus() {
    String property = System.getProperty("cacheflow.corpus");
    Path path = property == null ? null : Path.of(property);
    Assumptions.assumeTrue(path != null && Files.isDirectory(path),
        "corpus not found (system property cacheflow.corpus = " + property + "); corpus tests skipped");
    return path;
  }

  /** A corpus graph ready to plan, with its scenario (null for SDF3) to map it on other platforms. */
  record Case(String name, Srdag srdag, MappingInputs inputs, MemoryFacts facts, Scenario scenario,
      List<String> specialOperators) {

    /** The scenario's timings on another platform, every actor allowed on every core. */
    MappingInputs on(Platform platform) {
      return MappingInputs.fromScenario(srdag.flatGraph(), platform, scenario, specialOperators, new Diagnostics())
          .unconstrained();
    }
  }

  private static Case preesm(PreesmProject project, Path scenario) {
    Diagnostics diagnostics = new Diagnostics();
    ScenarioRun run = project.load(scenario, PiReader::read, diagnostics);
    Map<String, String> overrides = run.scenario().parameterOverrides(Map.of());
    AnalysisResult analysis = GraphAnalysis.analyse(run.graph(), overrides, diagnostics);
    Srdag srdag = SingleRateExpansion.expand(analysis.flatGraph());
    Platform platform = run.architecture() != null && !run.architecture().getCores().isEmpty()
        ? Platform.of(run.architecture()) : Platform.generic(2);
    MappingInputs inputs = MappingInputs.fromScenario(analysis.flatGraph(), platform, run.scenario().scenario(),
        run.scenario().specialVertexOperators(), diagnostics);
    MemoryFacts facts = ScriptMemoryFacts.of(srdag, MemoryScripts.evaluate(srdag, project.root(),
        MemoryScripts.Options.defaults().withSizesInBits(run.scenario().scenario().isSizesAreInBit()), diagnostics));
    return new Case(project.name() + "/" + scenario.getFileName(), srdag, inputs, facts, run.scenario().scenario(),
        run.scenario().specialVertexOperators());
  }

  static List<Case> cases() throws IOException {
    List<Case> cases = new ArrayList<>();
    List<String> unusable = new ArrayList<>();
    try (Stream<Path> apps = Files.list(corpus().resolve("preesm-apps"))) {
      for (Path app : apps.sorted().toList()) {
        PreesmProject project = PreesmProject.open(app, new Diagnostics());
        for (Path scenario : project.scenarios()) {
          try {
            cases.add(preesm(project, scenario));
          } catch (InputException e) {
            // known corpus defects (a scenario naming an absent graph): reported clearly, nothing to plan
            assertTrue(e.getMessage().contains("does not exist"), scenario + ": " + e.describe());
            unusable.add(scenario.getFileName().toString());
          }
        }
      }
    }
    assertTrue(unusable.size() <= 2, "unexpectedly many unusable scenarios: " + unusable);
    try (Stream<Path> files = Files.walk(corpus().resolve("sdf3"))) {
      for (Path file : files.filter(f -> f.toString().endsWith(".xml")).sorted().toList()) {
        Graph graph = Sdf3Reader.read(file, new Diagnostics());
        AnalysisResult analysis = GraphAnalysis.analyse(graph, Map.of(), new Diagnostics());
        Srdag srdag = SingleRateExpansion.expand(analysis.flatGraph());
        cases.add(new Case("sdf3/" + file.getFileName(), srdag,
            MappingInputs.defaults(analysis.flatGraph(), Platform.generic(2)), null, null, List.of()));
      }
    }
    return cases;
  }

  @Test
  void everyCorpusGraphIsPlannedConsistently() throws IOException {
    List<Case> cases = cases();
    assertTrue(cases.size() >= 50, "corpus cases: " + cases.size());
    for (Case c : cases) {
      for (GlobalStrategy strategy : List.of(GlobalStrategy.AUTO, GlobalStrategy.BASELINE)) {
        for (MappingPolicy policy : MappingPolicy.values()) {
          MemoryPlan plan = MemoryPlanner.plan(c.srdag(), PlanRequest.of(c.inputs(), TargetCache.ZEN4_VM)
              .withStrategy(strategy).withPolicy(policy).withFacts(c.facts()));
          try {
            PlanInvariants.check(plan);
            BufferClassCheck.check(plan);
            mergesHaveALayoutInBytes(plan);
          } catch (AssertionError e) {
            throw new AssertionError(c.name() + " (" + strategy.label + ", " + policy.label + "): " + e.getMessage(),
                e);
          }
        }
      }
    }
  }

  /** Every merged buffer has a byte layout the code generator can use: whole-byte tokens, a known offset. */
  private static void mergesHaveALayoutInBytes(MemoryPlan plan) {
    Srdag srdag = plan.srdag();
    for (int e = 0; e < srdag.edgeCount(); e++) {
      if (plan.classification().mergeRoot(e) >= 0) {
        assertEquals(0, srdag.flatGraph().fifo(srdag.edgeFifo(e)).tokenBits() % 8, "merged with tokens of "
            + srdag.flatGraph().fifo(srdag.edgeFifo(e)).tokenBits() + " bits: edge " + e);
        assertTrue(plan.classification().facts().mergeOffset(e) >= 0, "merged without an offset: edge " + e);
      }
    }
  }

  @Test
  void everyGlobalStrategyPlansStereo() throws IOException {
    Case stereo = stereo("4core.scenario");
    for (GlobalStrategy strategy : GlobalStrategy.values()) {
      PlanInvariants.check(MemoryPlanner.plan(stereo.srdag(), PlanRequest.of(stereo.inputs(), TargetCache.GENERIC)
          .withStrategy(strategy).withFacts(stereo.facts())));
    }
  }

  static Case stereo(String scenario) {
    Path app = corpus().resolve("preesm-apps/org.ietr.preesm.stereo");
    Assumptions.assumeTrue(Files.isDirectory(app), "stereo is absent; skipped");
    return preesm(PreesmProject.open(app, new Diagnostics()), app.resolve("Scenarios").resolve(scenario));
  }

  @Test
  void stereoAutoCopiesAtLeastNinetyPercentFewerBytesThanTheBaseline() {
    for (String scenario : List.of("1core.scenario", "4core.scenario")) {
      Case stereo = stereo(scenario);
      for (MemoryFacts facts : new MemoryFacts[] {stereo.facts(), null}) {
        MemoryPlan auto = MemoryPlanner.plan(stereo.srdag(), PlanRequest.of(stereo.inputs(), TargetCache.ZEN4_VM)
            .withFacts(facts));
        MemoryPlan baseline = MemoryPlanner.plan(stereo.srdag(), PlanRequest.of(stereo.inputs(), TargetCache.ZEN4_VM)
            .withStrategy(GlobalStrategy.BASELINE).withFacts(facts));
        // the baseline copies every broadcast / fork / join / round buffer output: 2.46 GiB per iteration, of
        // which the two 60-way weight broadcasts (2 x 593712000 B, then forked) are most
        assertEquals(2637090956L, baseline.totals().planBytesCopied(), scenario);
        assertEquals(baseline.totals().planBytesCopied(), auto.totals().baselineBytesCopied());
        double reduction = auto.totals().copyReduction();
        assertTrue(reduction >= 0.90, scenario + (facts == null ? " (default scripts)" : " (scripts)")
            + ": auto copies " + auto.totals().planBytesCopied() + " of " + auto.totals().baselineBytesCopied());
        assertTrue(auto.totals().footprintBytes() < baseline.totals().footprintBytes());
      }
    }
  }

  /**
   * The copy-on-write paper's setting: stereo with its READ_ONLY annotations removed (made NONE), so that the
   * consumers of the broadcasts may write and no merge can share them. On 1, 2 and 4 cores, auto must copy at most 5%
   * of the baseline's bytes: the two 60-way weight broadcasts, whose memory the data-parallel weight firings compute
   * on several cores, become views read on every core.
   */
  @Test
  void stereoWithoutReadOnlyCopiesAtMostFivePercentOnOneTwoAndFourCores(@TempDir Path temp) throws IOException {
    Path app = corpus().resolve("preesm-apps/org.ietr.preesm.stereo");
    Assumptions.assumeTrue(Files.isDirectory(app), "stereo is absent; skipped");
    Path copy = temp.resolve(app.getFileName().toString());
    try (Stream<Path> files = Files.walk(app)) {
      for (Path source : files.filter(Files::isRegularFile).toList()) {
        Path target = copy.resolve(app.relativize(source).toString());
        Files.createDirectories(target.getParent());
        String text = Files.readString(source, StandardCharsets.ISO_8859_1);
        Files.writeString(target, source.toString().endsWith(".pi")
            ? text.replace("annotation=\"READ_ONLY\"", "annotation=\"NONE\"") : text,
            StandardCharsets.ISO_8859_1);
      }
    }
    assertTrue(!Files.readString(copy.resolve("Algo/stereo_top.pi")).contains("READ_ONLY"));
    Case stereo = preesm(PreesmProject.open(copy, new Diagnostics()), copy.resolve("Scenarios/4core.scenario"));
    for (int cores : new int[] {1, 2, 4}) {
      MappingInputs inputs = stereo.on(Platform.generic(cores));
      MemoryPlan auto = MemoryPlanner.plan(stereo.srdag(), PlanRequest.of(inputs, TargetCache.ZEN4_VM)
          .withFacts(stereo.facts()));
      MemoryPlan baseline = MemoryPlanner.plan(stereo.srdag(), PlanRequest.of(inputs, TargetCache.ZEN4_VM)
          .withStrategy(GlobalStrategy.BASELINE).withFacts(stereo.facts()));
      PlanInvariants.check(auto);
      Set<Integer> used = new TreeSet<>();
      for (int v = 0; v < stereo.srdag().vertexCount(); v++) {
        used.add(auto.schedule().coreOf(v));
      }
      assertEquals(cores, used.size(), cores + " cores: the plan runs on " + used);
      long copied = auto.totals().planBytesCopied();
      long base = baseline.totals().planBytesCopied();
      assertEquals(2637090956L, base);
      assertTrue(copied <= base / 20, cores + " cores: auto copies " + copied + " B of the baseline's " + base
          + " (" + String.format(Locale.ROOT, "%.1f%%", 100.0 * copied / base) + "), more than 5%");
      // each disparity's result is read by the next disparity's selection before the broadcast that also copies
      // it runs on the same core: where that core alone writes the result, its part is published after the write,
      // and the next selection reads a view
      long selectionViews = IntStream.range(0, stereo.srdag().edgeCount()).filter(e -> auto
          .viewSource(e) >= 0 && stereo.srdag().vertexName(stereo.srdag().edgeTarget(e)).contains("disparitySelect_"))
          .count();
      assertTrue(selectionViews > 0, cores + " cores: no disparity result is read through a view");
      // the weights' memory is read through views on several cores
      if (cores > 1) {
        Set<Integer> viewCores = new TreeSet<>();
        for (int e = 0; e < stereo.srdag().edgeCount(); e++) {
          if (auto.viewSource(e) >= 0
              && stereo.srdag().vertexName(stereo.srdag().edgeTarget(e)).contains("AggregateCost_")) {
            viewCores.add(auto.schedule().coreOf(stereo.srdag().edgeTarget(e)));
          }
        }
        assertTrue(viewCores.size() > 1, cores + " cores: the weight views are read on " + viewCores);
      }
    }
  }
}
