package org.cacheflow.plan.strategy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.cacheflow.model.ActorKind;
import org.cacheflow.analysis.FlatActor;
import org.cacheflow.analysis.FlatPort;
import org.cacheflow.plan.classify.BufferOrigin;
import org.cacheflow.plan.classify.Classification;
import org.cacheflow.plan.classify.Classifier;
import org.cacheflow.plan.classify.MemoryFacts;
import org.cacheflow.plan.mapping.Platform;
import org.cacheflow.plan.schedule.Schedule;
import org.cacheflow.plan.schedule.Topology;
import org.cacheflow.analysis.srdag.Srdag;

/**
 * Where the data of each copy lies, and which memory can be shared through copy-on-write views.
 *
 * <p>
 * A copy (a fork, broadcast or round buffer output) repeats a range of its special vertex's input; through the
 * memory scripts' merge layout that range is a range of one buffer's memory, its <i>source</i> (the merge
 * group's root, or the input itself when unmerged). A view of that range replaces the copy. The source is
 * <i>shareable</i> when its memory can be published to the views once per iteration: every core that uses it in
 * place (writes a buffer of its group, reads one in place, or copies from it what a view cannot replace) is a
 * writer part, which publishes its part after its last use there, and a view is acquired once every part is
 * published. A merged output whose consumer may write it, or that runs on a core where nothing writes the memory,
 * becomes a view itself ("out0" of a broadcast). Refused: a view consumer before its core's last use (it would wait
 * for itself), a part's last use that depends on a view's consumer (the two would wait for each other), a buffer of
 * the group its consumer writes in place, a delay's initial tokens, use on another node.
 */
final class CowSources {

  private final Srdag srdag;
  private final Schedule schedule;
  private final Classification classes;
  private final Topology topology;
  private final long pageBytes;
  /** Per edge: the root whose memory holds its data (-1: none) and where. */
  private final int[] root;
  private final long[] offset;
  private final CowRefusal[] refusal;
  /** Per source root: the copies resolving to it and the merged members read by actors. */
  private final Map<Integer, List<Integer>> readers = new HashMap<>();
  /** Per source root: every copy (not merged) whose data lies in it, whatever its consumer. */
  private final Map<Integer, List<Integer>> copies = new HashMap<>();
  private final Map<Integer, CowRefusal> shareable = new HashMap<>();
  private final Map<Integer, BitSet> writerCores = new HashMap<>();
  private int[] firstMember;
  private int[] nextMember;

  CowSources(Schedule schedule, Classification classes, Topology topology, long pageBytes) {
    this.srdag = schedule.srdag();
    this.schedule = schedule;
    this.classes = classes;
    this.topology = topology;
    this.pageBytes = pageBytes;
    int edges = srdag.edgeCount();
    root = new int[edges];
    offset = new long[edges];
    refusal = new CowRefusal[edges];
    listGroups();
    for (int e = 0; e < edges; e++) {
      root[e] = -1;
      if (classes.origin(e) != BufferOrigin.COPY) {
        refusal[e] = new CowRefusal.Plain(CowRefusal.Rule.IN_PLACE);
        continue;
      }
      if (classes.rule(e) == org.cacheflow.plan.classify.ClassRule.MARKED_PRIVATE) {
        refusal[e] = new CowRefusal.Plain(CowRefusal.Rule.MARKED_PRIVATE);
        continue;
      }
      int r = classes.mergeRoot(e);
      if (r >= 0 && r != e) {
        // a merged output: a view of its own place in the group's memory
        long[][] pieces = classes.facts().mergePieces(e);
        long at = classes.facts().mergeOffset(e);
        if (classes.copiedIntoMerged(e) > 0) {
          refusal[e] = new CowRefusal.Plain(CowRefusal.Rule.COPIED_FROM_OTHER_GROUP);
          continue;
        }
        if (pieces != null || at < 0) {
          refusal[e] = new CowRefusal.Plain(CowRefusal.Rule.IN_PIECES);
          continue;
        }
        root[e] = r;
        offset[e] = at;
      } else if (r < 0) {
        refusal[e] = resolve(e);
      } else {
        refusal[e] = new CowRefusal.Plain(CowRefusal.Rule.HOSTS_GROUP);
        continue;
      }
      if (refusal[e] == null && isActor(srdag.edgeTarget(e))) {
        readers.computeIfAbsent(root[e], k -> new ArrayList<>()).add(e);
      }
      if (refusal[e] == null && r < 0) {
        copies.computeIfAbsent(root[e], k -> new ArrayList<>()).add(e);
      }
    }
  }

  /** The root whose memory holds the copy's data, or -1 (see {@link #refusal}). */
  int root(int e) {
    return root[e];
  }

  /** Where the copy's data starts in its root's memory. */
  long offset(int e) {
    return offset[e];
  }

