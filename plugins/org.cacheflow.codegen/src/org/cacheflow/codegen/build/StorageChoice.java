package org.cacheflow.codegen.build;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.cacheflow.codegen.model.CopyKind;
import org.cacheflow.model.diagnostics.InputException;

/**
 * Pass 5: each root's storage. A static array when one core uses it; else a channel (under the baseline, a
 * static array signalled with a semaphore); a merge group shared by several cores (k slots, semaphores per
 * cross-core edge and per pair of cores for slot reuse); a copy-on-write buffer; the double-buffered state of a
 * persistent delay; an inter-node transfer across nodes, or the plan is refused with the reason.
 */
final class StorageChoice implements Pass {

  private BuildContext c;

  @Override
  public void run(BuildContext context) {
    this.c = context;
    long[] writers = c.writerMask;
    long[] readers = c.readerMask;
    for (int v = 0; v < c.srdag.vertexCount(); v++) {
      long core = 1L << c.plan.coreOf(v);
      int[][] use = c.uses(v);
      for (int r : use[0]) {
        readers[r] |= core;
      }
      for (int r : use[1]) {
        writers[r] |= core;
      }
      for (Move move : c.moves.get(v)) {
        if (move.source() >= 0 && move.destination() < c.edges && c.plan.copyKind(move.destination(), move.bytes(),
            true) == CopyKind.SKIP) {
          c.skipWritten[c.root(move.destination())] = true;
        }
      }
    }
    // the edges of every merge group, its root's included
    Map<Integer, List<Integer>> members = new HashMap<>();
    for (int e = 0; e < c.edges; e++) {
      if (c.host[e] >= 0 || c.groupBytes[e] > 0) {
        members.computeIfAbsent(c.root(e), k -> new ArrayList<>()).add(e);
      }
    }
    for (int r = 0; r < c.roots; r++) {
      c.writerCore[r] = Long.numberOfTrailingZeros(writers[r]);
      c.readerCore[r] = Long.numberOfTrailingZeros(readers[r]);
      long all = writers[r] | readers[r];
      if (Long.bitCount(c.nodesOf(all)) > 1) {
        c.storage[r] = crossingStorage(r, members);
        continue;
      }
      if (r >= c.edges) {
        c.storage[r] = c.strategy.barrier() || Long.bitCount(all) <= 1 ? StorageKind.DOUBLE : StorageKind.CHANNEL;
      } else if (r < c.edges && c.host[r] >= 0) {
        c.storage[r] = null; // lives in its root
      } else if (c.cowOfRoot[r] >= 0 || c.cowOfView[r] >= 0) {
        c.storage[r] = StorageKind.COW;
        if (c.cowOfRoot[r] >= 0 && Long.bitCount(all) > 1) {
          // used in place on several cores: each core is a writer part of the buffer, and what one core reads in
          // place that another wrote is signalled as in a shared merge group (the parts' publications keep a slot's
          // bytes until every core is done with them)
          c.cows.set(c.cowOfRoot[r], c.cows.get(c.cowOfRoot[r]).withWriters(Long.bitCount(all)));
          readySemaphores(r, members);
        }
      } else if (Long.bitCount(all) <= 1) {
        c.storage[r] = StorageKind.STATIC;
      } else if (c.groupBytes[r] > 0) {
        c.storage[r] = StorageKind.SHARED;
        sharedGroup(r, all, members);
      } else {
        if (Long.bitCount(writers[r]) != 1 || Long.bitCount(readers[r]) != 1) {
          throw new IllegalStateException("buffer " + c.describe(r) + " is written on cores " + Long.toBinaryString(
              writers[r]) + " and read on cores " + Long.toBinaryString(readers[r]));
        }
        c.storage[r] = c.strategy.barrier() ? StorageKind.SEMAPHORE : StorageKind.CHANNEL;
      }
    }
  }

