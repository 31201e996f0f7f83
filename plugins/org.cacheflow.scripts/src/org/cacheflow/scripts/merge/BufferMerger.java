package org.cacheflow.scripts.merge;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.cacheflow.scripts.Match;
import org.cacheflow.scripts.ScriptBuffer;
import org.cacheflow.scripts.ScriptRun;

/**
 * Applies accepted script matches to decide which single-rate FIFOs share memory.
 *
 * <p>A buffer whose matches (merged when consecutive) cover all its real tokens without overlapping may live
 * inside the buffers it is matched with: as a whole when one match covers it, in pieces otherwise (a "divided"
 * buffer, as PREESM's split slices; only when both its producer and its consumer ran a script, since other
 * actors access a FIFO as one contiguous block). Candidates are tried in run order, inputs before outputs, each FIFO being
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
  private final Map<String, List<Segment>> rootSegments = new HashMap<>();
  /** FIFOs written during their life by an in-place output of their consumer (only grows). */
  private final Set<String> modified = new HashSet<>();
  /** Actor instances that ran a script: only they may see a FIFO divided into pieces. */
  private final Set<String> scripted = new HashSet<>();

  private BufferMerger(Collection<FifoInfo> fifoInfos) {
    for (FifoInfo fifo : fifoInfos) {
      fifos.put(fifo.id(), fifo);
      rootSegments.computeIfAbsent(fifo.id(), r -> new ArrayList<>())
          .add(new Segment(fifo.id(), 0, fifo.sizeBits(), fifo.id(), 0));
      successors.computeIfAbsent(fifo.producer(), v -> new ArrayList<>()).add(fifo.consumer());
    }
  }

  /** Merges the FIFOs using the matches of {@code runs} (runs that failed their checks must be left out). */
  public static MergeResult merge(Collection<FifoInfo> fifos, List<ScriptRun> runs) {
    BufferMerger merger = new BufferMerger(fifos);
    for (ScriptRun run : runs) {
      merger.scripted.add(run.environment().vertexName());
    }
    for (ScriptRun run : runs) {
      for (ScriptBuffer buffer : run.buffers()) {
        merger.tryPlace(buffer, run);
      }
    }
    return merger.result();
  }

  // ---------------------------------------------------------------- candidates

  private void tryPlace(ScriptBuffer buffer, ScriptRun run) {
    String guest = buffer.spec().fifoId();
    FifoInfo info = fifos.get(guest);
    List<Match> matches = simplified(buffer, run);
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
    for (Segment segment : rootSegments.getOrDefault(guest, List.of())) {
      moved.add(segment.fifo());
    }
    placements.put(guest, pieces);
    Map<String, List<Segment>> newLayouts = relayout(guest, pieces, moved);
    String problem = newLayouts == null ? "it would lie in virtual tokens of a divided buffer" : null;
    Set<String> newlyModified = new HashSet<>();
    if (problem == null) {
      problem = validate(newLayouts, moved, pieces.size() == 1, newlyModified);
    }
    if (problem != null) {
      placements.remove(guest);
      rejected.add(what + ": " + problem);
      return;
    }
    modified.addAll(newlyModified);
    rootSegments.remove(guest);
    // a divided FIFO may also have had pieces in other roots: they are replaced too
    Set<String> oldRoots = new HashSet<>();
    for (String fifo : moved) {
      for (Segment old : layoutOf(fifo)) {
        oldRoots.add(old.root());
      }
    }
    for (String root : oldRoots) {
      List<Segment> segments = rootSegments.get(root);
      if (segments != null) {
        segments.removeIf(segment -> moved.contains(segment.fifo()));
      }
    }
    for (Map.Entry<String, List<Segment>> layout : newLayouts.entrySet()) {
      layouts.put(layout.getKey(), layout.getValue());
      for (Segment segment : layout.getValue()) {
        rootSegments.computeIfAbsent(segment.root(), r -> new ArrayList<>()).add(segment);
      }
    }
  }

  /** The buffer's matches seen from its side, consecutive ones merged, sorted by local start. */
  private static List<Match> simplified(ScriptBuffer buffer, ScriptRun run) {
    List<Match> own = new ArrayList<>();
    for (Match match : run.matches()) {
      if (match.local() == buffer) {
        own.add(match);
      } else if (match.remote() == buffer) {
        own.add(match.reciprocal());
      }
    }
    own.sort(Comparator.comparingLong(Match::localStart).thenComparingLong(Match::length));
    List<Match> merged = new ArrayList<>();
    for (Match match : own) {
      Match last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
      if (last != null && last.remote() == match.remote() && last.localEnd() == match.localStart()
          && last.remoteEnd() == match.remoteStart()) {
        merged.set(merged.size() - 1,
            new Match(last.local(), last.localStart(), last.remote(), last.remoteStart(), last.length() + match.length()));
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

  /** A run of bits of a FIFO placed in a root. */
  private record Segment(String fifo, long fifoStart, long length, String root, long rootStart) {
    long rootEnd() {
      return rootStart + length;
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
    return layout != null ? layout : List.of(new Segment(fifo, 0, fifos.get(fifo).sizeBits(), fifo, 0));
  }

  // ---------------------------------------------------------------- validation

  /** Null when the moved FIFOs can take their new places safely, else the reason. */
  private String validate(Map<String, List<Segment>> newLayouts, Set<String> moved, boolean rigid,
      Set<String> newlyModified) {
    Map<String, List<Segment>> byRoot = new LinkedHashMap<>();
    for (List<Segment> layout : newLayouts.values()) {
      for (Segment segment : layout) {
        byRoot.computeIfAbsent(segment.root(), r -> {
          List<Segment> others = new ArrayList<>();
          for (Segment existing : rootSegments.getOrDefault(r, List.of())) {
            if (!moved.contains(existing.fifo())) {
              others.add(existing);
            }
          }
          return others;
        }).add(segment);
      }
    }
    for (List<Segment> segments : byRoot.values()) {
      String problem = checkRoot(segments, moved, rigid, newlyModified);
      if (problem != null) {
        return problem;
      }
    }
    return null;
  }

  /** Two FIFOs (possibly the same one twice) whose bits overlap in a root. */
  private record Pair(String first, String second) {
  }

  /**
   * Checks a root after FIFOs {@code moved} were placed in it. The placements before were safe, so only
   * pairs involving a moved FIFO, or a FIFO that the move makes modified, are checked.
   */
  private String checkRoot(List<Segment> segments, Set<String> moved, boolean rigid, Set<String> newlyModified) {
    // moved as one block, the moved FIFOs keep their places relative to each other: those pairs were checked
    Set<Pair> pairs = overlapping(segments, segment -> moved.contains(segment.fifo()),
        rigid ? segment -> !moved.contains(segment.fifo()) : segment -> true);
    // a FIFO is modified while it lives if its consumer may write it or writes an in-place output over it
    // (a fork, join, broadcast or roundbuffer output placed over it is a view, not a write)
    Set<String> fresh = new HashSet<>();
    for (Pair pair : pairs) {
      FifoInfo a = fifos.get(pair.first());
      FifoInfo b = fifos.get(pair.second());
      if (a != b) {
        if (b.producer().equals(a.consumer()) && !b.producerAliases() && !modified.contains(a.id())) {
          fresh.add(a.id());
        }
        if (a.producer().equals(b.consumer()) && !a.producerAliases() && !modified.contains(b.id())) {
          fresh.add(b.id());
        }
      }
    }
    newlyModified.addAll(fresh);
    if (!fresh.isEmpty()) {
      pairs.addAll(overlapping(segments, segment -> fresh.contains(segment.fifo()), segment -> true));
    }
    for (Pair pair : pairs) {
      FifoInfo a = fifos.get(pair.first());
      FifoInfo b = fifos.get(pair.second());
      if (a != b && (sequential(a, b) || sequential(b, a))) {
        continue;
      }
      for (FifoInfo fifo : a == b ? List.of(a) : List.of(a, b)) {
        FifoInfo other = fifo == a ? b : a;
        if (!fifo.mergeable()) {
          return "FIFO " + fifo.id() + " would share memory with FIFO " + other.id()
              + ", which may be live at the same time, but its consumer " + fifo.consumer()
              + " may write it (port neither READ_ONLY nor UNUSED)";
        }
        if (modified.contains(fifo.id()) || newlyModified.contains(fifo.id())) {
          return "FIFO " + fifo.id() + " would share memory with FIFO " + other.id()
              + ", which may be live at the same time, but its consumer " + fifo.consumer()
              + " writes an in-place output over it";
        }
      }
    }
    return null;
  }

  /** The distinct FIFO pairs whose segments overlap, one a selected segment and the other a partner. */
  private static Set<Pair> overlapping(List<Segment> segments, java.util.function.Predicate<Segment> selected,
      java.util.function.Predicate<Segment> partner) {
    List<Segment> chosen = new ArrayList<>();
    List<Segment> partners = new ArrayList<>();
    for (Segment segment : segments) {
      if (selected.test(segment)) {
        chosen.add(segment);
      }
      if (partner.test(segment)) {
        partners.add(segment);
      }
    }
    // partners by start: only those starting before a segment's end can overlap it
    partners.sort(Comparator.comparingLong(Segment::rootStart));
    long[] starts = new long[partners.size()];
    for (int i = 0; i < starts.length; i++) {
      starts[i] = partners.get(i).rootStart();
    }
    Set<Pair> pairs = new LinkedHashSet<>();
    for (Segment a : chosen) {
      int limit = java.util.Arrays.binarySearch(starts, a.rootEnd());
      limit = limit < 0 ? -limit - 1 : limit;
      while (limit > 0 && limit < starts.length && starts[limit - 1] == a.rootEnd()) {
        limit--;
      }
      for (int j = 0; j < limit; j++) {
        Segment b = partners.get(j);
        if (b != a && a.rootStart() < b.rootEnd() && b.rootStart() < a.rootEnd()) {
          pairs.add(a.fifo().compareTo(b.fifo()) <= 0 ? new Pair(a.fifo(), b.fifo()) : new Pair(b.fifo(), a.fifo()));
        }
      }
    }
    return pairs;
  }

  /** True when {@code later} is written only after {@code earlier} was consumed. */
  private boolean sequential(FifoInfo earlier, FifoInfo later) {
    return later.producer().equals(earlier.consumer()) || reaches(earlier.consumer(), later.producer());
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
  private java.util.BitSet[] descendantBits;
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
      descendantBits = new java.util.BitSet[sequence.size()];
      for (int i = sequence.size() - 1; i >= 0; i--) {
        java.util.BitSet bits = new java.util.BitSet(sequence.size());
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
        members.computeIfAbsent(root, r -> new ArrayList<>()).add(new MergeResult.Member(fifo.id(), List.copyOf(pieces)));
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
