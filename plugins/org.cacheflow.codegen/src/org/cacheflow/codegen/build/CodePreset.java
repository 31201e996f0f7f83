package org.cacheflow.codegen.build;

import java.util.List;

import org.cacheflow.plan.strategy.PrestoreKind;
import org.cacheflow.plan.strategy.StrategyPreset;

/**
 * A strategy preset as the generated code applies it: how buffers move between actors and cores. The
 * {@link StrategyPreset} (the strategy vocabulary: barrier, aliasing, pre-store kind and streaming copies come from it)
 * with the channel slots. (The plan's per-buffer choice is {@code plan.strategy.Strategy}, its plan-wide mode
 * {@code GlobalStrategy}.)
 * {@code baseline} reproduces PREESM's generated code (copies for special actors, semaphore signalling, a barrier
 * after every iteration), the others pipeline iterations through rdy-ack channels; the presets that are planner
 * modes ({@link StrategyPreset#followsPlan()}) follow the memory plan per buffer.
 *
 * @param preset the preset
 * @param slots k, iterations a channel holds in flight
 * @param slotsAsked whether the user asked for {@code slots} ({@code --override slots=K}): then merge groups
 *     several cores use get exactly k slots too, else as many as span the target's L2
 *     ({@link org.cacheflow.plan.strategy.GroupSlots})
 */
public record CodePreset(StrategyPreset preset, int slots, boolean slotsAsked) {

  public static final int DEFAULT_SLOTS = 2;

  /** The preset names, as {@code --strategy} accepts them. */
  public static final List<String> NAMES = StrategyPreset.labels();

  /** The names of {@link StrategyPreset#ladder()}, the presets tests and benchmarks compare step by step. */
  public static final List<String> LADDER = StrategyPreset.ladder().stream().map(preset -> preset.label).toList();

  /** The preset with its default slots (one for a barrier: a buffer per iteration, else {@link #DEFAULT_SLOTS}). */
  public static CodePreset of(StrategyPreset preset) {
    return new CodePreset(preset, preset.barrier() ? 1 : DEFAULT_SLOTS, false);
  }

  /** The preset of that name; IllegalArgumentException naming the known ones otherwise. */
  public static CodePreset named(String name) {
    return of(StrategyPreset.named(name));
  }

  /** The preset's name. */
  public String name() {
    return preset.label;
  }

  /** See {@link StrategyPreset#barrier()}. */
  public boolean barrier() {
    return preset.barrier();
  }

  /** See {@link StrategyPreset#alias()}. */
  public boolean alias() {
    return preset.alias();
  }

  /** The pre-store after the last write of a buffer another core reads. */
  public PrestoreKind prestore() {
    return preset.prestore();
  }

  /** See {@link StrategyPreset#skip()}. */
  public boolean skip() {
    return preset.skip();
  }

  /** The same strategy with k slots the user asked for (channels and merge groups several cores use). */
  public CodePreset withSlots(int k) {
    return new CodePreset(preset, k, true);
  }
}
