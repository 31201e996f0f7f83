package org.cacheflow.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.cacheflow.plan.mapping.Core;
import org.cacheflow.plan.mapping.Platform;
import org.cacheflow.plan.strategy.TargetCache;
import org.junit.jupiter.api.Test;

/** Issue 16: how --nodes and --cores make a platform, its description, and the limits. */
class PlatformOptionsTest {

  private static Platform platform(Integer nodes, Integer cores, int fallback) {
    return new PlatformOptions(nodes, cores).platform(null, TargetCache.ZEN4_VM, fallback, true);
  }

  @Test
  void nodesTimesCoresPerNodeNumberedNodeByNode() {
    Platform platform = platform(3, 2, 1);
    assertEquals(6, platform.size());
    assertEquals(3, platform.nodes());
    assertEquals(List.of("Core0", "Core1", "Core2", "Core3", "Core4", "Core5"),
        platform.cores().stream().map(Core::name).toList());
    assertEquals(2, platform.nodeOf(4));
    assertEquals("3 nodes x 2 cores", PlatformOptions.describe(platform));
  }

  @Test
  void withoutCoresEachNodeHasTheFallbackWithoutNodesOneNode() {
    assertEquals("2 nodes x 4 cores", PlatformOptions.describe(platform(2, null, 4)));
    assertEquals("3 cores", PlatformOptions.describe(platform(null, 3, 4)));
    assertEquals("4 cores", PlatformOptions.describe(platform(null, null, 4)));
    assertEquals("1 core", PlatformOptions.describe(platform(null, 1, 4)));
    assertEquals("2 nodes x 1 core", PlatformOptions.describe(platform(2, 1, 4)));
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
    options.checkGenerated(platform(2, 32, 1));
    PlatformOptions tooMany = new PlatformOptions(5, 13);
    OptionException error = assertThrows(OptionException.class, () -> tooMany.checkGenerated(platform(5, 13, 1)));
    assertEquals("--nodes 5 x 13 cores per node is 65 cores; a generated program runs on at most 64 cores in total",
        error.getMessage());
    OptionException cores = assertThrows(OptionException.class,
        () -> new PlatformOptions(null, 65).checkGenerated(platform(null, 65, 1)));
    assertEquals("--cores must be at most 64, got 65", cores.getMessage());
  }

  @Test
  void absurdNodeCountsAreUsageErrorsBeforeAnyPlatformIsBuilt() {
    OptionException error = assertThrows(OptionException.class, () -> platform(2_000_000_000, 2, 1));
    assertEquals("--nodes 2000000000 x 2 cores per node is 4000000000 cores; at most 65536 in all",
        error.getMessage());
  }
}
