package org.cacheflow.plan.strategy;

/**
 * Why a copy-on-write view cannot replace a copy ({@link CowSources}): where the copy's data lies, its size, or why
 * the memory holding it cannot be shared through views. A value; the report bundle words it. Edges are single-rate
 * edges, vertices single-rate vertices, cores indexes into the platform.
 */
public sealed interface CowRefusal {

  /** Which refusal. */
  Rule rule();

  /** Every reason a view is refused. */
  enum Rule {
    /** Nothing is copied into the buffer: its producer writes it in place. */
    IN_PLACE,
    /** Memory scripts mark it private. */
    MARKED_PRIVATE,
    /** A merged output whose data is copied into its place from another group's memory. */
    COPIED_FROM_OTHER_GROUP,
    /** A merged output lying in pieces of its group's memory. */
    IN_PIECES,
    /** It hosts its merge group's memory. */
    HOSTS_GROUP,
    /** A join output: several inputs. */
    JOIN_GATHERS,
    /** Its special vertex has other than one input ({@link Inputs}). */
    INPUTS,
    /** It repeats its special vertex's input ({@link Repeats}). */
    REPEATS,
    /** Its special vertex's input holds a delay's initial tokens ({@link OfVertex}). */
    INPUT_DELAY,
    /** Its special vertex's input is merged without a byte layout ({@link OfVertex}). */
    NO_LAYOUT,
    /** Its slice spans several pieces of the input's group memory ({@link OfVertex}). */
    SPANS_PIECES,
    /** Smaller than a page ({@link SmallerThanPage}). */
    SMALLER_THAN_PAGE,
    /** Its consumer is a special vertex. */
    SPECIAL_CONSUMER,
    /** The memory holds a delay's initial tokens ({@link OfMemory}). */
    MEMORY_DELAY,
    /** The memory is used on another node ({@link OffNode}). */
    OFF_NODE,
    /** A member of the memory's group needs a view and cannot have one ({@link MemberNotViewable}). */
    MEMBER_NOT_VIEWABLE,
    /** A member's consumer writes the memory in place ({@link WrittenInPlace}). */
    WRITTEN_IN_PLACE,
    /** A view's consumer runs before its core publishes its part ({@link ConsumerBeforePublication}). */
    CONSUMER_BEFORE_PUBLICATION,
    /** A core's publication would wait for a view's consumer ({@link WaitsForView}). */
    WAITS_FOR_VIEW
  }

  /**
   * A refusal without figures: {@link Rule#IN_PLACE}, {@link Rule#MARKED_PRIVATE},
   * {@link Rule#COPIED_FROM_OTHER_GROUP}, {@link Rule#IN_PIECES}, {@link Rule#HOSTS_GROUP},
   * {@link Rule#JOIN_GATHERS}, {@link Rule#SPECIAL_CONSUMER}.
   */
  record Plain(Rule rule) implements CowRefusal {
  }

  /** {@link Rule#INPUT_DELAY}, {@link Rule#NO_LAYOUT} or {@link Rule#SPANS_PIECES}, of the copying {@code vertex}. */
  record OfVertex(Rule rule, int vertex) implements CowRefusal {
  }

  /** {@link Rule#INPUTS}: the copying {@code vertex} has {@code inputs} inputs. */
  record Inputs(int vertex, int inputs) implements CowRefusal {
    @Override
    public Rule rule() {
      return Rule.INPUTS;
    }
  }

  /** {@link Rule#REPEATS}: the copy of {@code bytes} repeats the {@code vertex}'s input of {@code inputBytes}. */
  record Repeats(int vertex, long inputBytes, long bytes) implements CowRefusal {
    @Override
    public Rule rule() {
      return Rule.REPEATS;
    }
  }

  /** {@link Rule#SMALLER_THAN_PAGE}: {@code bytes} below a page of {@code pageBytes}. */
  record SmallerThanPage(long pageBytes, long bytes) implements CowRefusal {
    @Override
    public Rule rule() {
      return Rule.SMALLER_THAN_PAGE;
    }
  }

  /** {@link Rule#MEMORY_DELAY}: the memory of {@code memory} holds a delay's initial tokens. */
  record OfMemory(int memory) implements CowRefusal {
    @Override
    public Rule rule() {
      return Rule.MEMORY_DELAY;
    }
  }

  /** {@link Rule#OFF_NODE}: the memory, written on {@code homeNode}, is used on {@code node} by {@code user}. */
  record OffNode(int memory, int homeNode, int node, int user) implements CowRefusal {
    @Override
    public Rule rule() {
      return Rule.OFF_NODE;
    }
  }

  /**
   * {@link Rule#MEMBER_NOT_VIEWABLE}: the memory is shared in place with {@code member}, whose consumer may write it
   * ({@code consumerWrites}) or runs on {@code consumerCore} where nothing writes the memory, and which cannot be a
   * view: smaller than a page ({@code smallerThanPage}) or in pieces.
   */
  record MemberNotViewable(int memory, int member, boolean consumerWrites, int consumerCore, boolean smallerThanPage)
      implements CowRefusal {
    @Override
    public Rule rule() {
      return Rule.MEMBER_NOT_VIEWABLE;
    }
  }

  /** {@link Rule#WRITTEN_IN_PLACE}: the consumer of {@code member} writes the memory in place. */
  record WrittenInPlace(int memory, int member) implements CowRefusal {
    @Override
    public Rule rule() {
      return Rule.WRITTEN_IN_PLACE;
    }
  }

  /** {@link Rule#CONSUMER_BEFORE_PUBLICATION}: the consumer of {@code reader} runs on {@code core} too early. */
  record ConsumerBeforePublication(int memory, int reader, int core) implements CowRefusal {
    @Override
    public Rule rule() {
      return Rule.CONSUMER_BEFORE_PUBLICATION;
    }
  }

  /**
   * {@link Rule#WAITS_FOR_VIEW}: publishing the memory after its last use on {@code core} would wait for the consumer
   * of {@code reader} on {@code readerCore}.
   */
  record WaitsForView(int memory, int core, int reader, int readerCore) implements CowRefusal {
    @Override
    public Rule rule() {
      return Rule.WAITS_FOR_VIEW;
    }
  }
}
