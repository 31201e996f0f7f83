package org.cacheflow.scripts.merge;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

import org.cacheflow.scripts.Match;
import org.cacheflow.scripts.ScriptBuffer;
import org.cacheflow.scripts.ScriptRun;

/**
 * Applies accepted script matches to decide which single-rate FIFOs share memory.
 *
 * <p>A buffer whose matches (merged when consecutive) cover all its real tokens without overlapping may live
 * inside the buffers it is matched with: as a whole when one match covers it, in pieces otherwise (a "divided"
 * buffer, as PREESM's split slices; only when both its producer and its consumer ran a script, since other
 * actors access a FIFO as one contiguous block). Candidates are tried in run order, inputs before outputs, each FIFO
 * being
 * placed at most once and never inside itself. A placement is kept only if, in every root it touches, any two
 * FIFOs whose bits overlap are either
 * <ul>
 * <li>sequential: one is produced by the consumer of the other or by one of its descendants, so the first is
 * dead when the second is written (the in-place case), or</li>
 * <li>both unmodified while they live: their consumers only read them (READ_ONLY or UNUSED ports, PREESM's
 * mergeability) and write no in-place output over them (the broadcast case).</li>
 * </ul>
 * This is stricter than PREESM, which may let one writing consumer share with readers depending on the later
 * schedule; merging happens before scheduling here, so the rule must hold for every schedule.
 */
public final class BufferMerger {

  private final Map<String, FifoInfo> fifos = new LinkedHashMap<>();
  private final Map<String, List<String>> successors = new HashMap<>();
  /** Guest FIFO -> its pieces in host FIFOs (hosts may themselves be guests). */
  private final Map<String, List<Piece>> placements = new LinkedHashMap<>();
  private final List<String> rejected = new ArrayList<>();
  /** Current layouts of the FIFOs placed so far or moved with them (others are in their own memory). */
  private final Map<String, List<Segment>> layouts = new HashMap<>();
  /** Root FIFO -> the segments placed in it, its own included. */
  private final Map<String, RootSegments> rootSegments = new HashMap<>();
  /** Numbers segments in the order they took their place (see {@link RootSegments}). */
  private long nextSeq;
  /** For the move being checked: segments staying where they were, new number -> old one. */
  private final Map<Segment, Segment> renumbered = new IdentityHashMap<>();
  private final Set<Segment> renumberedOld = Collections.newSetFromMap(new IdentityHashMap<>());
  /**
   * FIFOs are numbered by their ids' sorted order (their rank), so a pair of FIFOs is one number and the
   * checks on pairs index arrays.
   */
  private final Map<String, Integer> nameRank = new HashMap<>();
  private final FifoInfo[] byRank;
  /** Per FIFO rank, its producer's and its consumer's number (equal numbers, same actor instance). */
  private final int[] producerVertex;
  private final int[] consumerVertex;
  /** Per FIFO rank, the topological positions of its producer and consumer (-1: none), once computed. */
  private int[] producerPosition;
  private int[] consumerPosition;
  /** FIFOs (by rank) written during their life by an in-place output of their consumer (only grows). */
  private final BitSet modified = new BitSet();
  /** Actor instances that ran a script: only they may see a FIFO divided into pieces. */
  private final Set<String> scripted = new HashSet<>();

  private BufferMerger(Collection<FifoInfo> fifoInfos) {
    for (FifoInfo fifo : fifoInfos) {
      fifos.put(fifo.id(), fifo);
      successors.computeIfAbsent(fifo.producer(), v -> new ArrayList<>()).add(fifo.consumer());
    }
    List<String> names = new ArrayList<>(fifos.keySet());
    names.sort(null);
    byRank = new FifoInfo[names.size()];
    producerVertex = new int[names.size()];
    consumerVertex = new int[names.size()];
    Map<String, Integer> vertices = new HashMap<>();
    for (int rank = 0; rank < names.size(); rank++) {
      FifoInfo fifo = fifos.get(names.get(rank));
      nameRank.put(fifo.id(), rank);
      byRank[rank] = fifo;
      producerVertex[rank] = vertices.computeIfAbsent(fifo.producer(), v -> vertices.size());
      consumerVertex[rank] = vertices.computeIfAbsent(fifo.consumer(), v -> vertices.size());
    }
    for (FifoInfo fifo : fifos.values()) {
      long seq = nextSeq++;
      Segment own = new Segment(fifo.id(), nameRank.get(fifo.id()), 0, fifo.sizeBits(), fifo.id(), 0, seq, seq);
      rootSegments.computeIfAbsent(fifo.id(), r -> new RootSegments()).add(own);
      layouts.put(fifo.id(), List.of(own));
    }
  }

