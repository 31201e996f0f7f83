package org.cacheflow.codegen.build;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.cacheflow.codegen.model.Argument;
import org.cacheflow.codegen.model.BufferRef;
import org.cacheflow.codegen.model.Channel;
import org.cacheflow.codegen.model.CopyKind;
import org.cacheflow.codegen.model.Core;
import org.cacheflow.codegen.model.Statement;
import org.cacheflow.codegen.model.StaticBuffer;
import org.cacheflow.codegen.model.Transfer;
import org.cacheflow.model.ActorKind;
import org.cacheflow.model.Prototype;
import org.cacheflow.model.PrototypeDirection;
import org.cacheflow.model.PrototypeParameter;
import org.cacheflow.model.Refinement;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.analysis.FlatActor;
import org.cacheflow.analysis.FlatFifo;
import org.cacheflow.plan.strategy.PrestoreKind;

/**
 * Pass 8: each core's program. Per core, the vertices in plan order, with reserve/acquire (or waits) before a
 * root's first use on that core and commit/release (or posts, pre-stores, sends) after its last use; what each
 * vertex does: an actor call ({@link ActorCalls}), copies and zero-fills, a delay's init refinement, digests.
 */
final class CoreSchedules implements Pass {

  private BuildContext c;
  private ActorCalls calls;
  private Map<Integer, List<long[]>> readSlices; // readSlices(): made on first use

  @Override
  public void run(BuildContext context) {
    this.c = context;
    this.calls = new ActorCalls(context, this::ref);
    this.readSlices = null;
    for (int core = 0; core < c.plan.cores(); core++) {
      c.cores.add(core(core, c.sinkOfFifo, c.buffers));
    }
  }

  private Core core(int core, Map<Integer, Integer> sinkOfFifo, List<StaticBuffer> buffers) {
    int[] order = c.plan.order(core);
    // a root's first and last use on the core for one graph iteration: least and greatest (offset, position)
    Map<Integer, int[]> span = new HashMap<>();
    int[][][] uses = new int[order.length][][];
    for (int i = 0; i < order.length; i++) {
      uses[i] = c.uses(order[i]);
      long key = (long) c.skew[order[i]] * order.length + i;
      int at = i;
      for (int[] side : uses[i]) {
        for (int r : side) {
          int[] s = span.computeIfAbsent(r, k -> new int[] {at, at});
          if (key < (long) c.skew[order[s[0]]] * order.length + s[0]) {
            s[0] = i;
          }
          if (key > (long) c.skew[order[s[1]]] * order.length + s[1]) {
            s[1] = i;
          }
        }
      }
    }
    Map<Integer, Integer> publishAt = earlyPublications(core, uses);
    List<String> pointers = new ArrayList<>();
    Set<String> declared = new LinkedHashSet<>();
    List<Channel> homes = new ArrayList<>();
    List<Statement> init = new ArrayList<>();
    List<Statement> loop = new ArrayList<>();
    for (Channel channel : c.channelOfRoot.values()) {
      if (channel.receiver() == core && !channel.primed()) {
        homes.add(channel);
      }
    }
    homes.sort(java.util.Comparator.comparingInt(Channel::index));
    List<Statement> top = loop;
    for (int i = 0; i < order.length; i++) {
      int vertex = order[i];
      if (c.maxSkew > 0) {
        loop = new ArrayList<>(); // the vertex's block of the pipelined loop
      }
      // a root the vertex both reads and writes (an in-place merge) starts once
      for (int r : usedAt(uses[i], span, i, 0)) {
        before(r, core, loop, declared);
      }
      for (int ready : c.readyBefore.getOrDefault(vertex, List.of())) {
        loop.add(new Statement.SemaphoreWait(ready, c.readyWhy.get(ready)));
      }
      body(vertex, init, loop, sinkOfFifo);
      for (int ready : c.readyAfter.getOrDefault(vertex, List.of())) {
        loop.add(new Statement.SemaphorePost(ready, c.readyWhy.get(ready)));
      }
      Set<Integer> ends = usedAt(uses[i], span, i, 1);
      ends.removeAll(publishAt.keySet());
      for (Map.Entry<Integer, Integer> early : publishAt.entrySet()) {
        if (early.getValue() == i) {
          ends.add(early.getKey());
        }
      }
      for (int r : ends) {
        after(r, core, loop);
      }
      if (loop != top && !loop.isEmpty()) {
        // consecutive vertices of one offset share a block (and its guards)
        int last = top.size() - 1;
        if (last >= 0 && top.get(last) instanceof Statement.Pipelined previous && previous.skew() == c.skew[vertex]) {
          List<Statement> body = new ArrayList<>(previous.body());
          body.addAll(loop);
          top.set(last, new Statement.Pipelined(previous.skew(), List.copyOf(body)));
        } else {
          top.add(new Statement.Pipelined(c.skew[vertex], List.copyOf(loop)));
        }
      }
    }
    loop = top;
    pointers.addAll(declared);
    List<StaticBuffer> owned = buffers.stream().filter(b -> b.home() == core).toList();
    return new Core(core, pointers, owned, homes, init, loop);
  }

