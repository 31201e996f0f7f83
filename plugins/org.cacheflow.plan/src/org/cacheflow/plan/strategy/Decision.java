package org.cacheflow.plan.strategy;

import java.util.List;

/**
 * Why a buffer has its strategy: the rule of {@link StrategySelector} that fired, with the figures it weighed (bytes,
 * thresholds, core indexes, edges) and the sub-decisions it is made of (the copy-on-write verdict of a copy, the slots
 * and homing of a channel, the pre-store reuse case). A value: the words are written only by the report bundle
 * ({@code org.cacheflow.report.DecisionText}), from the decision and the target's measured figures.
 *
 * <p>
 * Which rule fired: {@link #rule()}. Edges are single-rate edges, cores indexes into the plan's platform.
 */
public sealed interface Decision {

  /** The rule that chose the strategy. */
  Rule rule();

  /** Every rule that chooses a buffer's strategy. */
  enum Rule {
    /** Baseline: a special vertex's output, copied with memcpy as PREESM's code does. */
    BASELINE_COPY,
    /** Baseline: a delay's initial tokens, in a shared buffer of their own. */
    BASELINE_DELAY,
    /** Baseline: written by its producer and read in place. */
    BASELINE_IN_PLACE,
    /** A merged output becomes a copy-on-write view of its place in its group's shared memory. */
    MERGED_VIEW,
    /** Memory scripts merged it: it shares its group's memory. */
    ALIASED,
    /** A delay's initial tokens, in memory of their own. */
    DELAY_INITIAL,
    /** A delay's final tokens, carried into the delay's storage. */
    DELAY_FINAL,
    /** {@code cow}: a view of the special vertex's input replaces the copy. */
    COW_VIEW,
    /** {@code cow}: no view can replace the copy ({@link CowRefusal}); a plain copy. */
    COW_REFUSED,
    /** {@code cow} or {@code ntm}: nothing is copied, the producer writes it in place. */
    IN_PLACE,
    /** {@code ntm}: the special vertex copies it with non-temporal stores. */
    NTM_COPY,
    /** {@code prestore}: pre-stored after its write, the kind by the reuse rule ({@link Reuse}). */
    PRESTORE,
    /**
     * {@code prestore} with a profile: written and re-read soon on one core, as measured ({@link RereadMeasured}); a
     * direct buffer, not pre-stored.
     */
    PROFILE_REREAD_SOON,
    /** {@code homeforward}: producer and consumer on one core, a plain copy. */
    SAME_CORE_COPY,
    /** {@code homeforward}: producer and consumer on one core, read in place. */
    SAME_CORE_IN_PLACE,
    /** Producer and consumer on different nodes: an MPI transfer. */
    SEND,
    /** {@code auto}: the memory of a copy-on-write source, written in place and published to its views. */
    COW_SOURCE,
    /** A cross-core buffer becomes a home-forwarded rdy-ack channel ({@link Channel}). */
    CHANNEL,
    /** {@code auto}: written and read on one core, a direct buffer. */
    SAME_CORE,
    /** {@code auto}: a copy replaced by a copy-on-write view. */
    AUTO_VIEW,
    /** {@code auto}: a large copy not read again soon by its copier, made with non-temporal stores. */
    AUTO_NTM,
    /** {@code auto}: a small cross-core copy read soon, pre-stored. */
    AUTO_PRESTORE,
    /** {@code auto}: a plain memcpy, the safe choice. */
    AUTO_MEMCPY,
    /** A per-FIFO override chose the strategy. */
    OVERRIDE
  }

  /**
   * A rule without figures of its own: {@link Rule#BASELINE_COPY}, {@link Rule#BASELINE_DELAY},
   * {@link Rule#BASELINE_IN_PLACE}, {@link Rule#DELAY_INITIAL}, {@link Rule#DELAY_FINAL}, {@link Rule#COW_VIEW},
   * {@link Rule#NTM_COPY}.
   */
  record Plain(Rule rule) implements Decision {
  }

  /**
   * {@link Rule#IN_PLACE}: nothing is copied into it.
   *
   * @param strategy the plan-wide strategy that looked for a copy ({@code cow} or {@code ntm})
   */
  record InPlace(GlobalStrategy strategy) implements Decision {
    @Override
    public Rule rule() {
      return Rule.IN_PLACE;
    }
  }