  /** Merges the FIFOs using the matches of {@code runs} (runs that failed their checks must be left out). */
  public static MergeResult merge(Collection<FifoInfo> fifos, List<ScriptRun> runs) {
    BufferMerger merger = new BufferMerger(fifos);
    for (ScriptRun run : runs) {
      merger.scripted.add(run.environment().vertexName());
    }
    for (ScriptRun run : runs) {
      Map<ScriptBuffer, List<Match>> matchesByBuffer = matchesByBuffer(run);
      for (ScriptBuffer buffer : run.buffers()) {
        merger.tryPlace(buffer, matchesByBuffer.getOrDefault(buffer, List.of()));
      }
    }
    return merger.result();
  }

  // ---------------------------------------------------------------- candidates

  private void tryPlace(ScriptBuffer buffer, List<Match> own) {
    String guest = buffer.spec().fifoId();
    FifoInfo info = fifos.get(guest);
    List<Match> matches = simplified(own);
    if (info == null || matches.isEmpty() || placements.containsKey(guest)) {
      return;
    }
    List<Piece> pieces = cover(buffer, matches);
    if (pieces == null) {
      return;
    }
    String what = buffer + " (FIFO " + guest + ")";
    if (pieces.size() > 1 && !(scripted.contains(info.producer()) && scripted.contains(info.consumer()))) {
      // an actor without a script reads or writes the FIFO as one contiguous block (PREESM: group border)
      return;
    }
    if (!info.mergeAllowed()) {
      rejected.add(what + ": its FIFO keeps its own memory (delay or persistent state)");
      return;
    }
    for (Piece piece : pieces) {
      FifoInfo host = fifos.get(piece.host());
      if (host == null || !host.mergeAllowed()) {
        rejected.add(what + ": FIFO " + piece.host() + " keeps its own memory (delay or persistent state)");
        return;
      }
    }
    for (Piece piece : pieces) {
      if (layoutOf(piece.host()).stream().anyMatch(segment -> segment.root().equals(guest))) {
        return; // the same match was already applied the other way round: the host lives in this FIFO
      }
    }
    // the FIFOs that move with the guest: itself and those living in it (all segments of root guest)
    Set<String> moved = new LinkedHashSet<>();
    RootSegments guestRoot = rootSegments.get(guest);
    if (guestRoot != null) {
      for (Segment segment : guestRoot.inPlacementOrder()) {
        moved.add(segment.fifo());
      }
    }
    placements.put(guest, pieces);
    Map<String, List<Segment>> newLayouts = relayout(guest, pieces, moved);
    String problem = newLayouts == null ? "it would lie in virtual tokens of a divided buffer" : null;
    BitSet newlyModified = new BitSet();
    long firstNewSeq = nextSeq;
    if (problem == null) {
      newLayouts = numbered(newLayouts);
      // validation puts the new segments in their roots; they leave again if the move is refused
      List<Segment> inserted = new ArrayList<>();
      problem = validate(newLayouts, moved, pieces.size() == 1, firstNewSeq, newlyModified, inserted);
      if (problem != null) {
        for (Segment segment : inserted) {
          Segment old = renumbered.get(segment);
          if (old != null) {
            rootSegments.get(segment.root()).replace(segment, old);
          } else {
            rootSegments.get(segment.root()).remove(segment);
          }
        }
      }
    }
    if (problem != null) {
      placements.remove(guest);
      rejected.add(what + ": " + problem);
      return;
    }
    modified.or(newlyModified);
    rootSegments.remove(guest);
    // a divided FIFO may also have had pieces in other roots: they are replaced too
    for (String fifo : moved) {
      for (Segment old : layoutOf(fifo)) {
        RootSegments segments = rootSegments.get(old.root());
        if (segments != null && !renumberedOld.contains(old)) {
          segments.remove(old);
        }
      }
    }
    layouts.putAll(newLayouts);
  }

