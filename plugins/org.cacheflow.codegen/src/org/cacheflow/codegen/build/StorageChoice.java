package org.cacheflow.codegen.build;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.cacheflow.codegen.model.CopyKind;
import org.cacheflow.codegen.model.CowBuffer;
import org.cacheflow.model.diagnostics.InputException;

/**
 * Each root's storage. A static array when one core uses it; else a channel (under the baseline, a static array
 * signalled with a semaphore); a merge group shared by several cores (k slots, semaphores per cross-core edge and
 * per pair of cores for slot reuse); a copy-on-write buffer; the double-buffered state of a persistent delay; an
 * inter-node transfer across nodes, or the plan is refused with the reason.
 */
final class StorageChoice {

  /** What the choice decided: the storage, the semaphores it needs, the copy-on-write buffers' writer counts. */
  record Choice(Storage storage, Signals signals, CowViews cow) {
  }

  private final BuildInput in;
  private final Roots roots;
  private final CowViews cow;
  private final RootUses uses;
  private final Set<BufferId> initRoots;
  /** Per merge group's root, the group's edges, the root's included. */
  private final Map<BufferId, List<Integer>> members = new HashMap<>();
  private final List<CowBuffer> cows;
  private final List<Integer> semaphoreStarts = new ArrayList<>();
  private final Map<Integer, List<Signals.Ready>> waitsBefore = new HashMap<>();
  private final Map<Integer, List<Signals.Ready>> postsAfter = new HashMap<>();
  private final Map<BufferId, Map<CorePair, Integer>> slotSemaphores = new HashMap<>();

  private StorageChoice(BuildInput in, Roots roots, CowViews cow, RootUses uses, Set<BufferId> initRoots) {
    this.in = in;
    this.roots = roots;
    this.cow = cow;
    this.uses = uses;
    this.initRoots = initRoots;
    this.cows = new ArrayList<>(cow.cows());
  }

  static Choice choose(BuildInput in, Roots roots, CowViews cow, RootUses uses, Set<BufferId> initRoots) {
    return new StorageChoice(in, roots, cow, uses, initRoots).choose();
  }

  private Choice choose() {
    Storage users = usersOfRoots();
    for (int e = 0; e < in.edges; e++) {
      if (roots.isGrouped(e)) {
        members.computeIfAbsent(roots.root(e), k -> new ArrayList<>()).add(e);
      }
    }
    StorageKind[] kinds = new StorageKind[in.buffers()];
    for (BufferId r : roots.everyBuffer()) {
      kinds[r.index()] = kindOf(r, users);
    }
    Storage storage = new Storage(kinds, users.writers(), users.readers(), users.skipWritten(), Map.of());
    return new Choice(storage, new Signals(List.copyOf(semaphoreStarts), waitsBefore, postsAfter, slotSemaphores),
        cow.withCows(cows));
  }

  /** The cores that write and read each root, and the roots a skipping copy writes; no kinds yet (all null). */
  private Storage usersOfRoots() {
    long[] writers = new long[in.buffers()];
    long[] readers = new long[in.buffers()];
    boolean[] skipWritten = new boolean[in.buffers()];
    for (int v = 0; v < in.srdag.vertexCount(); v++) {
      long core = 1L << in.plan.coreOf(v);
      RootUses.Uses use = uses.of(v);
      use.reads().forEach(r -> readers[r.index()] |= core);
      use.writes().forEach(r -> writers[r.index()] |= core);
      for (Move move : uses.moves(v)) {
        if (!move.fillsZeros() && !move.destination().delayState() && in.plan.copyKind(move.destination().edge(),
            move.bytes(), true) == CopyKind.SKIP) {
          skipWritten[roots.root(move.destination()).index()] = true;
        }
      }
    }
    return new Storage(new StorageKind[in.buffers()], writers, readers, skipWritten, Map.of());
  }