  /** The copies (not merged buffers) whose data lies in the source's memory. */
  List<Integer> copies(int source) {
    return copies.getOrDefault(source, List.of());
  }

  /** How many buffers with actor consumers read bytes of the source memory that this buffer's bytes overlap. */
  int sharers(int e) {
    if (root[e] < 0) {
      return 0;
    }
    int count = 0;
    long end = offset[e] + srdag.edgeBytes(e);
    for (int other : readers.getOrDefault(root[e], List.of())) {
      if (offset[other] < end && offset[e] < offset[other] + srdag.edgeBytes(other)) {
        count++;
      }
    }
    return count;
  }

  /** How many buffers read the same source memory (copies and merged outputs with actor consumers). */
  int readers(int source) {
    return readers.getOrDefault(source, List.of()).size();
  }

  /** Whether some shareable source has views among its readers that resolve to this buffer's memory. */
  boolean isSource(int e) {
    return readers.containsKey(e) && shareable(e) == null;
  }

  /** Why a view cannot replace this copy (structure only: size, where its data lies, sharing), or null. */
  CowRefusal refusal(int e) {
    if (refusal[e] != null) {
      return refusal[e];
    }
    if (srdag.edgeBytes(e) < pageBytes) {
      return new CowRefusal.SmallerThanPage(pageBytes, srdag.edgeBytes(e));
    }
    if (!isActor(srdag.edgeTarget(e))) {
      return new CowRefusal.Plain(CowRefusal.Rule.SPECIAL_CONSUMER);
    }
    return shareable(root[e]);
  }

  /**
   * Why the memory is used on another node than its writer's, or null: a copy-on-write buffer and its views are
   * mapped in one process, so its members, the copies of its bytes, and what the special vertices reading it fill
   * must all be produced and consumed on the writer's node.
   */
  private CowRefusal offNode(int source, List<Integer> members) {
    Platform platform = schedule.platform();
    if (platform.nodes() == 1) {
      return null;
    }
    int home = platform.nodeOf(schedule.coreOf(srdag.edgeSource(source)));
    List<Integer> used = new ArrayList<>(members);
    used.addAll(copies.getOrDefault(source, List.of()));
    used.addAll(readers.getOrDefault(source, List.of()));
    for (int m : members) {
      int reader = srdag.edgeTarget(m);
      if (Classifier.isCopying(srdag.vertexKind(reader))) {
        for (int k = 0; k < topology.outDegree(reader); k++) {
          used.add(topology.outEdge(reader, k));
        }
      }
    }
    for (int e : used) {
      for (int vertex : new int[] {srdag.edgeSource(e), srdag.edgeTarget(e)}) {
        int node = platform.nodeOf(schedule.coreOf(vertex));
        if (node != home) {
          return new CowRefusal.OffNode(source, home, node, e);
        }
      }
    }
    return null;
  }

  /**
   * Whether a merged output must become a view for its group's memory to be shared: its consumer may write it, or
   * runs on a core where nothing writes the memory in place.
   */
  boolean memberNeedsView(int m) {
    int target = srdag.edgeTarget(m);
    return !classes.consumersReadOnly(m) || !writerCores(classes.mergeRoot(m)).get(schedule.coreOf(target));
  }

  // ------------------------------------------------------------------------------------------ resolution

  private CowRefusal resolve(int e) {
    int v = srdag.edgeSource(e);
    ActorKind kind = srdag.vertexKind(v);
    if (kind == ActorKind.JOIN) {
      return new CowRefusal.Plain(CowRefusal.Rule.JOIN_GATHERS);
    }
    if (topology.inDegree(v) != 1) {
      return new CowRefusal.Inputs(v, topology.inDegree(v));
    }
    int input = topology.inEdge(v, 0);
    long bytes = srdag.edgeBytes(e);
    long inputBytes = srdag.edgeBytes(input);
    long at;
    switch (kind) {
      case BROADCAST -> at = 0;
      case ROUNDBUFFER -> at = inputBytes - bytes;
      default -> at = forkOffset(v, e);
    }
    if (at < 0 || at + bytes > inputBytes) {
      return new CowRefusal.Repeats(v, inputBytes, bytes);
    }
    int r = classes.mergeRoot(input);
    if (r < 0) {
      if (srdag.isFromInit(input)) {
        return new CowRefusal.OfVertex(CowRefusal.Rule.INPUT_DELAY, v);
      }
      root[e] = input;
      offset[e] = at;
      return null;
    }
    MemoryFacts facts = classes.facts();
    if (facts.groupBytes(r) <= 0) {
      return new CowRefusal.OfVertex(CowRefusal.Rule.NO_LAYOUT, v);
    }
    long[][] pieces = facts.mergePieces(input);
    if (pieces == null) {
      long base = facts.mergeOffset(input);
      if (base < 0) {
        return new CowRefusal.OfVertex(CowRefusal.Rule.NO_LAYOUT, v);
      }
      root[e] = r;
      offset[e] = base + at;
      return null;
    }
    for (long[] piece : pieces) {
      if (piece[0] <= at && at + bytes <= piece[0] + piece[2]) {
        root[e] = r;
        offset[e] = piece[1] + at - piece[0];
        return null;
      }
    }
    return new CowRefusal.OfVertex(CowRefusal.Rule.SPANS_PIECES, v);
  }