  /**
   * The layouts with their segments numbered in order, after every segment placed so far. A segment that stays
   * where it was (a moved FIFO's piece outside the guest) gets a new number too, as if placed again: it is
   * recorded in {@link #renumbered}.
   */
  private Map<String, List<Segment>> numbered(Map<String, List<Segment>> newLayouts) {
    renumbered.clear();
    renumberedOld.clear();
    Map<String, List<Segment>> numbered = new LinkedHashMap<>();
    for (Map.Entry<String, List<Segment>> layout : newLayouts.entrySet()) {
      List<Segment> segments = new ArrayList<>(layout.getValue().size());
      for (Segment segment : layout.getValue()) {
        long seq = nextSeq++;
        boolean stays = segment.seq() >= 0;
        Segment placed = new Segment(segment.fifo(), nameRank.get(segment.fifo()), segment.fifoStart(),
            segment.length(), segment.root(), segment.rootStart(), seq, stays ? segment.id() : seq);
        if (stays) {
          renumbered.put(placed, segment);
          renumberedOld.add(segment);
        }
        segments.add(placed);
      }
      numbered.put(layout.getKey(), segments);
    }
    return numbered;
  }

  /** Per buffer of the run, the matches seen from its side, in the run's order. */
  private static Map<ScriptBuffer, List<Match>> matchesByBuffer(ScriptRun run) {
    Map<ScriptBuffer, List<Match>> byBuffer = new IdentityHashMap<>();
    for (Match match : run.matches()) {
      byBuffer.computeIfAbsent(match.local(), b -> new ArrayList<>()).add(match);
      if (match.remote() != match.local()) {
        byBuffer.computeIfAbsent(match.remote(), b -> new ArrayList<>()).add(match.reciprocal());
      }
    }
    return byBuffer;
  }

  /** The buffer's matches (seen from its side), consecutive ones merged, sorted by local start. */
  private static List<Match> simplified(List<Match> matches) {
    List<Match> own = new ArrayList<>(matches);
    own.sort(Comparator.comparingLong(Match::localStart).thenComparingLong(Match::length));
    List<Match> merged = new ArrayList<>();
    for (Match match : own) {
      Match last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
      if (last != null && last.remote() == match.remote() && last.localEnd() == match.localStart()
          && last.remoteEnd() == match.remoteStart()) {
        merged.set(merged.size() - 1,
            new Match(last.local(), last.localStart(), last.remote(), last.remoteStart(), last.length()
                + match.length()));
      } else {
        merged.add(match);
      }
    }
    return merged;
  }

  /** The pieces placing all real bits of the buffer, or null when its matches do not cover it exactly once. */
  private static List<Piece> cover(ScriptBuffer buffer, List<Match> matches) {
    long real = buffer.realBits();
    long covered = 0;
    List<Piece> pieces = new ArrayList<>();
    for (Match match : matches) {
      long start = Math.max(match.localStart(), 0);
      long end = Math.min(match.localEnd(), real);
      if (end <= start) {
        continue;
      }
      if (start != covered) {
        return null; // a gap, or two matches for the same bits
      }
      pieces.add(new Piece(start, end - start, match.remote().spec().fifoId(),
          match.remoteStart() + (start - match.localStart())));
      covered = end;
    }
    return covered == real && real > 0 ? pieces : null;
  }

  // ---------------------------------------------------------------- layout

  /**
   * A run of bits of a FIFO placed in a root. {@code seq} numbers segments in the order they took their place;
   * it orders the partners of a segment that start at the same bit. {@code id} identifies the segment in its
   * root's index and stays when the segment is placed again where it was (see {@link #renumbered}). All three
   * numbers are -1 while the segment is only proposed.
   */
  private record Segment(String fifo, int rank, long fifoStart, long length, String root, long rootStart,
      long seq, long id) {

    Segment(String fifo, long fifoStart, long length, String root, long rootStart) {
      this(fifo, -1, fifoStart, length, root, rootStart, -1, -1);
    }

    long rootEnd() {
      return rootStart + length;
    }
  }

  /** The segments placed in one root, by start for overlap queries. */
  private static final class RootSegments {
    private final IntervalIndex<Segment> byStart = new IntervalIndex<>();

    void add(Segment segment) {
      byStart.add(segment.rootStart(), segment.rootEnd(), segment.id(), segment);
    }

    void remove(Segment segment) {
      byStart.remove(segment.rootStart(), segment.id());
    }