  /**
   * Copy-on-write buffers this core alone writes: the index in its order of its last write of each, where its part is
   * published (not after its last use). The reads after it on this core still precede its next iteration's writes
   * in this order, and no other core writes the memory; the views, which wait for the publication, can then be read
   * on this core between its last write and its last read (the plan counts on it, CowSources).
   */
  private Map<Integer, Integer> earlyPublications(int core, int[][][] uses) {
    Map<Integer, Integer> at = new HashMap<>();
    for (int i = 0; i < uses.length; i++) {
      for (int r : uses[i][1]) {
        if (r < c.cowOfRoot.length && c.cowOfRoot[r] >= 0 && c.writerMask[r] == 1L << core) {
          at.put(r, i);
        }
      }
    }
    return at;
  }

  /**
   * The roots a vertex uses whose first (end 0) or last (end 1) use on the core for one graph iteration is at index
   * i, once each.
   */
  private static Set<Integer> usedAt(int[][] uses, Map<Integer, int[]> span, int i, int end) {
    Set<Integer> found = new LinkedHashSet<>();
    for (int[] side : uses) {
      for (int r : side) {
        if (span.get(r)[end] == i) {
          found.add(r);
        }
      }
    }
    return found;
  }

  private String pointer(int r) {
    if (r < c.edges && c.cowOfView[r] >= 0) {
      return "p_" + c.cows.get(c.cowOfView[r]).name() + "_v" + c.viewIndex[r];
    }
    return "p_" + c.rootName(r);
  }

  private void before(int r, int core, List<Statement> loop, Set<String> declared) {
    switch (c.storage[r]) {
      case TRANSFER -> {
        Transfer transfer = c.transferOfRoot.get(r);
        loop.add(transfer.sender() == core ? new Statement.TransferSendWait(transfer)
            : new Statement.TransferReceiveWait(transfer));
      }
      case CHANNEL -> {
        declared.add(pointer(r));
        Channel channel = c.channelOfRoot.get(r);
        loop.add(channel.sender() == core ? new Statement.ChannelReserve(channel, pointer(r))
            : new Statement.ChannelAcquire(channel, pointer(r)));
      }
      case SEMAPHORE -> {
        if (c.readerCore[r] == core) {
          loop.add(new Statement.SemaphoreWait(c.semaphoreOfRoot.get(r), c.describeRoot(r)));
        }
      }
      case SHARED -> {
        // the slot of this iteration was used k iterations ago: every other core must be done with it
        for (Map.Entry<Integer, Integer> pair : c.slotSemaphores.getOrDefault(r, Map.of()).entrySet()) {
          if (pair.getKey() % 64 == core) {
            loop.add(new Statement.SemaphoreWait(pair.getValue(), "core " + pair.getKey() / 64
                + " done with the slot of "
                + c.rootName(r)));
          }
        }
      }
      case COW -> {
        declared.add(pointer(r));
        if (c.cowOfRoot.length > r && c.cowOfRoot[r] >= 0) {
          loop.add(new Statement.CowWriteBegin(c.cows.get(c.cowOfRoot[r]), cowPart(r, core), pointer(r)));
        } else {
          loop.add(new Statement.CowAcquire(c.cows.get(c.cowOfView[r]), c.viewIndex[r], pointer(r)));
        }
      }
      default -> {
      }
    }
  }

  /** A copy-on-write buffer's writer part on a core: the core's rank among the cores that use its memory. */
  private int cowPart(int r, int core) {
    return Long.bitCount((c.writerMask[r] | c.readerMask[r]) & ((1L << core) - 1));
  }