  private StorageKind kindOf(BufferId r, Storage storage) {
    long all = storage.users(r);
    if (Long.bitCount(in.nodesOf(all)) > 1) {
      return crossingStorage(r, storage);
    }
    if (r.delayState()) {
      return in.strategy.barrier() || Long.bitCount(all) <= 1 ? StorageKind.DOUBLE : StorageKind.CHANNEL;
    }
    if (roots.isHosted(r.edge())) {
      return null; // lives in its root
    }
    if (cow.touches(r)) {
      if (cow.isSource(r) && Long.bitCount(all) > 1) {
        // used in place on several cores: each core is a writer part of the buffer, and what one core reads in
        // place that another wrote is signalled as in a shared merge group (the parts' publications keep a slot's
        // bytes until every core is done with them)
        CowBuffer buffer = cow.cowOf(r);
        cows.set(buffer.index(), buffer.withWriters(Long.bitCount(all)));
        readySemaphores(r);
      }
      return StorageKind.COW;
    }
    if (Long.bitCount(all) <= 1) {
      return StorageKind.STATIC;
    }
    if (roots.hostsGroup(r)) {
      sharedGroup(r, all);
      return StorageKind.SHARED;
    }
    if (Long.bitCount(storage.writers(r)) != 1 || Long.bitCount(storage.readers(r)) != 1) {
      throw new IllegalStateException("buffer " + in.describe(r.edge()) + " is written on cores " + Long.toBinaryString(
          storage.writers(r)) + " and read on cores " + Long.toBinaryString(storage.readers(r)));
    }
    return in.strategy.barrier() ? StorageKind.SEMAPHORE : StorageKind.CHANNEL;
  }

  /**
   * The storage of a root used on several nodes: an inter-node transfer when it is a buffer of its own with one
   * writer core and one reader core; anything else would need shared memory across nodes, and the plan is
   * refused with what it asks for (the plan must give buffers crossing nodes the SEND strategy and keep merge
   * groups, copy-on-write views and delay ends on one node).
   */
  private StorageKind crossingStorage(BufferId r, Storage storage) {
    String cause = whyNotSent(r, storage, " (written on cores " + Cores.list(storage.writers(r)) + ", read on cores "
        + Cores.list(storage.readers(r)) + ", nodes " + Cores.list(in.nodesOf(storage.users(r))) + ")");
    if (cause == null) {
      return StorageKind.TRANSFER;
    }
    throw new InputException(null, "cannot generate for " + in.plan.nodes() + " nodes: " + cause);
  }

  /** Why a root used on several nodes cannot be an inter-node transfer; null when it can. */
  private String whyNotSent(BufferId r, Storage storage, String where) {
    if (r.delayState()) {
      return "the " + roots.describe(r) + " crosses nodes" + where + ": a delay's end and its init must run on one"
          + " node";
    } else if (cow.touches(r)) {
      return "buffer " + roots.describe(r) + " is a copy-on-write " + (cow.isSource(r) ? "source" : "view")
          + " used on several nodes" + where + ": copy-on-write views need shared memory";
    } else if (roots.hostsGroup(r)) {
      List<String> edgesOfGroup = new ArrayList<>();
      for (int e : members.getOrDefault(r, List.of())) {
        edgesOfGroup.add(in.describe(e));
      }
      return "the merge group of " + in.describe(r.edge()) + " is used on several nodes" + where
          + ": aliased buffers need shared memory (the group: " + String.join("; ", edgesOfGroup) + ")";
    } else if (in.plan.channel(r.edge())) {
      return "the plan gives buffer " + roots.describe(r) + ", which crosses nodes" + where + ", a shared-memory"
          + " channel (CHANNEL): buffers crossing nodes are sent (SEND)";
    } else if (Long.bitCount(storage.writers(r)) != 1 || Long.bitCount(storage.readers(r)) != 1) {
      return "buffer " + roots.describe(r) + " crosses nodes but is not written on one core and read on one other"
          + where;
    } else if (initRoots.contains(r)) {
      return "buffer " + roots.describe(r) + " crosses nodes" + where + " but an actor's init prototype takes it: it"
          + " exists before the first iteration's message";
    } else if (roots.bytes(r) > Integer.MAX_VALUE) {
      return "buffer " + roots.describe(r) + " crosses nodes but its " + roots.bytes(r)
          + " bytes exceed MPI's count type (int, at most " + Integer.MAX_VALUE + " bytes per message)";
    }
    return null;
  }

  private int newSemaphore(int start) {
    semaphoreStarts.add(start);
    return semaphoreStarts.size() - 1;
  }