    /** Replaces a segment by the same bits with the same id (placed again, under another number). */
    void replace(Segment old, Segment again) {
      byStart.replace(old.rootStart(), old.id(), again);
    }

    List<Segment> inPlacementOrder() {
      List<Segment> segments = new ArrayList<>(byStart.size());
      byStart.forEach(segments::add);
      segments.sort(Comparator.comparingLong(Segment::seq));
      return segments;
    }
  }

  /**
   * The new layouts of the guest and of the FIFOs living in it once the guest takes its pieces: the guest's
   * pieces go through its hosts' current layouts, the others' segments through the guest's new layout. Null
   * when some bits fall outside the pieces of a divided buffer.
   */
  private Map<String, List<Segment>> relayout(String guest, List<Piece> pieces, Set<String> moved) {
    List<Segment> guestLayout = new ArrayList<>();
    for (Piece piece : pieces) {
      List<Segment> mapped = map(guest, piece.start(), piece.length(), piece.hostStart() - piece.start(),
          layoutOf(piece.host()));
      if (mapped == null) {
        return null;
      }
      guestLayout.addAll(mapped);
    }
    Map<String, List<Segment>> layouts = new LinkedHashMap<>();
    layouts.put(guest, guestLayout);
    for (String fifo : moved) {
      if (fifo.equals(guest)) {
        continue;
      }
      List<Segment> layout = new ArrayList<>();
      for (Segment segment : layoutOf(fifo)) {
        if (!segment.root().equals(guest)) {
          layout.add(segment);
          continue;
        }
        List<Segment> mapped = map(fifo, segment.fifoStart(), segment.length(),
            segment.rootStart() - segment.fifoStart(), guestLayout);
        if (mapped == null) {
          return null;
        }
        layout.addAll(mapped);
      }
      layouts.put(fifo, layout);
    }
    return layouts;
  }

  /**
   * Bits [start, start+length) of {@code fifo}, which are bits [start+delta, ...) of a host laid out as
   * {@code hostLayout}, placed in roots. A host in one block extends over its virtual bits; bits outside the
   * pieces of a divided host cannot be placed (null).
   */
  private static List<Segment> map(String fifo, long start, long length, long delta, List<Segment> hostLayout) {
    long from = start + delta;
    long to = from + length;
    if (hostLayout.size() == 1) {
      Segment block = hostLayout.get(0);
      return List.of(new Segment(fifo, start, length, block.root(), block.rootStart() + (from - block.fifoStart())));
    }
    List<Segment> sorted = new ArrayList<>(hostLayout);
    sorted.sort(Comparator.comparingLong(Segment::fifoStart));
    List<Segment> mapped = new ArrayList<>();
    long position = from;
    for (Segment segment : sorted) {
      long overlapStart = Math.max(position, segment.fifoStart());
      long overlapEnd = Math.min(to, segment.fifoStart() + segment.length());
      if (overlapEnd <= overlapStart) {
        continue;
      }
      if (overlapStart != position) {
        return null;
      }
      mapped.add(new Segment(fifo, overlapStart - delta, overlapEnd - overlapStart, segment.root(),
          segment.rootStart() + (overlapStart - segment.fifoStart())));
      position = overlapEnd;
    }
    return position == to ? mapped : null;
  }

  /** The current layout of a FIFO (kept up to date as placements are accepted). */
  private List<Segment> layoutOf(String fifo) {
    List<Segment> layout = layouts.get(fifo);
    if (layout == null) {
      throw new IllegalStateException("no layout for FIFO " + fifo);
    }
    return layout;
  }

  // ---------------------------------------------------------------- validation

  /**
   * Null when the moved FIFOs can take their new places safely, else the reason. Their new segments (numbered
   * from {@code firstNewSeq}) join their roots as the roots are checked, and are added to {@code inserted};
   * their old ones are still there and are ignored.
   */
  private String validate(Map<String, List<Segment>> newLayouts, Set<String> moved, boolean rigid,
      long firstNewSeq, BitSet newlyModified, List<Segment> inserted) {
    BitSet movedRanks = new BitSet();
    for (String fifo : moved) {
      movedRanks.set(nameRank.get(fifo));
    }
    Map<String, List<Segment>> addedByRoot = new LinkedHashMap<>();
    for (List<Segment> layout : newLayouts.values()) {
      for (Segment segment : layout) {
        addedByRoot.computeIfAbsent(segment.root(), r -> new ArrayList<>()).add(segment);
      }
    }
    for (Map.Entry<String, List<Segment>> added : addedByRoot.entrySet()) {
      String problem = checkRoot(added.getKey(), added.getValue(), newLayouts, movedRanks, rigid, firstNewSeq,
          newlyModified, inserted);
      if (problem != null) {
        return problem;
      }
    }
    return null;
  }