  private void after(int r, int core, List<Statement> loop) {
    boolean crossing = c.storage[r] == StorageKind.CHANNEL || c.storage[r] == StorageKind.SEMAPHORE;
    boolean sender = crossing && c.writerCore[r] == core;
    if (sender && r < c.edges) {
      if (c.skipWritten[r]) {
        loop.add(new Statement.Fence());
      }
      // only here, on the writer of data another core reads: on one core a pre-store only adds write-backs
      PrestoreKind prestore = c.plan.prestore(r, c.rootBytes(r));
      if (prestore != PrestoreKind.NONE) {
        loop.add(new Statement.Prestore(base(r, core, false), c.rootBytes(r), prestore));
      }
    }
    switch (c.storage[r]) {
      case TRANSFER -> {
        Transfer transfer = c.transferOfRoot.get(r);
        loop.add(transfer.sender() == core ? new Statement.TransferSend(transfer)
            : new Statement.TransferReceivePost(transfer));
      }
      case CHANNEL -> {
        Channel channel = c.channelOfRoot.get(r);
        loop.add(channel.sender() == core ? new Statement.ChannelCommit(channel)
            : new Statement.ChannelRelease(channel));
      }
      case SEMAPHORE -> {
        if (sender) {
          loop.add(new Statement.SemaphorePost(c.semaphoreOfRoot.get(r), c.describeRoot(r)));
        }
      }
      case SHARED -> {
        for (Map.Entry<Integer, Integer> pair : c.slotSemaphores.getOrDefault(r, Map.of()).entrySet()) {
          if (pair.getKey() / 64 == core) {
            loop.add(new Statement.SemaphorePost(pair.getValue(), "core " + core + " done with the slot of "
                + c.rootName(r)));
          }
        }
      }
      case COW -> {
        if (c.cowOfRoot[r] >= 0) {
          // this core's part is done this iteration (its last use, or its last write where it alone writes the
          // memory): once every part is published, the views may read it
          loop.add(new Statement.CowPublish(c.cows.get(c.cowOfRoot[r]), cowPart(r, core)));
        } else {
          loop.add(new Statement.CowRelease(c.cows.get(c.cowOfView[r]), c.viewIndex[r]));
        }
      }
      default -> {
      }
    }
  }

  /** Where a root's first byte is on a core this iteration; for a delay state, the copy read or written. */
  private BufferRef base(int r, int core, boolean delayWrite) {
    return switch (c.storage[r]) {
      case STATIC, SEMAPHORE -> BufferRef.of(c.rootName(r));
      case DOUBLE -> BufferRef.of(new BufferRef.DelayCopy(c.rootName(r), c.rootBytes(r), delayWrite));
      case PIPELINED -> BufferRef.of(new BufferRef.IterationSlot(c.rootName(r), c.pipelinedCopies.get(r),
          c.rootBytes(r)));
      case SHARED -> {
        int slots = c.groupSlots(r);
        yield slots == 1 ? BufferRef.of(c.rootName(r))
            : BufferRef.of(new BufferRef.IterationSlot(c.rootName(r), slots, c.rootBytes(r)));
      }
      case TRANSFER -> {
        // the sender writes its send slot, the receiver reads its receive slot in place: iteration i in slot i % k
        Transfer transfer = c.transferOfRoot.get(r);
        String slots = transfer.sender() == core ? transfer.sendBuffer() : transfer.receiveBuffer();
        yield BufferRef.of(new BufferRef.IterationSlot(slots, transfer.slots(), c.rootBytes(r)));
      }
      default -> BufferRef.of(pointer(r));
    };
  }

  private BufferRef ref(int edge, int core) {
    return base(c.root(edge), core, false).plus(c.rootOffset(edge));
  }

  private BufferRef stateRef(int r, int core, boolean write) {
    return base(r, core, write);
  }