  /**
   * {@link Rule#MERGED_VIEW}.
   *
   * @param underCow whether the plan-wide strategy is {@code cow} (else {@code auto})
   * @param memory the merge root whose memory is shared
   * @param consumerCore the core the consumer runs on
   * @param consumerReadOnly whether its consumer only reads it (then it runs where nothing writes the memory)
   * @param writerCores the cores writing the memory in place, ascending
   */
  record MergedView(boolean underCow, int memory, int consumerCore, boolean consumerReadOnly,
      List<Integer> writerCores) implements Decision {
    public MergedView {
      writerCores = List.copyOf(writerCores);
    }

    @Override
    public Rule rule() {
      return Rule.MERGED_VIEW;
    }
  }

  /**
   * {@link Rule#ALIASED}.
   *
   * @param copiedFromOtherGroup whether its data comes from a buffer of another group, so it is still copied
   */
  record Aliased(boolean copiedFromOtherGroup) implements Decision {
    @Override
    public Rule rule() {
      return Rule.ALIASED;
    }
  }

  /** {@link Rule#COW_REFUSED}: why no view replaces the copy. */
  record CowRefused(CowRefusal refusal) implements Decision {
    @Override
    public Rule rule() {
      return Rule.COW_REFUSED;
    }
  }

  /**
   * {@link Rule#PRESTORE} under the plan-wide {@code prestore}.
   *
   * @param measuredReread the re-read distance a profile measured (its reader is on another core, or it is not
   *     re-read soon), or null without one
   */
  record Prestored(Reuse reuse, Long measuredReread) implements Decision {
    @Override
    public Rule rule() {
      return Rule.PRESTORE;
    }
  }

  /**
   * {@link Rule#PROFILE_REREAD_SOON}: the profile measured the buffer re-read after {@code distance} bytes by the
   * writer's core {@code core}; it and those bytes fit the L2, so a pre-store would only add write-backs.
   *
   * @param source the profile's file name
   */
  record RereadMeasured(int core, long distance, long bytes, long l2Bytes, String source) implements Decision {
    @Override
    public Rule rule() {
      return Rule.PROFILE_REREAD_SOON;
    }
  }

  /** {@link Rule#SAME_CORE_COPY} or {@link Rule#SAME_CORE_IN_PLACE} under {@code homeforward}, on {@code core}. */
  record SameCoreHomeforward(Rule rule, int core) implements Decision {
  }

  /**
   * {@link Rule#SEND}.
   *
   * @param producerCore the producer's core
   * @param consumerCore the consumer's core
   * @param producerNode the producer's node
   * @param consumerNode the consumer's node
   * @param bytes bytes sent per iteration
   * @param copied whether a special vertex copies into the sent buffer
   */
  record Sent(int producerCore, int consumerCore, int producerNode, int consumerNode, long bytes, boolean copied)
      implements Decision {
    @Override
    public Rule rule() {
      return Rule.SEND;
    }
  }

  /**
   * {@link Rule#COW_SOURCE}.
   *
   * @param readers how many buffers read the memory through views or in place
   * @param writerCores the cores writing it in place, ascending
   */
  record CowSource(int readers, List<Integer> writerCores) implements Decision {
    public CowSource {
      writerCores = List.copyOf(writerCores);
    }

    @Override
    public Rule rule() {
      return Rule.COW_SOURCE;
    }
  }

  /**
   * {@link Rule#SAME_CORE}.
   *
   * @param core the core writing and reading it
   * @param reread bytes touched between the write and the read
   * @param cached whether the buffer and those bytes fit the L2
   * @param l2Bytes the target's L2
   * @param prestoreMaxBytes the largest cross-core hand-off pre-stores pay for
   */
  record SameCore(int core, long reread, boolean cached, long l2Bytes, long prestoreMaxBytes) implements Decision {
    @Override
    public Rule rule() {
      return Rule.SAME_CORE;
    }
  }