  /** Two actor instances (for the reachability cache). */
  private record Pair(String first, String second) {
  }

  /**
   * Distinct pairs of FIFOs (possibly the same one twice) whose bits overlap in a root, in the order first
   * found, each one number: smaller rank * FIFO count + larger rank.
   */
  private final class Pairs {
    private long[] inOrder = new long[16];
    private int size;
    /** Open addressing on key + 1, so 0 marks a free slot. */
    private long[] slots = new long[64];

    void add(Segment a, Segment b) {
      long key = (long) Math.min(a.rank(), b.rank()) * byRank.length + Math.max(a.rank(), b.rank());
      int mask = slots.length - 1;
      int slot = (int) (mix(key) & mask);
      while (slots[slot] != 0) {
        if (slots[slot] == key + 1) {
          return;
        }
        slot = (slot + 1) & mask;
      }
      slots[slot] = key + 1;
      if (size == inOrder.length) {
        inOrder = Arrays.copyOf(inOrder, size * 2);
      }
      inOrder[size++] = key;
      if (size * 2 > slots.length) {
        rehash();
      }
    }

    private void rehash() {
      slots = new long[slots.length * 2];
      int mask = slots.length - 1;
      for (int i = 0; i < size; i++) {
        int slot = (int) (mix(inOrder[i]) & mask);
        while (slots[slot] != 0) {
          slot = (slot + 1) & mask;
        }
        slots[slot] = inOrder[i] + 1;
      }
    }

    private static long mix(long key) {
      long h = key * 0x9E3779B97F4A7C15L;
      return h ^ (h >>> 29);
    }

    int size() {
      return size;
    }

    int first(int index) {
      return (int) (inOrder[index] / byRank.length);
    }

    int second(int index) {
      return (int) (inOrder[index] % byRank.length);
    }
  }

  /**
   * Checks root {@code root} after the moved FIFOs took their new segments {@code added} in it. The placements
   * before were safe, so only pairs involving a moved FIFO, or a FIFO that the move makes modified, are checked.
   * Pairs are checked in the order of the segments' placement, then of the partners' start, so the first
   * problem found (the one reported) does not depend on how the root's segments are stored.
   */
  private String checkRoot(String root, List<Segment> added, Map<String, List<Segment>> newLayouts,
      BitSet moved, boolean rigid, long firstNewSeq, BitSet newlyModified, List<Segment> inserted) {
    RootSegments segments = rootSegments.computeIfAbsent(root, r -> new RootSegments());
    // the root as it would be: the new segments, and the old ones but those of the moved FIFOs
    Predicate<Segment> present = segment -> segment.seq() >= firstNewSeq || !moved.get(segment.rank());
    Pairs pairs = new Pairs();
    if (rigid) {
      // moved as one block, the moved FIFOs keep their places relative to each other: those pairs were
      // checked, so the new segments join the root only after their partners were found
      for (Segment segment : added) {
        addOverlapping(segments, segment, other -> !moved.get(other.rank()), pairs);
      }
      insert(segments, added, inserted);
    } else {
      insert(segments, added, inserted);
      for (Segment segment : added) {
        addOverlapping(segments, segment, present, pairs);
      }
    }
    // a FIFO is modified while it lives if its consumer may write it or writes an in-place output over it
    // (a fork, join, broadcast or roundbuffer output placed over it is a view, not a write)
    BitSet fresh = new BitSet();
    for (int i = 0; i < pairs.size(); i++) {
      int a = pairs.first(i);
      int b = pairs.second(i);
      if (a != b) {
        if (producerVertex[b] == consumerVertex[a] && !byRank[b].producerAliases() && !modified.get(a)) {
          fresh.set(a);
        }
        if (producerVertex[a] == consumerVertex[b] && !byRank[a].producerAliases() && !modified.get(b)) {
          fresh.set(b);
        }
      }
    }
    newlyModified.or(fresh);
    if (!fresh.isEmpty()) {
      List<Segment> freshSegments = new ArrayList<>();
      for (int rank = fresh.nextSetBit(0); rank >= 0; rank = fresh.nextSetBit(rank + 1)) {
        String fifo = byRank[rank].id();
        for (Segment segment : moved.get(rank) ? newLayouts.get(fifo) : layoutOf(fifo)) {
          if (segment.root().equals(root)) {
            freshSegments.add(segment);
          }
        }
      }
      freshSegments.sort(Comparator.comparingLong(Segment::seq));
      for (Segment segment : freshSegments) {
        addOverlapping(segments, segment, present, pairs);
      }
    }
    for (int i = 0; i < pairs.size(); i++) {
      int first = pairs.first(i);
      int second = pairs.second(i);
      if (first != second && (sequential(first, second) || sequential(second, first))) {
        continue;
      }
      FifoInfo a = byRank[first];
      FifoInfo b = byRank[second];
      for (FifoInfo fifo : a == b ? List.of(a) : List.of(a, b)) {
        FifoInfo other = fifo == a ? b : a;
        int rank = fifo == a ? first : second;
        if (!fifo.mergeable()) {
          return "FIFO " + fifo.id() + " would share memory with FIFO " + other.id()
              + ", which may be live at the same time, but its consumer " + fifo.consumer()
              + " may write it (port neither READ_ONLY nor UNUSED)";
        }
        if (modified.get(rank) || newlyModified.get(rank)) {
          return "FIFO " + fifo.id() + " would share memory with FIFO " + other.id()
              + ", which may be live at the same time, but its consumer " + fifo.consumer()
              + " writes an in-place output over it";
        }
      }
    }
    return null;
  }