  private void body(int vertex, List<Statement> init, List<Statement> loop, Map<Integer, Integer> sinkOfFifo) {
    int core = c.plan.coreOf(vertex);
    if (c.isSpecial(vertex)) {
      if (c.persistentOfEnd[vertex] >= 0 && c.delaySinks) {
        Integer sink = sinkOfFifo.get(c.srdag.vertexFifo(vertex));
        for (int e : c.inputs(vertex)) {
          if (sink != null) {
            loop.add(new Statement.Digest(sink, c.srdag.vertexFiring(vertex), ref(e, core), c.srdag.edgeBytes(e)));
          }
        }
      }
      Statement.ActorCall delayInit = delayInitCall(vertex, core);
      if (delayInit != null && c.persistentOfInit[vertex] >= 0) {
        // the state starts as zeros; the init refinement fills it once, before the first copy reads it
        loop.add(new Statement.FirstIteration(delayInit));
      }
      for (Move move : c.moves.get(vertex)) {
        BufferRef destination = move.destination() >= c.edges ? stateRef(move.destination(), core, true)
            : ref(move.destination(), core).plus(move.destinationOffset());
        String why = c.name(vertex);
        if (move.source() < 0 && delayInit != null) {
          loop.add(delayInit); // a delay that starts afresh: its init refinement runs at every start
          continue;
        }
        if (move.source() < 0) {
          loop.add(new Statement.Zero(destination, move.bytes(), why + (c.srdag.vertexKind(vertex) == ActorKind.INIT
              ? ": initial tokens" : ": bytes its source slice lacks")));
          continue;
        }
        BufferRef source = move.source() >= c.edges ? stateRef(move.source(), core, false)
            : ref(move.source(), core).plus(move.sourceOffset());
        loop.add(new Statement.Copy(destination, source, move.bytes(), copyKind(move), why));
      }
      return;
    }
    FlatActor actor = c.graph.actor(c.srdag.vertexActor(vertex));
    int[] in = c.inputs(vertex);
    if (!c.delaySinks) {
      for (int e : in) {
        Integer sink = sinkOfFifo.get(c.srdag.edgeFifo(e));
        if (sink != null) {
          loop.add(new Statement.Digest(sink, c.srdag.vertexFiring(vertex), ref(e, core), c.srdag.edgeBytes(e)));
        }
      }
    }
    loop.add(calls.call(vertex, actor, core));
    loop.addAll(sharedPrestores(vertex, core));
    if (!c.synthetic) {
      Refinement refinement = actor.origin().getRefinement();
      Prototype initPrototype = refinement == null ? null : refinement.getInitPrototype();
      if (initPrototype != null) {
        init.add(calls.realCall(vertex, actor, core, initPrototype));
      }
    }
  }

  /**
   * Pre-stores of what a firing wrote into a merge group used across cores ({@link StorageKind#SHARED}) that a
   * firing on another core reads: the parts of each output's bytes that such readers' slices cover, merged, each
   * pre-stored once right after the call, so before the flag that hands them over. A part this core reads itself
   * is left alone (a pre-store would only push out data the core is about to read). The pre-store is the plan's
   * ({@link ExecutionPlan#prestore}): the prestore-demote and prestore-clean presets, or a buffer the plan gave
   * that strategy.
   */
  private List<Statement> sharedPrestores(int vertex, int core) {
    List<Statement> prestores = new ArrayList<>();
    for (int e : c.outputs(vertex)) {
      int r = c.root(e);
      if (c.storage[r] != StorageKind.SHARED || c.pieces[e] != null) {
        continue;
      }
      long bytes = c.srdag.edgeBytes(e);
      PrestoreKind kind = c.plan.prestore(e, bytes);
      if (kind == PrestoreKind.NONE) {
        continue;
      }
      long from = c.rootOffset(e);
      long to = from + bytes;
      List<long[]> parts = new ArrayList<>();
      for (long[] slice : readSlices().getOrDefault(r, List.of())) {
        long a = Math.max(from, slice[0]);
        long b = Math.min(to, slice[1]);
        if (slice[2] != core && a < b) {
          parts.add(new long[] {a, b});
        }
      }
      for (long[] part : ByteRanges.union(parts)) {
        prestores.add(new Statement.Prestore(base(r, core, false).plus(part[0]), part[1] - part[0], kind));
      }
    }
    return prestores;
  }

