package org.cacheflow.plan.strategy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The strategy vocabulary users see: every name {@code --strategy} accepts, in one place. Each preset says what
 * the planner does for it ({@link #planner()}: the plan-wide mode, per-buffer decisions follow the plan when
 * {@link #followsPlan()}), and how code is generated for it when it does not follow the plan (barrier, aliasing,
 * pre-store kind, streaming copies). Help texts, documentation tables, the workflow task's choices and the
 * editors' choices are made from this enum; a new strategy is a new constant here (and, if it needs new code, in
 * the planner or code generator).
 */
public enum StrategyPreset {
  /** PREESM's generated code. */
  BASELINE("baseline", "Baseline", "plain copies everywhere, like PREESM's generated code (semaphores, a barrier "
      + "after every iteration)", GlobalStrategy.BASELINE, true, true, false, PrestoreKind.NONE, false),
  /** PREESM's generated code with its memory scripts: the reference the other presets are compared with. */
  PREESM("preesm", "Preesm", "PREESM's generated code with its memory scripts: buffers the scripts merge share "
      + "memory (PREESM's rules only), every other copy plain, semaphores and a barrier after every iteration",
      GlobalStrategy.PREESM, true, true, true, PrestoreKind.NONE, false),
  /** Rdy-ack channels, PREESM's plain copies. */
  CHANNELS("channels", null, "PREESM's plain copies, cross-core buffers in rdy-ack channels (iterations pipelined)",
      GlobalStrategy.HOMEFORWARD, false, false, false, PrestoreKind.NONE, false),
  /** Channels and the memory scripts' merges. */
  ALIAS("alias", null, "channels, and buffers the memory scripts merge share memory", GlobalStrategy.HOMEFORWARD,
      false, false, true, PrestoreKind.NONE, false),
  /** Non-temporal copies. */
  NTM("ntm", "NonTemporal", "every copy with non-temporal stores", GlobalStrategy.NTM, true, false, true,
      PrestoreKind.NONE, false),
  /** Copy-on-write views. */
  COW("cow", "CopyOnWrite", "copy-on-write views wherever a copy can be one", GlobalStrategy.COW, true, false, true,
      PrestoreKind.NONE, false),
  /** Alias, and a demote pre-store of every cross-core buffer. */
  PRESTORE_DEMOTE("prestore-demote", null, "alias, and every buffer another core reads demoted to the shared cache "
      + "after its last write", GlobalStrategy.PRESTORE, false, false, true, PrestoreKind.DEMOTE, false),
  /** Alias, and a clean pre-store of every cross-core buffer. */
  PRESTORE_CLEAN("prestore-clean", null, "alias, and every buffer another core reads written back (kept cached) "
      + "after its last write", GlobalStrategy.PRESTORE, false, false, true, PrestoreKind.CLEAN, false),
  /** Alias, and streaming copies into cross-core buffers. */
  PRESTORE_SKIP("prestore-skip", null, "alias, and copies into a buffer another core reads written around the "
      + "caches", GlobalStrategy.PRESTORE, false, false, true, PrestoreKind.NONE, true),
  /** The planner's choice per buffer. */
  AUTO("auto", "Auto", "per buffer, what the measured break-evens and reuse distances favour", GlobalStrategy.AUTO,
      true, false, true, PrestoreKind.NONE, false),
  /** Home-forwarded channels. */
  HOMEFORWARD("homeforward", "HomeForward", "every cross-core buffer becomes a home-forwarded channel",
      GlobalStrategy.HOMEFORWARD, true, false, true, PrestoreKind.NONE, false),
  /** The pre-stores paper's rule per buffer. */
  PRESTORE("prestore", "PreStore", "pre-store every written buffer (demote / clean / skip by reuse)",
      GlobalStrategy.PRESTORE, true, false, true, PrestoreKind.NONE, false);

  /** The preset {@code --strategy} uses when none is given. */
  public static final StrategyPreset DEFAULT = AUTO;

  /** Its {@code --strategy} name. */
  public final String label;
  /** Its name in a workflow task's "Memory strategy" (and the editors' choices); null when not offered there. */
  public final String taskName;
  /** One line of help. */
  public final String help;
  private final GlobalStrategy planner;
  private final boolean followsPlan;
  private final boolean barrier;
  private final boolean alias;
  private final PrestoreKind prestore;
  private final boolean skip;

  StrategyPreset(String label, String taskName, String help, GlobalStrategy planner, boolean followsPlan,
      boolean barrier, boolean alias, PrestoreKind prestore, boolean skip) {
    this.label = label;
    this.taskName = taskName;
    this.help = help;
    this.planner = planner;
    this.followsPlan = followsPlan;
    this.barrier = barrier;
    this.alias = alias;
    this.prestore = prestore;
    this.skip = skip;
  }

  /** The planner's plan-wide mode for this preset (the closest one when the preset is not a planner mode). */
  public GlobalStrategy planner() {
    return planner;
  }

  /**
   * Whether the planner decides per buffer (copy kind, pre-store, views, channel slots) and generated code follows
   * it; otherwise the plan of {@link #planner()} gives mapping, order and merges and this preset's flags decide.
   */
  public boolean followsPlan() {
    return followsPlan;
  }

  /**
   * Cores meet after every iteration and cross-core buffers are signalled with semaphores; otherwise cross-core
   * buffers travel in rdy-ack channels and cores pipeline iterations.
   */
  public boolean barrier() {
    return barrier;
  }

  /** Buffers the plan aliases (memory-script merge groups) share memory; otherwise special actors copy. */
  public boolean alias() {
    return alias;
  }

  /** The pre-store after the last write of a buffer another core reads ({@link PrestoreKind#NONE}: none). */
  public PrestoreKind prestore() {
    return prestore;
  }

  /** Copies into a buffer another core reads are written with streaming stores. */
  public boolean skip() {
    return skip;
  }

  /** The preset of that {@code --strategy} name (any case). */
  public static Optional<StrategyPreset> byLabel(String label) {
    String key = label.trim().toLowerCase(Locale.ROOT);
    for (StrategyPreset preset : values()) {
      if (preset.label.equals(key)) {
        return Optional.of(preset);
      }
    }
    return Optional.empty();
  }

  /** The preset of that name; IllegalArgumentException naming the known ones otherwise. */
  public static StrategyPreset named(String label) {
    return byLabel(label).orElseThrow(() -> new IllegalArgumentException("unknown strategy '" + label + "'; known: "
        + String.join(", ", labels())));
  }

  /** The preset that is exactly this planner mode. */
  public static StrategyPreset of(GlobalStrategy mode) {
    for (StrategyPreset preset : values()) {
      if (preset.followsPlan && preset.planner == mode) {
        return preset;
      }
    }
    throw new IllegalArgumentException("no preset for " + mode);
  }

  /** Every {@code --strategy} name, in order. */
  public static List<String> labels() {
    List<String> labels = new ArrayList<>();
    for (StrategyPreset preset : values()) {
      labels.add(preset.label);
    }
    return Collections.unmodifiableList(labels);
  }

  /**
   * The technique ladder that tests and benchmarks compare one step at a time: {@link #BASELINE}, PREESM's
   * memory-script merges ({@link #PREESM}, the reference), then rdy-ack channels, memory-script aliasing,
   * non-temporal copies, copy-on-write views, the three fixed pre-store kinds and the planner's per-buffer choice
   * ({@link #AUTO}). It leaves out {@link #HOMEFORWARD} and {@link #PRESTORE}, the planner's whole-plan modes
   * (named for {@link #of(GlobalStrategy)}; the ladder's steps cover their techniques).
   * Listed by name, not by position: a new preset joins the ladder only by being added here.
   */
  public static List<StrategyPreset> ladder() {
    return List.of(BASELINE, PREESM, CHANNELS, ALIAS, NTM, COW, PRESTORE_DEMOTE, PRESTORE_CLEAN, PRESTORE_SKIP, AUTO);
  }

  /** The presets that are planner modes ({@code cacheflow plan --strategy}, the workflow task), in order. */
  public static List<StrategyPreset> plannerModes() {
    List<StrategyPreset> modes = new ArrayList<>();
    for (GlobalStrategy mode : GlobalStrategy.values()) {
      modes.add(of(mode));
    }
    return Collections.unmodifiableList(modes);
  }
}