  /**
   * {@link Rule#CHANNEL}.
   *
   * @param homeforward whether the plan-wide {@code homeforward} chose it (else {@code auto} or an override)
   * @param producerCore the producer's core
   * @param consumerCore the consumer's core, where the channel is homed
   * @param copied whether a special vertex copies into the slot (else filled and read in place)
   * @param slots how many slots, and why
   * @param homing the sender's homing pre-store, and why
   */
  record Channel(boolean homeforward, int producerCore, int consumerCore, boolean copied, Slots slots,
      Homing homing) implements Decision {
    @Override
    public Rule rule() {
      return Rule.CHANNEL;
    }

    /** The same channel with the slots the user asked for. */
    public Channel withSlotsAsked(int asked) {
      return new Channel(homeforward, producerCore, consumerCore, copied,
          new Slots(Slots.Rule.ASKED, asked, slots.bytes(), slots.l2Bytes()), homing);
    }
  }

  /**
   * The slots of a channel.
   *
   * @param rule {@link Rule#TWO_FIT} when two slots fit the consumer's L2, {@link Rule#ONE_TOO_LARGE} when not,
   *     {@link Rule#ASKED} when the user asked for {@code slots}
   * @param slots the slot count
   * @param bytes the bytes of one slot
   * @param l2Bytes the target's L2
   */
  record Slots(Rule rule, int slots, long bytes, long l2Bytes) {
    /** Why a channel has its slots. */
    public enum Rule {
      TWO_FIT, ONE_TOO_LARGE, ASKED
    }
  }

  /**
   * The homing pre-store of a channel's sender.
   *
   * @param rule {@link Rule#READ_LATE}, {@link Rule#HOMED} or {@link Rule#TOO_LARGE}
   * @param maxBytes the largest hand-off pre-stores pay for
   * @param late for READ_LATE, how late the read is; else null
   * @param reuse for HOMED, the pre-store kind by the reuse rule; else null
   */
  record Homing(Rule rule, long maxBytes, LateRead late, Reuse reuse) {
    /** Whether the sender pre-stores. */
    public enum Rule {
      /** Small enough, but read too late for a pre-store to pay. */
      READ_LATE,
      /** Pre-stored, the kind by the reuse rule. */
      HOMED,
      /** Above the largest hand-off pre-stores pay for. */
      TOO_LARGE
    }

    /** The kind of pre-store (NONE unless homed). */
    public PrestoreKind kind() {
      return reuse == null ? PrestoreKind.NONE : reuse.kind();
    }
  }

  /**
   * A cross-core hand-off read too late for a pre-store to pay: the buffer and the bytes touched before the read do
   * not fit the writer's L1d.
   *
   * @param reread bytes touched between the write and the remote read
   * @param l1dBytes the target's L1d
   */
  record LateRead(long reread, long l1dBytes) {
  }

  /**
   * The pre-store kind by the pre-stores paper's rule (Sect. 6.2.3), with the distances behind it.
   *
   * @param kind DEMOTE when re-written soon, CLEAN when re-read soon, else BYPASS
   * @param writerCore the core writing the buffer
   * @param rewrite bytes that core touches before writing it again
   * @param reread bytes touched before the read
   * @param l2Bytes the target's L2
   * @param crossCore whether the reader runs on another core (the cache shared is then the LLC, else the L2)
   * @param sharedBytes the cache writer and reader share
   */
  record Reuse(PrestoreKind kind, int writerCore, long rewrite, long reread, long l2Bytes, boolean crossCore,
      long sharedBytes) {
  }

  /** The copy-on-write break-even a copy was weighed against: its consumers' case. */
  enum BreakEvenCase {
    /** Its consumers only read: the read-only break-even. */
    ONLY_READ,
    /** It may be written, but several buffers read the same bytes: the read-only break-even. */
    SHARED_READERS,
    /** A lone copy whose consumer may write a page: the read-mostly break-even. */
    WRITE_PAGE
  }

  /**
   * The copy-on-write break-even of a copy.
   *
   * @param breakEvenCase its consumers' case
   * @param sharers how many buffers read the same bytes of its memory
   * @param bytes the break-even
   */
  record BreakEven(BreakEvenCase breakEvenCase, int sharers, long bytes) {
  }

