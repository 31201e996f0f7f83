package org.cacheflow.scripts;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks the matches of one script run as PREESM's ScriptRunner does before merging:
 * <ul>
 * <li>every match is reciprocal: the remote buffer has the same match seen from its side;</li>
 * <li>matches link an input with an output, never two inputs or two outputs;</li>
 * <li>no range of an output buffer is matched more than once (an input range may be, e.g. by a broadcast).</li>
 * </ul>
 * The virtual-token rule (virtual tokens on one side only) is enforced when a match is made. Messages are in
 * bytes when the ranges are byte-aligned.
 */
public final class MatchChecker {

  private MatchChecker() {
  }

  /** The problems found; an empty list means the result is accepted. */
  public static List<String> check(ScriptRun run, CheckPolicy policy) {
    List<String> problems = new ArrayList<>();
    if (policy == CheckPolicy.NONE) {
      return problems;
    }
    Map<ScriptBuffer, List<Match>> tables = tables(run);
    boolean thorough = policy == CheckPolicy.THOROUGH;

    List<String> nonReciprocal = new ArrayList<>();
    // hashed, since a broadcast or a split may hold thousands of matches in one table
    Map<ScriptBuffer, Set<Match>> lookup = new HashMap<>();
    for (Map.Entry<ScriptBuffer, List<Match>> table : tables.entrySet()) {
      for (Match match : table.getValue()) {
        Set<Match> remoteTable = lookup.computeIfAbsent(match.remote(),
            buffer -> new HashSet<>(tables.getOrDefault(buffer, List.of())));
        if (!remoteTable.contains(match.reciprocal())) {
          nonReciprocal.add("match " + match + " has no reciprocal match in " + match.remote());
        }
      }
    }
    report(problems, nonReciprocal, thorough,
        "one or more matches are not reciprocal; set matches only with the Buffer.matchWith() methods");

    List<String> siblings = new ArrayList<>();
    for (Match match : run.matches()) {
      if (match.local().direction() == match.remote().direction()) {
        String kind = match.local().direction() == ScriptBuffer.Direction.INPUT ? "an input to another input"
            : "an output to another output";
        siblings.add("match " + match + " links " + kind + "; match only inputs with outputs");
      }
    }
    report(problems, siblings, thorough,
        "one or more matches link an input to another input or an output to another output;"
            + " match only inputs with outputs");

    List<String> multiple = new ArrayList<>();
    for (ScriptBuffer output : run.outputs()) {
      for (long[] range : multiplyMatched(tables.getOrDefault(output, List.of()))) {
        multiple.add("range " + describe(range) + " of output " + output + " is matched more than once");
      }
    }
    report(problems, multiple, thorough, "matching a range of an output buffer more than once is not allowed");
    return problems;
  }

  private static void report(List<String> problems, List<String> found, boolean thorough, String summary) {
    if (found.isEmpty()) {
      return;
    }
    if (thorough) {
      problems.addAll(found);
    } else {
      problems.add(summary);
    }
  }

  /** Each buffer's matches seen from its side, as PREESM's match tables hold them. */
  static Map<ScriptBuffer, List<Match>> tables(ScriptRun run) {
    Map<ScriptBuffer, List<Match>> tables = new LinkedHashMap<>();
    for (ScriptBuffer buffer : run.buffers()) {
      tables.put(buffer, new ArrayList<>());
    }
    for (Match match : run.matches()) {
      tables.computeIfAbsent(match.local(), b -> new ArrayList<>()).add(match);
      tables.computeIfAbsent(match.remote(), b -> new ArrayList<>()).add(match.reciprocal());
    }
    return tables;
  }

  /** The ranges (in bits) covered by more than one of the matches. */
  static List<long[]> multiplyMatched(List<Match> matches) {
    List<Match> sorted = new ArrayList<>(matches);
    sorted.sort(Comparator.comparingLong(Match::localStart).thenComparingLong(Match::localEnd));
    List<long[]> overlaps = new ArrayList<>();
    long coveredEnd = Long.MIN_VALUE;
    for (Match match : sorted) {
      if (match.localStart() < coveredEnd) {
        long end = Math.min(coveredEnd, match.localEnd());
        if (!overlaps.isEmpty() && overlaps.get(overlaps.size() - 1)[1] >= match.localStart()) {
          long[] last = overlaps.get(overlaps.size() - 1);
          last[1] = Math.max(last[1], end);
        } else {
          overlaps.add(new long[] { match.localStart(), end });
        }
      }
      coveredEnd = Math.max(coveredEnd, match.localEnd());
    }
    return overlaps;
  }

  private static String describe(long[] range) {
    if (range[0] % 8 == 0 && range[1] % 8 == 0) {
      return "[" + range[0] / 8 + ".." + range[1] / 8 + ") bytes";
    }
    return "[" + range[0] + ".." + range[1] + ") bits";
  }
}