  private void insert(RootSegments root, List<Segment> segments, List<Segment> inserted) {
    for (Segment segment : segments) {
      Segment old = renumbered.get(segment);
      if (old != null) {
        root.replace(old, segment); // the old segment is not in the root any more: no removal later
      } else {
        root.add(segment);
      }
      inserted.add(segment);
    }
  }

  /** Adds the FIFO pairs of {@code segment} and the partners overlapping it, partners by (start, seq). */
  private static void addOverlapping(RootSegments root, Segment segment, Predicate<Segment> partner,
      Pairs pairs) {
    List<Segment> partners = new ArrayList<>();
    root.byStart.forEachOverlapping(segment.rootStart(), segment.rootEnd(), other -> {
      if (other != segment && partner.test(other)) {
        partners.add(other);
      }
    });
    // the index orders equal starts by id, the pairs must come by placement order
    partners.sort(BY_START_THEN_SEQ);
    for (Segment other : partners) {
      pairs.add(segment, other);
    }
  }

  private static final Comparator<Segment> BY_START_THEN_SEQ =
      Comparator.comparingLong(Segment::rootStart).thenComparingLong(Segment::seq);

  /** True when FIFO {@code later} (a rank) is written only after FIFO {@code earlier} was consumed. */
  private boolean sequential(int earlier, int later) {
    if (producerVertex[later] == consumerVertex[earlier]) {
      return true;
    }
    if (producerPosition == null) {
      topologicalOrder();
      producerPosition = new int[byRank.length];
      consumerPosition = new int[byRank.length];
      for (int rank = 0; rank < byRank.length; rank++) {
        producerPosition[rank] = topologicalOrder.getOrDefault(byRank[rank].producer(), -1);
        consumerPosition[rank] = topologicalOrder.getOrDefault(byRank[rank].consumer(), -1);
      }
    }
    int start = consumerPosition[earlier];
    int end = producerPosition[later];
    if (start < 0 || end < 0 || start >= end) {
      return false;
    }
    if (descendantBits != null) {
      return descendantBits[start].get(end);
    }
    return reaches(byRank[earlier].consumer(), byRank[later].producer());
  }

  /**
   * Whether a path leads from one actor instance to another. A topological order bounds the search: only
   * vertices ordered between the two can be on such a path.
   */
  private boolean reaches(String from, String to) {
    Map<String, Integer> order = topologicalOrder();
    Integer start = order.get(from);
    Integer end = order.get(to);
    if (start == null || end == null || start >= end) {
      return false;
    }
    if (descendantBits != null) {
      return descendantBits[start].get(end);
    }
    Pair key = new Pair(from, to);
    Boolean known = reachability.get(key);
    if (known != null) {
      return known;
    }
    Set<String> seen = new HashSet<>();
    Deque<String> work = new ArrayDeque<>();
    work.push(from);
    boolean found = false;
    while (!work.isEmpty() && !found) {
      for (String next : successors.getOrDefault(work.pop(), List.of())) {
        if (next.equals(to)) {
          found = true;
          break;
        }
        Integer position = order.get(next);
        if (position != null && position < end && seen.add(next)) {
          work.push(next);
        }
      }
    }
    reachability.put(key, found);
    return found;
  }