  /**
   * The storage of a root used on several nodes: an inter-node transfer when it is a buffer of its own with one
   * writer core and one reader core; anything else would need shared memory across nodes, and the plan is
   * refused with what it asks for (the plan must give buffers crossing nodes the SEND strategy and keep merge
   * groups, copy-on-write views and delay ends on one node).
   */
  private StorageKind crossingStorage(int r, Map<Integer, List<Integer>> members) {
    String where = " (written on cores " + BuildContext.coreList(c.writerMask[r]) + ", read on cores "
        + BuildContext.coreList(c.readerMask[r])
        + ", nodes " + nodeList(c.writerMask[r] | c.readerMask[r]) + ")";
    String cause;
    if (r >= c.edges) {
      cause = "the " + c.describeRoot(r) + " crosses nodes" + where + ": a delay's end and its init must run on one"
          + " node";
    } else if (c.cowOfRoot[r] >= 0 || c.cowOfView[r] >= 0) {
      cause = "buffer " + c.describeRoot(r) + " is a copy-on-write " + (c.cowOfRoot[r] >= 0 ? "source" : "view")
          + " used on several nodes" + where + ": copy-on-write views need shared memory";
    } else if (c.groupBytes[r] > 0) {
      List<String> edgesOfGroup = new ArrayList<>();
      for (int e : members.getOrDefault(r, List.of())) {
        edgesOfGroup.add(c.describe(e));
      }
      cause = "the merge group of " + c.describe(r) + " is used on several nodes" + where
          + ": aliased buffers need shared memory (the group: " + String.join("; ", edgesOfGroup) + ")";
    } else if (c.plan.channel(r)) {
      cause = "the plan gives buffer " + c.describeRoot(r) + ", which crosses nodes" + where + ", a shared-memory"
          + " channel (CHANNEL): buffers crossing nodes are sent (SEND)";
    } else if (Long.bitCount(c.writerMask[r]) != 1 || Long.bitCount(c.readerMask[r]) != 1) {
      cause = "buffer " + c.describeRoot(r) + " crosses nodes but is not written on one core and read on one other"
          + where;
    } else if (c.rootsOfInitCalls().contains(r)) {
      cause = "buffer " + c.describeRoot(r) + " crosses nodes" + where + " but an actor's init prototype takes it: it"
          + " exists before the first iteration's message";
    } else if (c.rootBytes(r) > Integer.MAX_VALUE) {
      cause = "buffer " + c.describeRoot(r) + " crosses nodes but its " + c.rootBytes(r)
          + " bytes exceed MPI's count type (int, at most " + Integer.MAX_VALUE + " bytes per message)";
    } else {
      return StorageKind.TRANSFER;
    }
    throw new InputException(null, "cannot generate for " + c.plan.nodes() + " nodes: " + cause);
  }

  private String nodeList(long cores) {
    long nodes = c.nodesOf(cores);
    StringBuilder text = new StringBuilder();
    for (int n = 0; n < 64; n++) {
      if ((nodes >>> n & 1) != 0) {
        text.append(text.length() == 0 ? "" : ", ").append(n);
      }
    }
    return text.toString();
  }