  /**
   * Semaphores of a merge group several cores use: one per edge of the group whose producer and consumer run
   * on different cores (the consumer waits until the data is there), and, when cores pipeline iterations
   * through k slots, one per ordered pair of user cores, starting at k: a core's first use of the group in
   * iteration i waits until every other core has finished iteration i - k with it, whose slot it reuses.
   *
   * <p>
   * k copies (iteration i in copy i % k, {@link BufferLayout}, {@link CoreSchedules}) are safe because a group's
   * bytes carry nothing from one iteration to the next: a delay's tokens live in the delay's own storage (a
   * delay state: {@link StorageKind#DOUBLE} or a primed channel) and are copied in and out of the group's edges
   * by the delay's init and end vertices within the iteration; the plan fuses a state chain's groups
   * (ChainFusion) only when the source group's bytes are written and read within one iteration and no delay
   * token is among them. The baseline (a barrier after every iteration) keeps PREESM's one copy.
   */
  private void sharedGroup(BufferId r, long users) {
    readySemaphores(r);
    if (in.strategy.barrier()) {
      return;
    }
    Map<CorePair, Integer> pairs = new TreeMap<>();
    for (int from : Cores.members(users)) {
      for (int to : Cores.members(users)) {
        if (from != to) {
          pairs.put(new CorePair(from, to), newSemaphore(in.plan.groupSlots(r.edge())));
        }
      }
    }
    slotSemaphores.put(r, pairs);
  }

  /** A writing vertex and a vertex that reads what it wrote. */
  private record Handoff(int writer, int reader) {
  }

  /** A semaphore per writer and reader on different cores of the data of a group's edges read in place. */
  private void readySemaphores(BufferId r) {
    Set<Handoff> signalled = new HashSet<>();
    Set<Integer> edges = new LinkedHashSet<>(members.getOrDefault(r, List.of()));
    edges.add(r.edge()); // a buffer of its own (not merged) is its only edge
    for (int e : edges) {
      int target = in.srdag.edgeTarget(e);
      if (!roots.root(e).equals(r) || !in.isDataUser(target) || passesThrough(target)) {
        continue; // a vertex that does nothing at run time waits for nothing
      }
      for (int origin : writers(e)) {
        // one semaphore per writer and reader, however many edges (or pass-through vertices) lie between
        if (in.isDataUser(origin) && in.plan.coreOf(origin) != in.plan.coreOf(target)
            && signalled.add(new Handoff(origin, target))) {
          Signals.Ready ready = new Signals.Ready(newSemaphore(0), "data of " + in.describe(e)
              + (origin == in.srdag.edgeSource(e) ? "" : ", written by " + in.name(origin)));
          postsAfter.computeIfAbsent(origin, k -> new ArrayList<>()).add(ready);
          waitsBefore.computeIfAbsent(target, k -> new ArrayList<>()).add(ready);
        }
      }
    }
  }

  /**
   * Whether a vertex does nothing at run time: a special vertex whose every copy vanished (its outputs are its
   * inputs' bytes), with no delay state, digest or copy-on-write publication.
   */
  private boolean passesThrough(int vertex) {
    return in.isSpecial(vertex) && uses.moves(vertex).isEmpty() && in.stateStartedBy(vertex) == null
        && in.stateEndedBy(vertex) == null && !touchesCopyOnWrite(vertex);
  }

  /** Whether a vertex reads or writes copy-on-write memory (its publication or a view's release may be its). */
  private boolean touchesCopyOnWrite(int vertex) {
    for (int[] side : List.of(in.srdag.incomingEdges(vertex), in.srdag.outgoingEdges(vertex))) {
      for (int e : side) {
        if (cow.touches(roots.root(e)) || cow.isView(e)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * The vertices that wrote the bytes of an edge: its source, or, through a source that passes them through
   * unchanged, that vertex's writers. Waiting for the pass-through vertex itself would add a hand-off between
   * cores for nothing -- or two, when it runs on the other core than both the writer and the reader.
   */
  private Set<Integer> writers(int edge) {
    Set<Integer> found = new LinkedHashSet<>();
    ArrayDeque<Integer> work = new ArrayDeque<>(List.of(edge));
    Set<Integer> seen = new HashSet<>();
    while (!work.isEmpty()) {
      int e = work.pop();
      if (!seen.add(e)) {
        continue;
      }
      int source = in.srdag.edgeSource(e);
      if (passesThrough(source) && in.srdag.incomingEdges(source).length > 0) {
        for (int input : in.srdag.incomingEdges(source)) {
          work.push(input);
        }
      } else {
        found.add(source);
      }
    }
    return found;
  }
}
