package org.cacheflow.codegen.build;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.cacheflow.analysis.FlatActor;
import org.cacheflow.codegen.model.BufferRef;
import org.cacheflow.codegen.model.CopyKind;
import org.cacheflow.codegen.model.Statement;
import org.cacheflow.model.ActorKind;
import org.cacheflow.model.Prototype;
import org.cacheflow.model.Refinement;
import org.cacheflow.plan.strategy.PrestoreKind;

/**
 * What each vertex does when it fires: an actor call ({@link ActorCalls}) with the digests of what it reads and
 * the pre-stores of what it hands to other cores; a special vertex's copies and zero-fills, a delay's init
 * refinement, the digests of a delay's state.
 */
final class Firings {

  /** Bytes an actor on a core reads from a merge group used across cores. */
  private record ReadSlice(ByteRange bytes, int core) {
  }

  private final BuildInput in;
  private final Roots roots;
  private final Storage storage;
  private final RootUses uses;
  private final Sinks.Digests digests;
  private final ActorCalls calls;
  private final Addresses addresses;
  /** Per merge group used across cores, the slices actors read from it. */
  private final Map<BufferId, List<ReadSlice>> readSlices;

  Firings(BuildInput in, Roots roots, Storage storage, RootUses uses, Sinks.Digests digests, ActorCalls calls,
      Addresses addresses) {
    this.in = in;
    this.roots = roots;
    this.storage = storage;
    this.uses = uses;
    this.digests = digests;
    this.calls = calls;
    this.addresses = addresses;
    this.readSlices = readSlices();
  }

  /** Adds what a vertex does to its core's loop, and its actor's init call to the core's start-up. */
  void fire(int vertex, List<Statement> init, List<Statement> loop) {
    int core = in.plan.coreOf(vertex);
    if (in.isSpecial(vertex)) {
      special(vertex, core, loop);
    } else {
      actor(vertex, core, init, loop);
    }
  }

  private void special(int vertex, int core, List<Statement> loop) {
    if (in.stateEndedBy(vertex) != null && digests.delaySinks()) {
      Integer sink = digests.sinkOf(in.srdag.vertexFifo(vertex));
      for (int e : in.inputs(vertex)) {
        digest(sink, vertex, e, core, loop);
      }
    }
    Statement.ActorCall delayInit = calls.delayInitCall(vertex, core);
    if (delayInit != null && in.stateStartedBy(vertex) != null) {
      // the state starts as zeros; the init refinement fills it once, before the first copy reads it
      loop.add(new Statement.FirstIteration(delayInit));
    }
    for (Move move : uses.moves(vertex)) {
      BufferRef destination = addresses.of(move.destination(), move.destinationOffset(), core, true);
      String why = in.name(vertex);
      if (move.fillsZeros() && delayInit != null) {
        loop.add(delayInit); // a delay that starts afresh: its init refinement runs at every start
      } else if (move.fillsZeros()) {
        loop.add(new Statement.Zero(destination, move.bytes(), why + (in.srdag.vertexKind(vertex) == ActorKind.INIT
            ? ": initial tokens" : ": bytes its source slice lacks")));
      } else {
        BufferRef source = addresses.of(move.source(), move.sourceOffset(), core, false);
        loop.add(new Statement.Copy(destination, source, move.bytes(), copyKind(move), why));
      }
    }
  }

  private void actor(int vertex, int core, List<Statement> init, List<Statement> loop) {
    FlatActor actor = in.graph.actor(in.srdag.vertexActor(vertex));
    if (!digests.delaySinks()) {
      for (int e : in.inputs(vertex)) {
        digest(digests.sinkOf(in.srdag.edgeFifo(e)), vertex, e, core, loop);
      }
    }
    loop.add(calls.call(vertex, actor, core));
    loop.addAll(sharedPrestores(vertex, core));
    if (!in.synthetic) {
      Refinement refinement = actor.origin().getRefinement();
      Prototype initPrototype = refinement == null ? null : refinement.getInitPrototype();
      if (initPrototype != null) {
        init.add(calls.realCall(vertex, actor, core, initPrototype));
      }
    }
  }

  /** Adds the digest of what a firing reads through an edge to its sink's part (none when no sink digests it). */
  private void digest(Integer sink, int vertex, int edge, int core, List<Statement> loop) {
    if (sink != null) {
      loop.add(new Statement.Digest(sink, in.srdag.vertexFiring(vertex), addresses.of(edge, core),
          in.srdag.edgeBytes(edge)));
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
    for (int e : in.outputs(vertex)) {
      BufferId r = roots.root(e);
      if (storage.kind(r) != StorageKind.SHARED || roots.isDivided(e)) {
        continue;
      }
      long bytes = in.srdag.edgeBytes(e);
      PrestoreKind kind = in.plan.prestore(e, bytes);
      if (kind == PrestoreKind.NONE) {
        continue;
      }
      long from = roots.offset(e);
      long to = from + bytes;
      List<ByteRange> parts = new ArrayList<>();
      for (ReadSlice slice : readSlices.getOrDefault(r, List.of())) {
        long a = Math.max(from, slice.bytes().first());
        long b = Math.min(to, slice.bytes().end());
        if (slice.core() != core && a < b) {
          parts.add(new ByteRange(a, b));
        }
      }
      for (ByteRange part : ByteRanges.union(parts)) {
        prestores.add(new Statement.Prestore(addresses.base(r, core, false).plus(part.first()), part.bytes(), kind));
      }
    }
    return prestores;
  }

  /** Per merge group used across cores, the byte ranges actors read from it and the core each reader runs on. */
  private Map<BufferId, List<ReadSlice>> readSlices() {
    Map<BufferId, List<ReadSlice>> slices = new HashMap<>();
    for (int e = 0; e < in.edges; e++) {
      BufferId r = roots.root(e);
      int target = in.srdag.edgeTarget(e);
      if (storage.kind(r) == StorageKind.SHARED && !roots.isDivided(e) && !in.isSpecial(target)) {
        slices.computeIfAbsent(r, k -> new ArrayList<>()).add(new ReadSlice(new ByteRange(roots.offset(e),
            roots.offset(e) + in.srdag.edgeBytes(e)), in.plan.coreOf(target)));
      }
    }
    return slices;
  }

  private CopyKind copyKind(Move move) {
    if (move.destination().delayState()) {
      return CopyKind.MEMCPY;
    }
    return in.plan.copyKind(move.destination().edge(), move.bytes(), storage.handedOver(roots.root(move
        .destination())));
  }
}