  /** Where a fork output starts in the fork's input: outputs take consecutive slices in port order. */
  private long forkOffset(int fork, int output) {
    long at = 0;
    for (int e : outputsInOrder(fork)) {
      if (e == output) {
        return at;
      }
      at += srdag.edgeBytes(e);
    }
    return -1;
  }

  /** Output edges as the code generator orders them: slot order for inserted vertices, else port order. */
  private int[] outputsInOrder(int vertex) {
    int[] adjacent = srdag.outgoingEdges(vertex);
    if (srdag.isInserted(vertex)) {
      return adjacent;
    }
    FlatActor actor = srdag.flatGraph().actor(srdag.vertexActor(vertex));
    List<Integer> ordered = new ArrayList<>();
    for (FlatPort port : actor.ports()) {
      if (!port.isInput()) {
        for (int e : adjacent) {
          if (srdag.edgeSourcePort(e).equals(port.name())) {
            ordered.add(e);
          }
        }
      }
    }
    return ordered.size() == adjacent.length ? ordered.stream().mapToInt(Integer::intValue).toArray() : adjacent;
  }

  // ------------------------------------------------------------------------------------------ sharing

  /** Why the source's memory cannot be shared through views, or null; cached per source. */
  CowRefusal shareable(int source) {
    if (!shareable.containsKey(source)) {
      shareable.put(source, checkShareable(source));
    }
    return shareable.get(source);
  }

  private CowRefusal checkShareable(int source) {
    if (srdag.isFromInit(source)) {
      return new CowRefusal.OfMemory(source);
    }
    List<Integer> members = members(source);
    CowRefusal offNode = offNode(source, members);
    if (offNode != null) {
      return offNode;
    }
    List<Integer> users = new ArrayList<>();
    CowRefusal inPlace = inPlaceUsers(source, members, users);
    if (inPlace != null) {
      return inPlace;
    }
    copyingReaders(source, members, users);
    Map<Integer, Integer> last = publications(source, members, users);
    for (int e : readers.getOrDefault(source, List.of())) {
      int consumer = srdag.edgeTarget(e);
      Integer publishes = last.get(schedule.coreOf(consumer));
      if (isView(e) && publishes != null && schedule.position(consumer) < publishes) {
        return new CowRefusal.ConsumerBeforePublication(source, e, schedule.coreOf(consumer));
      }
    }
    return waitsForAView(source, last);
  }

  /**
   * Adds to {@code users} every firing that touches the memory in place, on whichever core: each core with one is a
   * writer part of the buffer, which begins its part before its first use there each iteration and publishes it after
   * its last. Why the memory cannot be shared, when a member's consumer writes it in place or a member that must
   * become a view cannot; else null.
   */
  private CowRefusal inPlaceUsers(int source, List<Integer> members, List<Integer> users) {
    users.add(srdag.edgeSource(source));
    for (int m : members) {
      int consumer = srdag.edgeTarget(m);
      users.add(srdag.edgeSource(m)); // written in place, or a special vertex that may copy into it
      if (srdag.isToEnd(m) || !isActor(consumer) && !Classifier.isCopying(srdag.vertexKind(consumer))) {
        users.add(consumer);
      } else if (isActor(consumer)) {
        boolean view = m != source && memberNeedsView(m);
        boolean small = srdag.edgeBytes(m) < pageBytes;
        if (view && (classes.facts().mergePieces(m) != null || small)) {
          return new CowRefusal.MemberNotViewable(source, m, !classes.consumersReadOnly(m),
              schedule.coreOf(consumer), small);
        }
        if (!view) {
          if (!classes.consumersReadOnly(m)) {
            return new CowRefusal.WrittenInPlace(source, m);
          }
          users.add(consumer);
        }
      }
    }
    return null;
  }

  /**
   * Adds to {@code users} the special vertices reading the memory that copy an output which neither lies in place
   * nor becomes a view: they read the memory in place where they run.
   */
  private void copyingReaders(int source, List<Integer> members, List<Integer> users) {
    for (int m : members) {
      int reader = srdag.edgeTarget(m);
      if (!Classifier.isCopying(srdag.vertexKind(reader))) {
        continue;
      }
      for (int k = 0; k < topology.outDegree(reader); k++) {
        int out = topology.outEdge(reader, k);
        boolean inPlace = classes.mergeRoot(out) == source && classes.copiedIntoMerged(out) == 0;
        boolean view = refusal[out] == null && root[out] == source && srdag.edgeBytes(out) >= pageBytes
            && isActor(srdag.edgeTarget(out));
        if (!inPlace && !view) {
          users.add(reader);
        }
      }
    }
  }

