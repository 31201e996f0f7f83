package org.cacheflow.plan.strategy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/** What {@link StrategySelector} decided, per single-rate edge. */
public final class Decisions {

  private static final Strategy[] STRATEGIES = Strategy.values();
  private static final PrestoreKind[] KINDS = PrestoreKind.values();

  final byte[] strategy;
  final byte[] prestore;
  final int[] slots;
  final int[] homeCore;
  final Decision[] decision;
  final boolean[] overridden;
  /** For a copy-on-write view: the buffer whose memory it maps (-1 otherwise), and from which byte. */
  final int[] viewSource;
  final long[] viewOffset;
  final List<PlanNote> notes = new ArrayList<>();

  Decisions(int edges) {
    viewSource = new int[edges];
    viewOffset = new long[edges];
    Arrays.fill(viewSource, -1);
    strategy = new byte[edges];
    prestore = new byte[edges];
    slots = new int[edges];
    homeCore = new int[edges];
    decision = new Decision[edges];
    overridden = new boolean[edges];
  }

  void set(int edge, Strategy s, PrestoreKind kind, int slotCount, int home, Decision why) {
    strategy[edge] = (byte) s.ordinal();
    prestore[edge] = (byte) kind.ordinal();
    slots[edge] = slotCount;
    homeCore[edge] = home;
    decision[edge] = why;
    viewSource[edge] = -1;
  }

  void setView(int edge, int source, long offset) {
    viewSource[edge] = source;
    viewOffset[edge] = offset;
  }

  /**
   * For a copy-on-write view, the single-rate edge whose memory (its merge group's, for a group root) holds the
   * bytes the view shows; -1 for other strategies.
   */
  public int viewSource(int edge) {
    return viewSource[edge];
  }

  /** For a copy-on-write view, the first byte it shows in its source's memory. */
  public long viewOffset(int edge) {
    return viewOffset[edge];
  }

  /** How many edges were decided. */
  public int edgeCount() {
    return strategy.length;
  }

  public Strategy strategy(int edge) {
    return STRATEGIES[strategy[edge]];
  }

  /** The pre-store kind of a PRESTORE buffer, the homing of a CHANNEL; NONE otherwise. */
  public PrestoreKind prestore(int edge) {
    return KINDS[prestore[edge]];
  }

  /** Channel slots (k), 0 for other strategies. */
  public int slots(int edge) {
    return slots[edge];
  }

  /** The core whose caches the buffer lives in: the consumer's for a channel, the writer's otherwise. */
  public int homeCore(int edge) {
    return homeCore[edge];
  }

  /** Why the buffer has its strategy: the rule that fired, with its figures. */
  public Decision decision(int edge) {
    return decision[edge];
  }

  /** Whether a per-FIFO override chose the strategy. */
  public boolean overridden(int edge) {
    return overridden[edge];
  }

  /** Remarks about overrides that applied to only some buffers of a FIFO. */
  public List<PlanNote> notes() {
    return Collections.unmodifiableList(notes);
  }
}
