package org.cacheflow.pipeline;

import java.util.ArrayList;
import java.util.List;

import org.cacheflow.codegen.build.CodePreset;
import org.cacheflow.plan.strategy.OverrideException;
import org.cacheflow.plan.strategy.StrategyOverride;
import org.cacheflow.plan.strategy.StrategyPreset;

/**
 * Overrides as users write them ({@code --override}, a workflow task's Overrides), parsed once for generate and plan:
 * {@code slots=K} (rdy-ack channel slots, and the slots of merge groups several cores use), {@code pipelining=on|off},
 * and per-FIFO overrides.
 *
 * @param slots the last {@code slots=K}, or null
 * @param pipelining the last {@code pipelining=...}, or null
 * @param fifos the per-FIFO overrides in order
 */
record OverrideTexts(Integer slots, Boolean pipelining, List<StrategyOverride> fifos) {

  /** The override that sets the channel slots: {@code slots=K}. */
  static final String SLOTS_KEY = "slots=";

  /** Whether {@code text} sets the whole program ({@code slots=K}, {@code pipelining=on|off}) rather than a FIFO. */
  static boolean isSetting(String text) {
    return text.trim().startsWith(SLOTS_KEY) || PlanOptions.isPipelining(text);
  }

  /** Parses {@code texts}; {@link OptionException} for a bad one. */
  static OverrideTexts parse(List<String> texts) {
    Integer slots = null;
    Boolean pipelining = null;
    List<StrategyOverride> fifos = new ArrayList<>();
    for (String text : texts) {
      if (text.trim().startsWith(SLOTS_KEY)) {
        slots = slots(text);
      } else if (PlanOptions.isPipelining(text)) {
        pipelining = PlanOptions.pipelining(text);
      } else {
        try {
          fifos.add(StrategyOverride.parse(text));
        } catch (OverrideException e) {
          throw new OptionException(OptionException.OVERRIDE, e.getMessage());
        }
      }
    }
    return new OverrideTexts(slots, pipelining, List.copyOf(fifos));
  }

  /**
   * Whether the plan may pipeline: as asked (else {@code fallback}), with these slots (else those of {@code preset},
   * as generate's {@link GenerateOptions#codePreset()}).
   */
  boolean pipelines(boolean fallback, StrategyPreset preset) {
    return pipelines(pipelining == null ? fallback : pipelining, slots == null ? CodePreset.of(preset).slots() : slots);
  }

  /**
   * The rule plan and generate share: the planner may run firings an iteration behind only when pipelining is on and
   * channels have at least two slots (one slot per shared buffer leaves no copy for an iteration behind).
   */
  static boolean pipelines(boolean on, int slots) {
    return on && slots >= 2;
  }

  private static int slots(String override) {
    String value = override.substring(override.indexOf('=') + 1).trim();
    try {
      int k = Integer.parseInt(value);
      if (k >= 1) {
        return k;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new OptionException(OptionException.OVERRIDE, "--override slots=K needs a positive integer, got '" + value
        + "'");
  }
}