  private final Map<Pair, Boolean> reachability = new HashMap<>();
  /** Descendants by topological position, for graphs small enough (a bit per pair of instances). */
  private BitSet[] descendantBits;
  private static final int MAX_BITSET_VERTICES = 20_000;
  private Map<String, Integer> topologicalOrder;

  /** Kahn's order of the actor instances; vertices on a cycle (there should be none) get no position. */
  private Map<String, Integer> topologicalOrder() {
    if (topologicalOrder != null) {
      return topologicalOrder;
    }
    Map<String, Integer> incoming = new LinkedHashMap<>();
    for (FifoInfo fifo : fifos.values()) {
      incoming.putIfAbsent(fifo.producer(), 0);
      incoming.merge(fifo.consumer(), 1, Integer::sum);
    }
    Deque<String> ready = new ArrayDeque<>();
    incoming.forEach((vertex, count) -> {
      if (count == 0) {
        ready.add(vertex);
      }
    });
    topologicalOrder = new HashMap<>();
    List<String> sequence = new ArrayList<>();
    while (!ready.isEmpty()) {
      String vertex = ready.poll();
      topologicalOrder.put(vertex, topologicalOrder.size());
      sequence.add(vertex);
      for (String next : successors.getOrDefault(vertex, List.of())) {
        if (incoming.merge(next, -1, Integer::sum) == 0) {
          ready.add(next);
        }
      }
    }
    if (sequence.size() <= MAX_BITSET_VERTICES) {
      // in reverse order every successor's descendants are known when a vertex is reached
      descendantBits = new BitSet[sequence.size()];
      for (int i = sequence.size() - 1; i >= 0; i--) {
        BitSet bits = new BitSet(sequence.size());
        for (String next : successors.getOrDefault(sequence.get(i), List.of())) {
          Integer position = topologicalOrder.get(next);
          if (position != null) {
            bits.set(position);
            bits.or(descendantBits[position]);
          }
        }
        descendantBits[i] = bits;
      }
    }
    return topologicalOrder;
  }

  // ---------------------------------------------------------------- result

  private MergeResult result() {
    Map<String, List<Piece>> layout = new LinkedHashMap<>();
    Map<String, long[]> extents = new LinkedHashMap<>();
    Map<String, List<MergeResult.Member>> members = new TreeMap<>();
    long before = 0;
    for (FifoInfo fifo : fifos.values()) {
      before += fifo.sizeBytes();
      if (!placements.containsKey(fifo.id())) {
        extents.put(fifo.id(), new long[] { 0, fifo.sizeBits() });
      }
    }
    for (FifoInfo fifo : fifos.values()) {
      List<Piece> pieces = new ArrayList<>();
      for (Segment segment : layoutOf(fifo.id())) {
        pieces.add(new Piece(segment.fifoStart(), segment.length(), segment.root(), segment.rootStart()));
        long[] extent = extents.get(segment.root());
        extent[0] = Math.min(extent[0], segment.rootStart());
        extent[1] = Math.max(extent[1], segment.rootEnd());
      }
      layout.put(fifo.id(), List.copyOf(pieces));
      if (placements.containsKey(fifo.id())) {
        String root = pieces.get(0).host();
        members.computeIfAbsent(root, r -> new ArrayList<>()).add(new MergeResult.Member(fifo.id(),
            List.copyOf(pieces)));
      }
    }
    long after = 0;
    for (long[] extent : extents.values()) {
      after += (extent[1] - extent[0] + 7) / 8;
    }
    List<MergeResult.Group> groups = new ArrayList<>();
    for (Map.Entry<String, List<MergeResult.Member>> group : members.entrySet()) {
      long[] extent = extents.get(group.getKey());
      groups.add(new MergeResult.Group(group.getKey(), extent[0], extent[1], List.copyOf(group.getValue())));
    }
    return new MergeResult(layout, extents, groups, List.copyOf(rejected), before, after);
  }
}
