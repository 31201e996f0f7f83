package org.cacheflow.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.cacheflow.codegen.build.CodePreset;
import org.cacheflow.plan.strategy.GlobalStrategy;
import org.cacheflow.plan.strategy.PrestoreKind;
import org.cacheflow.plan.strategy.StrategyPreset;
import org.junit.jupiter.api.Test;

/** The one strategy vocabulary: what each preset means to the planner and the generated code; the docs list it. */
class StrategyPresetTest {

  @Test
  void theNamesAndOrderOfTheCommandLine() {
    assertEquals(List.of("baseline", "preesm", "channels", "alias", "ntm", "cow", "prestore-demote", "prestore-clean",
        "prestore-skip", "auto", "homeforward", "prestore"), StrategyPreset.labels());
    assertEquals(StrategyPreset.labels(), CodePreset.NAMES);
    assertEquals(StrategyPreset.COW, StrategyPreset.named("CoW"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> StrategyPreset.named("fast")).getMessage()
        .startsWith("unknown strategy 'fast'; known: baseline, preesm, channels"));
  }

  @Test
  void plannerModesAreThePlansStrategiesInTheirOrder() {
    assertEquals(List.of(GlobalStrategy.values()), StrategyPreset.plannerModes().stream().map(StrategyPreset::planner)
        .toList());
    for (StrategyPreset preset : StrategyPreset.values()) {
      // a preset follows the plan exactly when its name is the plan's; the others plan as the closest mode
      assertEquals(GlobalStrategy.byLabel(preset.label) != null, preset.followsPlan(), preset.label);
      GlobalStrategy closest = preset.followsPlan() ? GlobalStrategy.byLabel(preset.label)
          : preset.label.startsWith("prestore") ? GlobalStrategy.PRESTORE : GlobalStrategy.HOMEFORWARD;
      assertEquals(closest, preset.planner(), preset.label);
      assertFalse(preset.help.isBlank(), preset.label);
    }
  }

  @Test
  void generationFlags() {
    for (StrategyPreset preset : StrategyPreset.values()) {
      CodePreset strategy = CodePreset.of(preset);
      // PREESM's generated code, without and with its memory scripts: a barrier after every iteration
      boolean preesmCode = preset == StrategyPreset.BASELINE || preset == StrategyPreset.PREESM;
      assertEquals(preesmCode, strategy.barrier(), preset.label);
      assertEquals(preset != StrategyPreset.BASELINE && preset != StrategyPreset.CHANNELS, strategy.alias(),
          preset.label);
      assertEquals(preset == StrategyPreset.PRESTORE_SKIP, strategy.skip(), preset.label);
      assertEquals(preesmCode ? 1 : CodePreset.DEFAULT_SLOTS, strategy.slots(), preset.label);
      PrestoreKind kind = switch (preset) {
        case PRESTORE_DEMOTE -> PrestoreKind.DEMOTE;
        case PRESTORE_CLEAN -> PrestoreKind.CLEAN;
        default -> PrestoreKind.NONE;
      };
      assertEquals(kind, strategy.prestore(), preset.label);
    }
  }

  @Test
  void generateDocsTableNamesEveryStrategy() throws IOException {
    Path doc = Path.of("../../docs/generate.md");
    String text = Files.readString(doc);
    String table = text.substring(text.indexOf("| strategy | special actors"));
    table = table.substring(0, table.indexOf("\n\n"));
    for (String label : StrategyPreset.labels()) {
      assertTrue(table.contains("`" + label + "`"), label + " in docs/generate.md's strategy table");
    }
  }
}
