package org.cacheflow.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.cacheflow.plan.mapping.Core;
import org.cacheflow.plan.mapping.Platform;
import org.cacheflow.plan.strategy.TargetCache;
import org.junit.jupiter.api.Test;

/** How --nodes and --cores make a platform for plan and for generate, its description, and the limits. */
class PlatformOptionsTest {

  /** Generate's platform without an architecture: one core unless the options say. */
  private static Platform platform(Integer nodes, Integer cores) {
    return new PlatformOptions(nodes, cores).forGenerate(null, TargetCache.ZEN4_VM);
  }

  /** Plan's platform without an architecture: the target's cores unless the options say. */
  private static Platform planned(Integer nodes, Integer cores, TargetCache target) {
    return new PlatformOptions(nodes, cores).forPlan(null, target);
  }

  @Test
  void nodesTimesCoresPerNodeNumberedNodeByNode() {
    Platform platform = platform(3, 2);
    assertEquals(6, platform.size());
    assertEquals(3, platform.nodes());
    assertEquals(List.of("Core0", "Core1", "Core2", "Core3", "Core4", "Core5"),
        platform.cores().stream().map(Core::name).toList());
    assertEquals(2, platform.nodeOf(4));
    assertEquals("3 nodes x 2 cores", PlatformOptions.describe(platform));
  }

  @Test
  void withoutCoresEachNodeHasTheTargetsCoresForPlanAndOneForGenerate() {
    TargetCache four = TargetCache.GENERIC;
    assertEquals(4, four.cores());
    assertEquals("2 nodes x 4 cores", PlatformOptions.describe(planned(2, null, four)));
    assertEquals("3 cores", PlatformOptions.describe(planned(null, 3, four)));
    assertEquals("4 cores", PlatformOptions.describe(planned(null, null, four)));
    assertEquals("1 core", PlatformOptions.describe(planned(null, 1, four)));
    assertEquals("2 nodes x 1 core", PlatformOptions.describe(planned(2, 1, four)));
    assertEquals("2 nodes x 1 core", PlatformOptions.describe(platform(2, null)));
    assertEquals("1 core", PlatformOptions.describe(platform(null, null)));
    assertEquals("3 cores", PlatformOptions.describe(platform(null, 3)));
  }

  @Test
  void nodesOfDifferentSizesAreCountedEach() {
    Platform uneven = new Platform(List.of(new Core(0, "A0", "x86", 0), new Core(1, "A1", "x86", 0),
        new Core(2, "B0", "x86", 1)));
    assertEquals("2 nodes (2+1 cores)", PlatformOptions.describe(uneven));
  }

  @Test
  void aGeneratedProgramHasAtMost64CoresInAll() {
    PlatformOptions options = new PlatformOptions(2, 32);
    options.checkGenerated(platform(2, 32));
    PlatformOptions tooMany = new PlatformOptions(5, 13);
    OptionException error = assertThrows(OptionException.class, () -> tooMany.checkGenerated(platform(5, 13)));
    assertEquals("--nodes 5 x 13 cores per node is 65 cores; a generated program runs on at most 64 cores in total",
        error.getMessage());
    OptionException cores = assertThrows(OptionException.class,
        () -> new PlatformOptions(null, 65).checkGenerated(platform(null, 65)));
    assertEquals("--cores must be at most 64, got 65", cores.getMessage());
  }

  @Test
  void absurdNodeCountsAreUsageErrorsBeforeAnyPlatformIsBuilt() {
    OptionException error = assertThrows(OptionException.class, () -> platform(2_000_000_000, 2));
    assertEquals("--nodes 2000000000 x 2 cores per node is 4000000000 cores; at most 65536 in all",
        error.getMessage());
  }
}
