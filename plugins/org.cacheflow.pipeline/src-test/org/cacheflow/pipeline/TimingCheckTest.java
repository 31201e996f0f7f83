package org.cacheflow.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.plan.strategy.StrategyPreset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Scenario timings against a profile's medians: in nanoseconds when the unit is known, as shares when it is not. */
class TimingCheckTest {

  private static final Path FILTER_BANK = Path.of("../../examples/filter-bank");

  @TempDir
  Path dir;

  private static TimingCheck.Pair pair(String actor, double declared, double measuredNs, int line) {
    return new TimingCheck.Pair(actor, declared, measuredNs, new SourceLocation("s.scenario", line, 9));
  }

  @Test
  void knownUnitComparesNanoseconds() {
    List<TimingCheck.Pair> pairs = List.of(pair("g/A", 1000, 450, 3), pair("g/B", 1000, 1900, 4),
        pair("g/C", 100, 1000, 5));
    // 0.5 ns per unit: A 500 ns against 450 (1.1x), B 500 against 1900 (3.8x), C 50 against 1000 (20x)
    List<TimingCheck.Contradiction> found = TimingCheck.contradictions(pairs, 0.5);
    assertEquals(List.of("g/B", "g/C"), found.stream().map(c -> c.pair().actor()).toList());
    assertEquals(3.8, found.get(0).ratio(), 1e-9);
    assertTrue(found.get(0).message().startsWith("g/B: the scenario's timing 1000 (500 ns at the target's timing.ns "
        + "0.5) and the profile's median 1900 ns are 3.8x apart (more than 2x)"), found.get(0).message());
    // at 2 ns per unit, A is the one off (2000 against 450)
    assertEquals(List.of("g/A", "g/C"), TimingCheck.contradictions(pairs, 2).stream().map(c -> c.pair().actor())
        .toList());
  }

  @Test
  void unknownUnitComparesShares() {
    // a scenario uniformly 1000x the machine is consistent
    assertEquals(List.of(), TimingCheck.contradictions(List.of(pair("g/A", 2000, 2, 3), pair("g/B", 500, 0.5, 4)),
        0));
    // shares 80% / 20% declared, 52.6% / 47.4% measured: B's is 2.37x off, A's 1.52x
    List<TimingCheck.Contradiction> found = TimingCheck.contradictions(List.of(pair("g/A", 2000, 1000, 3),
        pair("g/B", 500, 900, 4)), 0);
    assertEquals(List.of("g/B"), found.stream().map(c -> c.pair().actor()).toList());
    assertTrue(found.get(0).message().contains("its share of the scenario's timings (20.0%) and of the profile's "
        + "medians (47.4%) are 2.37x apart"), found.get(0).message());
    assertTrue(found.get(0).message().contains("the scenario's time unit is unknown"), found.get(0).message());
    // one actor alone has no share to compare
    assertEquals(List.of(), TimingCheck.contradictions(List.of(pair("g/A", 1, 1000, 3)), 0));
  }

  /** Planned with a profile: the warning names actor and the scenario's line, plan.md's facts have a row. */
  @Test
  void aPlanWithAProfileReportsTheContradiction() throws IOException {
    Path profile = Files.writeString(dir.resolve("profile.json"), """
        {"cacheflowProfile": 1, "graph": "filter_bank", "iterations": 1, "cores": 1, "buffers": [],
         "actors": [
           {"actor": "filter_bank/Blur", "firings": 4, "ports": [],
            "time": {"medianNs": 1000, "q1Ns": 990, "q3Ns": 1010, "minNs": 980, "maxNs": 1020, "cv": 0.01}},
           {"actor": "filter_bank/Sharpen/Edges", "firings": 4, "ports": [],
            "time": {"medianNs": 900, "q1Ns": 890, "q3Ns": 910, "minNs": 880, "maxNs": 920, "cv": 0.01}}
         ]}
        """);
    Path report = dir.resolve("report");
    PlanResult result = new Pipeline().plan(new PlanOptions(Input.of(FILTER_BANK).withProfile(profile),
        new PlatformOptions(null, 2), StrategyPreset.AUTO, null, List.of(), null, report));
    Path scenario = FILTER_BANK.resolve("Scenarios/2core.scenario");
    int line = Files.readAllLines(scenario).indexOf(Files.readAllLines(scenario).stream()
        .filter(l -> l.contains("vertexname=\"filter_bank/Sharpen/Edges\"")).findFirst().orElseThrow()) + 1;
    List<Diagnostic> warnings = result.diagnostics().stream().filter(d -> d.severity() == Diagnostic.Severity.WARNING
        && d.message().contains("share of the scenario's timings")).toList();
    assertEquals(1, warnings.size(), result.diagnostics().toString());
    assertTrue(warnings.get(0).message().startsWith("filter_bank/Sharpen/Edges: its share"), warnings.get(0)
        .message());
    assertEquals(line, warnings.get(0).location().line());
    assertTrue(warnings.get(0).location().file().endsWith("2core.scenario"), warnings.get(0).location().file());
    String md = Files.readString(report.resolve("plan.md"));
    assertTrue(md.contains("| filter_bank/Sharpen/Edges | share of the scenario's timings 20.0%, measured 47.4%: "
        + "2.37x apart | measured (scenario's timing at 2core.scenario:" + line + " contradicted) |"), md);
  }
}