  /**
   * Per core, the position of the use that publishes its part: its last use; where one core writes the memory, its
   * last write instead: its reads after it still come before its next iteration's writes in its own order, and no
   * other core writes (the code generator does the same, CoreSchedules).
   */
  private Map<Integer, Integer> publications(int source, List<Integer> members, List<Integer> users) {
    Map<Integer, Integer> last = new HashMap<>();
    for (int u : users) {
      last.merge(schedule.coreOf(u), schedule.position(u), Math::max);
    }
    BitSet writers = writerCores(source);
    if (writers.cardinality() == 1) {
      int core = writers.nextSetBit(0);
      int lastWrite = -1;
      for (int m : members) {
        if (m == source || classes.origin(m) != BufferOrigin.COPY || classes.copiedIntoMerged(m) > 0) {
          lastWrite = Math.max(lastWrite, schedule.position(srdag.edgeSource(m)));
        }
      }
      last.put(core, lastWrite);
    }
    return last;
  }

  /** Whether a reader of a source memory reads it through a view. */
  private boolean isView(int e) {
    return classes.mergeRoot(e) < 0 ? srdag.edgeBytes(e) >= pageBytes : memberNeedsView(e);
  }

  /** The memory's buffers: the source and, when it is a merge group's root, every member. */
  private List<Integer> members(int source) {
    List<Integer> members = new ArrayList<>();
    members.add(source);
    if (classes.mergeRoot(source) == source) {
      for (int m = firstMember[source]; m >= 0; m = nextMember[m]) {
        if (m != source) {
          members.add(m);
        }
      }
    }
    return members;
  }

  /**
   * The cores whose firings write the memory in place: its producer's and those of the merged buffers their
   * producers write. A merged output whose consumer only reads is read in place on these cores (the code generator
   * signals the data to it) and becomes a view on any other.
   */
  BitSet writerCores(int source) {
    return writerCores.computeIfAbsent(source, r -> {
      BitSet cores = new BitSet();
      for (int m : members(r)) {
        if (m == r || classes.origin(m) != BufferOrigin.COPY || classes.copiedIntoMerged(m) > 0) {
          cores.set(schedule.coreOf(srdag.edgeSource(m)));
        }
      }
      return cores;
    });
  }

  /**
   * Each core that uses the memory publishes its part after its last use there, and a view is acquired once every
   * part is published. When a core's publication depends, through data and the cores' static orders, on a view's
   * consumer, the two would wait for each other: refused.
   */
  private CowRefusal waitsForAView(int source, Map<Integer, Integer> last) {
    if (last.isEmpty()) {
      return null;
    }
    boolean[] seen = new boolean[srdag.vertexCount()];
    ArrayDeque<Integer> work = new ArrayDeque<>();
    Map<Integer, Integer> from = new HashMap<>();
    for (int e : readers.getOrDefault(source, List.of())) {
      int consumer = srdag.edgeTarget(e);
      if (isView(e) && !seen[consumer]) {
        seen[consumer] = true;
        work.add(consumer);
        from.put(consumer, e);
      }
    }
    while (!work.isEmpty()) {
      int v = work.poll();
      int origin = from.get(v);
      int core = schedule.coreOf(v);
      Integer publishes = last.get(core);
      if (publishes != null && schedule.position(v) <= publishes) {
        return new CowRefusal.WaitsForView(source, core, origin, schedule.coreOf(srdag.edgeTarget(origin)));
      }
      int next = schedule.position(v) + 1 < schedule.orderLength(core) ? schedule.vertexAt(core, schedule.position(v)
          + 1)
          : -1;
      if (next >= 0 && !seen[next]) {
        seen[next] = true;
        from.put(next, origin);
        work.add(next);
      }
      for (int e : srdag.outgoingEdges(v)) {
        int target = srdag.edgeTarget(e);
        if (!seen[target]) {
          seen[target] = true;
          from.put(target, origin);
          work.add(target);
        }
      }
    }
    return null;
  }

  private boolean isActor(int vertex) {
    return srdag.vertexKind(vertex) == ActorKind.NORMAL && !srdag.isInserted(vertex);
  }

  private void listGroups() {
    int edges = srdag.edgeCount();
    firstMember = new int[edges];
    nextMember = new int[edges];
    Arrays.fill(firstMember, -1);
    for (int e = edges - 1; e >= 0; e--) {
      int r = classes.mergeRoot(e);
      if (r >= 0) {
        nextMember[e] = firstMember[r];
        firstMember[r] = e;
      }
    }
  }
}
