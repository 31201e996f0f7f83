package org.cacheflow.plan.strategy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** The technique ladder tests and benchmarks compare: what it holds and what it leaves out. */
class StrategyPresetLadderTest {

  @Test
  void ladderStartsAtBaselineEndsAtAutoAndHasNoRepeats() {
    List<StrategyPreset> ladder = StrategyPreset.ladder();
    assertEquals(StrategyPreset.BASELINE, ladder.get(0));
    assertEquals(StrategyPreset.AUTO, ladder.get(ladder.size() - 1));
    assertEquals(ladder.size(), new HashSet<>(ladder).size());
  }

  @Test
  void everyPresetLeftOutIsAWholePlanModeOfThePlanner() {
    Set<StrategyPreset> left = EnumSet.allOf(StrategyPreset.class);
    left.removeAll(StrategyPreset.ladder());
    assertEquals(EnumSet.of(StrategyPreset.HOMEFORWARD, StrategyPreset.PRESTORE), left);
    for (StrategyPreset preset : left) {
      assertTrue(preset.followsPlan() && StrategyPreset.of(preset.planner()) == preset, preset.label);
    }
  }
}