  /**
   * Semaphores of a merge group several cores use: one per edge of the group whose producer and consumer run
   * on different cores (the consumer waits until the data is there), and, when cores pipeline iterations
   * through k slots, one per ordered pair of user cores, starting at k: a core's first use of the group in
   * iteration i waits until every other core has finished iteration i - k with it, whose slot it reuses.
   *
   * <p>
   * k copies (iteration i in copy i % k, {@link BufferLayout}, {@link CoreSchedules}) are safe because a group's
   * bytes carry nothing from one iteration to the next: a delay's tokens live in the delay's own storage (roots
   * from {@code c.edges} on: {@link StorageKind#DOUBLE} or a primed channel) and are copied in and out of the
   * group's edges by the delay's init and end vertices within the iteration; the plan fuses a state chain's groups
   * (ChainFusion) only when the source group's bytes are written and read within one iteration and no delay
   * token is among them. The baseline (a barrier after every iteration) keeps PREESM's one copy.
   */
  private void sharedGroup(int r, long users, Map<Integer, List<Integer>> members) {
    readySemaphores(r, members);
    if (c.strategy.barrier()) {
      return;
    }
    Map<Integer, Integer> pairs = new java.util.TreeMap<>();
    for (int from = 0; from < 64; from++) {
      for (int to = 0; to < 64; to++) {
        if (from != to && (users >>> from & 1) != 0 && (users >>> to & 1) != 0) {
          pairs.put(from * 64 + to, c.newSemaphore(c.groupSlots(r)));
        }
      }
    }
    c.slotSemaphores.put(r, pairs);
  }

  /** A semaphore per writer and reader on different cores of the data of a group's edges read in place. */
  private void readySemaphores(int r, Map<Integer, List<Integer>> members) {
    Map<Long, Integer> readyOfPair = new HashMap<>();
    Set<Integer> edges = new LinkedHashSet<>(members.getOrDefault(r, List.of()));
    if (r < c.edges) {
      edges.add(r); // a buffer of its own (not merged) is its only edge
    }
    for (int e : edges) {
      int target = c.srdag.edgeTarget(e);
      if (c.root(e) != r || !c.isDataUser(target) || passesThrough(target)) {
        continue; // a vertex that does nothing at run time waits for nothing
      }
      for (int origin : writers(e)) {
        if (c.isDataUser(origin) && c.plan.coreOf(origin) != c.plan.coreOf(target)) {
          // one semaphore per writer and reader, however many edges (or pass-through vertices) lie between
          long key = (long) origin * c.srdag.vertexCount() + target;
          if (!readyOfPair.containsKey(key)) {
            int semaphore = c.newSemaphore(0);
            readyOfPair.put(key, semaphore);
            c.readyAfter.computeIfAbsent(origin, k -> new ArrayList<>()).add(semaphore);
            c.readyBefore.computeIfAbsent(target, k -> new ArrayList<>()).add(semaphore);
            c.readyWhy.put(semaphore, "data of " + c.describe(e) + (origin == c.srdag.edgeSource(e) ? ""
                : ", written by " + c.name(origin)));
          }
        }
      }
    }
  }

  /**
   * Whether a vertex does nothing at run time: a special vertex whose every copy vanished (its outputs are its
   * inputs' bytes), with no delay state, digest or copy-on-write publication.
   */
  private boolean passesThrough(int vertex) {
    return c.isSpecial(vertex) && c.moves.get(vertex).isEmpty() && c.persistentOfInit[vertex] < 0
        && c.persistentOfEnd[vertex] < 0 && !touchesCopyOnWrite(vertex);
  }

  /** Whether a vertex reads or writes copy-on-write memory (its publication or a view's release may be its). */
  private boolean touchesCopyOnWrite(int vertex) {
    for (int[] side : List.of(c.srdag.incomingEdges(vertex), c.srdag.outgoingEdges(vertex))) {
      for (int e : side) {
        int r = c.root(e);
        if (c.cowOfRoot[r] >= 0 || (r < c.cowOfView.length && c.cowOfView[r] >= 0) || c.cowOfView[e] >= 0) {
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
    java.util.ArrayDeque<Integer> work = new java.util.ArrayDeque<>(List.of(edge));
    Set<Integer> seen = new java.util.HashSet<>();
    while (!work.isEmpty()) {
      int e = work.pop();
      if (!seen.add(e)) {
        continue;
      }
      int source = c.srdag.edgeSource(e);
      if (passesThrough(source) && c.srdag.incomingEdges(source).length > 0) {
        for (int in : c.srdag.incomingEdges(source)) {
          work.push(in);
        }
      } else {
        found.add(source);
      }
    }
    return found;
  }
}