  /**
   * {@link Rule#AUTO_VIEW}.
   *
   * @param cause why a view was considered: read-mostly, shared by several readers, or a source whose other copies
   *     made it a view
   * @param sharers buffers reading the same bytes
   * @param bytes the copy's bytes
   * @param breakEven its break-even
   * @param consumerReadOnly whether its consumer only reads it
   */
  record AutoView(ViewCause cause, int sharers, long bytes, BreakEven breakEven, boolean consumerReadOnly)
      implements Decision {
    @Override
    public Rule rule() {
      return Rule.AUTO_VIEW;
    }

    /** Whether the copy itself reaches its break-even (else another copy of the same memory does). */
    public boolean reachesBreakEven() {
      return bytes >= breakEven.bytes();
    }
  }

  /** Why {@code auto} weighed a view for a copy. */
  enum ViewCause {
    /** The copy is read-mostly. */
    READ_MOSTLY,
    /** Several buffers read its bytes from the same memory. */
    SHARED,
    /** Another copy of the same source is viewed (all or none). */
    SOURCE_VIEWED
  }

  /**
   * Why {@code auto} kept a copy rather than a view: the first part of a copy's reason.
   *
   * @param rule {@link Rule#REFUSED}: no view can apply; {@link Rule#BELOW_BREAK_EVEN}; {@link Rule#NOT_READ_MOSTLY}:
   *     its class does not call for one
   * @param refusal for REFUSED, why; else null
   * @param bytes the copy's bytes
   * @param breakEven for BELOW_BREAK_EVEN, the break-even; else null
   */
  record NoView(Rule rule, CowRefusal refusal, long bytes, BreakEven breakEven) {
    /** Why no view. */
    public enum Rule {
      REFUSED, BELOW_BREAK_EVEN, NOT_READ_MOSTLY
    }
  }

  /**
   * {@link Rule#AUTO_NTM}.
   *
   * @param noView why no view
   * @param bytes the copy's bytes
   * @param ntmMinBytes the smallest copy made with non-temporal stores
   * @param copierCore the copying core
   * @param readerCore the reader's core
   * @param reread bytes touched between the copy and its read
   * @param l2Bytes the target's L2
   */
  record NonTemporalCopy(NoView noView, long bytes, long ntmMinBytes, int copierCore, int readerCore, long reread,
      long l2Bytes) implements Decision {
    @Override
    public Rule rule() {
      return Rule.AUTO_NTM;
    }
  }

  /**
   * {@link Rule#AUTO_PRESTORE}.
   *
   * @param noView why no view
   * @param bytes the copy's bytes
   * @param prestoreMaxBytes the largest hand-off pre-stored
   * @param reuse the kind by the reuse rule
   */
  record PrestoredCopy(NoView noView, long bytes, long prestoreMaxBytes, Reuse reuse) implements Decision {
    @Override
    public Rule rule() {
      return Rule.AUTO_PRESTORE;
    }
  }

  /** Why {@code auto} copies with memcpy. */
  enum MemcpyRule {
    /** Below the size where non-temporal stores stop losing to memcpy. */
    SMALL,
    /** Its reader on the same core reads it soon: a cached copy re-reads faster. */
    REREAD_SOON
  }

  /**
   * {@link Rule#AUTO_MEMCPY}.
   *
   * @param noView why no view
   * @param memcpy why memcpy
   * @param bytes the copy's bytes
   * @param ntmMinBytes the smallest copy made with non-temporal stores
   * @param crossCore whether the reader runs on another core
   * @param late for a small cross-core copy within the pre-store size, why it is read too late; else null
   * @param prestoreMaxBytes the largest hand-off pre-stored
   * @param reread bytes touched between the copy and its read
   * @param l2Bytes the target's L2
   */
  record PlainCopy(NoView noView, MemcpyRule memcpy, long bytes, long ntmMinBytes, boolean crossCore, LateRead late,
      long prestoreMaxBytes, long reread, long l2Bytes) implements Decision {
    @Override
    public Rule rule() {
      return Rule.AUTO_MEMCPY;
    }
  }

  /**
   * {@link Rule#OVERRIDE}.
   *
   * @param text the override as the user wrote it
   * @param reuse for a pre-store whose kind the override left to the reuse rule, that rule; else null
   * @param channel for a channel, its slots and homing; else null
   */
  record Overridden(String text, Reuse reuse, Channel channel) implements Decision {
    @Override
    public Rule rule() {
      return Rule.OVERRIDE;
    }
  }
}