  /**
   * Per merge group used across cores, the byte ranges actors read from it and the core each reader runs on
   * ({first byte, end, core}); made once, on the first pre-store that needs it.
   */
  private Map<Integer, List<long[]>> readSlices() {
    if (readSlices == null) {
      readSlices = new HashMap<>();
      for (int e = 0; e < c.edges; e++) {
        int r = c.root(e);
        int target = c.srdag.edgeTarget(e);
        if (c.storage[r] == StorageKind.SHARED && c.pieces[e] == null && !c.isSpecial(target)) {
          readSlices.computeIfAbsent(r, k -> new ArrayList<>()).add(
              new long[] {c.rootOffset(e), c.rootOffset(e) + c.srdag.edgeBytes(e), c.plan.coreOf(target)});
        }
      }
    }
    return readSlices;
  }

  /**
   * The call of the init refinement of the delay an inserted init vertex starts (null when it has none or
   * actors are synthetic): config parameters as constants, its one output the delay's tokens (the state
   * buffer of a persistent delay, else the vertex's only output edge).
   */
  private Statement.ActorCall delayInitCall(int vertex, int core) {
    if (c.synthetic || !c.srdag.isInserted(vertex) || c.srdag.vertexKind(vertex) != ActorKind.INIT) {
      return null;
    }
    FlatFifo fifo = c.graph.fifo(c.srdag.vertexFifo(vertex));
    if (fifo.origin() == null || fifo.origin().getDelay() == null || fifo.origin().getDelay().getActor() == null) {
      return null;
    }
    Refinement refinement = fifo.origin().getDelay().getActor().getRefinement();
    if (refinement == null) {
      return null;
    }
    Prototype prototype = refinement.getLoopPrototype() != null ? refinement.getLoopPrototype()
        : refinement.getInitPrototype();
    if (prototype == null) {
      return null;
    }
    String delayName = "delay of " + c.label(fifo);
    BufferRef tokens;
    long bytes;
    int state = c.persistentOfInit[vertex];
    if (state >= 0) {
      tokens = stateRef(c.edges + state, core, false);
      bytes = c.rootBytes(c.edges + state);
    } else {
      int[] out = c.outputs(vertex);
      if (out.length != 1) {
        throw new InputException(BuildContext.location(prototype), "init refinement '" + prototype.getName()
            + "' of the " + delayName + ": its tokens go to " + out.length + " firings; only a delay read by one firing per"
            + " start can be initialised by a refinement");
      }
      tokens = ref(out[0], core);
      bytes = c.srdag.edgeBytes(out[0]);
    }
    if (refinement.getHeaderPath() != null && !refinement.getHeaderPath().isBlank()) {
      String header = refinement.getHeaderPath().replace('\\', '/');
      c.headers.add(header.substring(header.lastIndexOf('/') + 1));
    }
    List<Argument> arguments = new ArrayList<>();
    int outputs = 0;
    for (PrototypeParameter parameter : prototype.getParameters()) {
      SourceLocation at = BuildContext.location(parameter);
      if (parameter.isConfig()) {
        Long value = fifo.delayConfig().get(parameter.getName());
        if (value == null) {
          throw new InputException(at, "configuration parameter '" + parameter.getName() + "' of init refinement '"
              + prototype.getName() + "' (" + delayName + ") has no value: the delay has no config input port of"
              + " that name");
        }
        arguments.add(new Argument.Constant(parameter.getName(), parameter.getType(), value));
        continue;
      }
      if (parameter.getDirection() != PrototypeDirection.OUT || ++outputs > 1) {
        throw new InputException(at, "parameter '" + parameter.getName() + "' of init refinement '"
            + prototype.getName() + "' (" + delayName + "): a delay's init refinement takes config parameters and"
            + " exactly one output, the initial tokens");
      }
      arguments.add(new Argument.Data(parameter.getName(), parameter.getType(), tokens, bytes, false));
    }
    if (outputs == 0) {
      throw new InputException(BuildContext.location(prototype), "init refinement '" + prototype.getName() + "' ("
          + delayName
          + ") has no output parameter for the initial tokens");
    }
    return new Statement.ActorCall(c.name(vertex), delayName, prototype.getName(), arguments,
        c.srdag.vertexFiring(vertex));
  }

  private CopyKind copyKind(Move move) {
    if (move.destination() >= c.edges) {
      return CopyKind.MEMCPY;
    }
    int r = c.root(move.destination());
    boolean crossing = c.storage[r] == StorageKind.CHANNEL || c.storage[r] == StorageKind.SEMAPHORE;
    return c.plan.copyKind(move.destination(), move.bytes(), crossing);
  }
}
