package org.cacheflow.codegen.model;

import java.util.ArrayList;
import java.util.List;

import org.cacheflow.plan.strategy.PrestoreKind;

/**
 * One step of a core's program. The model builder decides every step; printers only print them.
 */
public sealed interface Statement {

  /**
   * The buffer positions a statement reads or writes, in order: an actor call's data arguments (those with a
   * buffer), a copy's destination and source, a zero-fill's or pre-store's buffer, a digest's input; none for the
   * others (signalling, fences; a first-iteration statement's own are its statement's).
   */
  static List<BufferRef> buffersOf(Statement statement) {
    List<BufferRef> refs = new ArrayList<>();
    if (statement instanceof ActorCall call) {
      for (Argument argument : call.arguments()) {
        if (argument instanceof Argument.Data data && data.buffer() != null) {
          refs.add(data.buffer());
        }
      }
    } else if (statement instanceof Copy copy) {
      refs.add(copy.destination());
      refs.add(copy.source());
    } else if (statement instanceof Zero zero) {
      refs.add(zero.destination());
    } else if (statement instanceof Prestore prestore) {
      refs.add(prestore.buffer());
    } else if (statement instanceof Digest digest) {
      refs.add(digest.buffer());
    }
    return refs;
  }

  /**
   * Fires an actor through its loop (or init) prototype, or through its synthetic body.
   *
   * @param vertex the single-rate vertex name, for the comment
   * @param origin where the actor was declared (FILE:LINE:COL), for the comment
   * @param function the C function called
   * @param arguments in prototype order
   * @param firing the firing index, passed to synthetic bodies
   */
  record ActorCall(String vertex, String origin, String function, List<Argument> arguments, long firing)
      implements Statement {
  }

  /** Copies {@code bytes} bytes (a special actor, a delay). */
  record Copy(BufferRef destination, BufferRef source, long bytes, CopyKind kind, String why) implements Statement {
  }

  /** A statement run in the first iteration only (a persistent delay's init refinement). */
  record FirstIteration(Statement statement) implements Statement {
  }

  /** Fills {@code bytes} bytes with zeros (the initial tokens of a delay). */
  record Zero(BufferRef destination, long bytes, String why) implements Statement {
  }

  /**
   * A pre-store after the last write of data another core reads: {@code DEMOTE} or {@code CLEAN} the lines, or
   * {@code BYPASS}: evict them (data an actor wrote itself cannot be written around the caches afterwards).
   */
  record Prestore(BufferRef buffer, long bytes, PrestoreKind kind) implements Statement {
  }

  /** Orders earlier streaming stores before the next publication. */
  record Fence() implements Statement {
  }

  /** Sender side of a channel: waits for a free slot and points {@code pointer} at it. */
  record ChannelReserve(Channel channel, String pointer) implements Statement {
  }

  /** Sender side: publishes the slot. */
  record ChannelCommit(Channel channel) implements Statement {
  }

  /** Receiver side: waits for the next message and points {@code pointer} at it. */
  record ChannelAcquire(Channel channel, String pointer) implements Statement {
  }

  /** Receiver side: hands the slot back. */
  record ChannelRelease(Channel channel) implements Statement {
  }

  /** Baseline signalling: the data of {@code semaphore} is ready. */
  record SemaphorePost(int semaphore, String why) implements Statement {
  }

  /** Baseline signalling: waits until the data of {@code semaphore} is ready. */
  record SemaphoreWait(int semaphore, String why) implements Statement {
  }

  /**
   * Rdy-ack signalling: raises {@code flag} to {@code iteration * perIteration + count}, announcing this
   * core's {@code count}-th event of the iteration to the flag's core (several dependencies met by one
   * firing are one event).
   */
  record FlagRaise(Flag flag, long perIteration, long count, String why) implements Statement {
  }

  /**
   * Rdy-ack signalling: waits until {@code flag} reaches {@code iteration * perIteration + offset} (an offset
   * below {@code -perIteration} means an event of an earlier iteration; a count <= 0 is met at once).
   */
  record FlagWait(Flag flag, long perIteration, long offset, String why) implements Statement {
  }

  /**
   * A core using a copy-on-write buffer in place (its writer part {@code part}): waits until the last iteration is
   * complete and every view released it.
   */
  record CowWriteBegin(CowBuffer buffer, int part, String pointer) implements Statement {
  }

  /** Its last use this iteration: publishes its part; the views see the iteration once every part is published. */
  record CowPublish(CowBuffer buffer, int part) implements Statement {
  }

  /** Consumer: waits for the published iteration and points {@code pointer} at its view. */
  record CowAcquire(CowBuffer buffer, int view, String pointer) implements Statement {
  }

  /** Consumer: re-shares the pages it wrote. */
  record CowRelease(CowBuffer buffer, int view) implements Statement {
  }

  /**
   * Sender of an inter-node transfer, before the producer first writes this iteration's slot: waits until the
   * send that slot made {@code k} iterations ago has completed (at once in the first {@code k} iterations).
   */
  record TransferSendWait(Transfer transfer) implements Statement {
  }

  /** Sender, after the last write of this iteration's slot: starts its send. */
  record TransferSend(Transfer transfer) implements Statement {
  }

  /** Receiver, before the consumer first reads: waits until this iteration's message is in its slot. */
  record TransferReceiveWait(Transfer transfer) implements Statement {
  }

  /** Receiver, after the consumer's last read: posts the slot's receive again, for iteration + k (if run). */
  record TransferReceivePost(Transfer transfer) implements Statement {
  }

  /**
   * A vertex's statements in a pipelined loop (some vertex has an iteration offset): in the loop's pass p they act
   * for graph iteration {@code p - skew}. Flag raises and waits run in every pass, so that the flags count as in an
   * endless periodic schedule; every other statement only when that graph iteration is one the run fires.
   */
  record Pipelined(int skew, List<Statement> body) implements Statement {

    /** Whether a statement of the body runs in every pass (signalling), not only for live graph iterations. */
    public static boolean everyPass(Statement statement) {
      return statement instanceof FlagRaise || statement instanceof FlagWait;
    }

    /** The body cut into maximal runs of statements that run in every pass or only for live iterations. */
    public List<List<Statement>> runs() {
      List<List<Statement>> runs = new ArrayList<>();
      for (Statement statement : body) {
        if (runs.isEmpty() || everyPass(runs.get(runs.size() - 1).get(0)) != everyPass(statement)) {
          runs.add(new ArrayList<>());
        }
        runs.get(runs.size() - 1).add(statement);
      }
      return runs;
    }
  }

  /** The statements of a loop with the bodies of pipelined blocks in their place. */
  static List<Statement> flatten(List<Statement> loop) {
    List<Statement> flat = new ArrayList<>();
    for (Statement statement : loop) {
      if (statement instanceof Pipelined block) {
        flat.addAll(block.body());
      } else {
        flat.add(statement);
      }
    }
    return flat;
  }

  /** The largest iteration offset of a loop's blocks (0: not pipelined). */
  static int maxSkew(List<Statement> loop) {
    int result = 0;
    for (Statement statement : loop) {
      if (statement instanceof Pipelined block) {
        result = Math.max(result, block.skew());
      }
    }
    return result;
  }

  /** Validation: adds a sink firing's input to its digest. */
  record Digest(int sink, int part, BufferRef buffer, long bytes) implements Statement {
  }
}
