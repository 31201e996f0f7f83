package org.cacheflow.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.cacheflow.plan.memoryplan.FifoPlan;
import org.cacheflow.plan.memoryplan.MemoryPlan;
import org.cacheflow.plan.strategy.Decision;
import org.cacheflow.plan.strategy.PrestoreKind;
import org.cacheflow.plan.strategy.Strategy;
import org.cacheflow.plan.strategy.StrategyPreset;
import org.cacheflow.plan.strategy.TargetCache;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pre-stores only where a profile shows their pattern: the code generator's test project (tiny.pi) planned with
 * {@code prestore} on one core, with a profile whose re-read distances say that Sum's total is re-read soon by its
 * writer and Scale's output (one firing: slice = size) is not. No program is built: the profile is written here.
 */
class ProfilePrestoreTest {

  private static final Path TINY = Path.of("../org.cacheflow.codegen/src-test/resources/tiny");

  @TempDir
  Path dir;

  @Test
  void aBufferReReadSoonByItsWriterIsNotPreStoredAndTheReportSaysWhy() throws IOException {
    long l2 = TargetCache.builtIn("zen4-vm").orElseThrow().l2Bytes();
    Path profile = dir.resolve("profile.json");
    Files.writeString(profile, """
        {"cacheflowProfile": 1, "graph": "tiny", "iterations": 1, "cores": 1, "actors": [],
         "buffers": [
           {"fifo": "tiny/Sum.total -> tiny/Collect.total", "bytes": 4, "reReadDistanceBytes": 64, "sameCore": true},
           {"fifo": "tiny/Scale.out -> tiny/Collect.scaled", "bytes": 16, "reReadDistanceBytes": %d,
            "sameCore": true}
         ]}
        """.formatted(2 * l2));
    Path report = dir.resolve("report");
    PlanResult bare = plan(null, null);
    PlanResult measured = plan(profile, report);

    // without the profile both are pre-stored; with it, the one re-read soon is a direct buffer, the other stays
    assertEquals(Strategy.PRESTORE, fifo(bare.plan(), "Sum.total").strategy());
    assertEquals(Strategy.PRESTORE, fifo(bare.plan(), "Scale.out").strategy());
    FifoPlan total = fifo(measured.plan(), "Sum.total");
    FifoPlan scaled = fifo(measured.plan(), "Scale.out");
    assertEquals(Strategy.DIRECT, total.strategy());
    assertEquals(Strategy.PRESTORE, scaled.strategy());
    var totalBuffer = measured.plan().buffers().get(total.reasonEdge());
    assertEquals(PrestoreKind.NONE, totalBuffer.prestore());
    Decision.RereadMeasured why = (Decision.RereadMeasured) totalBuffer.decision();
    assertEquals(64, why.distance());
    assertEquals(l2, why.l2Bytes());
    Decision.Prestored kept = (Decision.Prestored) measured.plan().buffers().get(scaled.reasonEdge()).decision();
    assertEquals(2 * l2, kept.measuredReread());
    assertNotNull(kept.reuse());

    // the report: each decision with the profile's figure, the facts naming the profile as their source
    String md = Files.readString(report.resolve("plan.md"));
    assertTrue(md.contains("direct, not pre-stored: the profile profile.json measured it re-read on its writer's "
        + "core"), md);
    assertTrue(md.contains("re-read soon, where a pre-store only adds write-backs"), md);
    assertTrue(md.contains("not re-read soon by its writer, where a pre-store pays"), md);
    assertTrue(md.contains("| tiny/Sum.total -> tiny/Collect.total | re-read after 64 B on the writer's core | "
        + "measured"), md);
  }

  private PlanResult plan(Path profile, Path report) {
    // one Scale firing (slice = size): its output reaches Collect without a join, a buffer of its own
    Input input = new Input(TINY, null, Map.of("slice", "16")).withProfile(profile);
    return new Pipeline().plan(new PlanOptions(input, new PlatformOptions(null, 1), StrategyPreset.PRESTORE, null,
        List.of(), null, report));
  }

  private static FifoPlan fifo(MemoryPlan plan, String source) {
    return plan.fifos().stream().filter(f -> f.source().endsWith(source)).findFirst()
        .orElseThrow(() -> new AssertionError(plan.fifos().toString()));
  }
}
