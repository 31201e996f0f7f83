package org.cacheflow.plan.classify;

import java.util.EnumMap;
import java.util.Map;

import org.cacheflow.analysis.srdag.Srdag;

/**
 * The class of every single-rate buffer, the rule that gave it, who fills the buffer, and whether it crosses
 * cores. Built by {@link Classifier}. Immutable; arrays are indexed by edge.
 */
public final class Classification {

  private static final ClassRule[] RULES = ClassRule.values();
  private static final BufferOrigin[] ORIGINS = BufferOrigin.values();

  private final Srdag srdag;
  private final byte[] rule;
  private final byte[] origin;
  private final boolean[] crossCore;
  private final boolean[] consumersReadOnly;
  private final int[] mergeRoot;
  private final MemoryFacts facts;

  Classification(Srdag srdag, byte[] rule, byte[] origin, boolean[] crossCore, boolean[] consumersReadOnly,
      int[] mergeRoot, MemoryFacts facts) {
    this.srdag = srdag;
    this.rule = rule;
    this.origin = origin;
    this.crossCore = crossCore;
    this.consumersReadOnly = consumersReadOnly;
    this.mergeRoot = mergeRoot;
    this.facts = facts;
  }

  public Srdag srdag() {
    return srdag;
  }

  public BufferClass classOf(int edge) {
    return rule(edge).bufferClass;
  }

  /** The rule that gave the buffer its class. */
  public ClassRule rule(int edge) {
    return RULES[rule[edge]];
  }

  public BufferOrigin origin(int edge) {
    return ORIGINS[origin[edge]];
  }

  /** Whether producer and consumer run on different cores. */
  public boolean crossCore(int edge) {
    return crossCore[edge];
  }

  /** Whether every consumer of the buffer's data only reads it (READ_ONLY or UNUSED ports downstream). */
  public boolean consumersReadOnly(int edge) {
    return consumersReadOnly[edge];
  }

  /** The root of the buffer's merge group, or -1 when it has memory of its own (see {@link MemoryFacts}). */
  public int mergeRoot(int edge) {
    return mergeRoot[edge];
  }

  /**
   * Bytes a special vertex still copies into a merged output: the parts whose source buffer lies in another
   * merge group (the merger may place an output with its consumer's in-place buffers rather than with the
   * vertex's input), so generated code cannot leave the copy out. 0 for buffers that are not merged copies.
   */
  public long copiedIntoMerged(int edge) {
    int root = mergeRoot[edge];
    if (root < 0 || origin(edge) != BufferOrigin.COPY) {
      return 0;
    }
    int source = srdag.edgeSource(edge);
    long copied = 0;
    for (int input : srdag.incomingEdges(source)) {
      if (mergeRoot[input] != root) {
        if (srdag.vertexKind(source) != org.cacheflow.model.ActorKind.JOIN) {
          return srdag.edgeBytes(edge);
        }
        copied += srdag.edgeBytes(input);
      }
    }
    return Math.min(copied, srdag.edgeBytes(edge));
  }

  /** The memory facts the classification used. */
  public MemoryFacts facts() {
    return facts;
  }

  /**
   * Where the memory scripts said what the buffer's class rule rests on, as the facts describe it: the merge's script
   * and match, where the marks were set, or why an allowed merge was not applied; null when the rule rests on no
   * script or the facts do not say.
   */
  public String evidenceDetail(int edge) {
    return switch (rule(edge)) {
      case MERGED -> facts.describeMerge(edge);
      case MARKED_READ_MOSTLY, MARKED_PRIVATE, MARKED_WRITE_MOSTLY -> facts.describeMarks(edge);
      case SHARED_COPY_NOT_MERGED, COPY_READ -> facts.rejectedMerge(edge);
      default -> null;
    };
  }

  /** How many buffers have each class. */
  public Map<BufferClass, Integer> counts() {
    Map<BufferClass, Integer> counts = new EnumMap<>(BufferClass.class);
    for (int e = 0; e < rule.length; e++) {
      counts.merge(classOf(e), 1, Integer::sum);
    }
    return counts;
  }
}
