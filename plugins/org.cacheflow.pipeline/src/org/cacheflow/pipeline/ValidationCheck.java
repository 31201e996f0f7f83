package org.cacheflow.pipeline;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * A program's output against a PREESM project's {@code .validation.hash}, as PREESM's CI compares them: the lines
 * {@code preesm_md5_<buffer> : <32 hex digits>} found in the output (anywhere on a line, as {@code grep -o} finds
 * them), sorted in byte order, must be the file's lines exactly. The differences are given per buffer: a digest that
 * differs, a buffer the file has and the output not, and the reverse.
 *
 * <p>One difference is forgiven, and reported as a note: PREESM names buffers whose cut port names collide
 * {@code <name>__0}, {@code <name>__1}, ... in the order its memory allocation lists them (a hash map's order in
 * PREESM's older code generator, the allocator's in the newer), which cacheflow does not reproduce (it numbers them
 * in edge order, {@code PreesmBufferNames}). Buffers of one name but their number are a group; when the file and
 * the output give a group the same numbers and the same digests, only paired differently, the group matches.
 *
 * @param hashFile the file compared with
 * @param expected the file's lines, by buffer
 * @param found the output's lines, by buffer
 * @param differences one line per difference, in buffer order; empty when the output matches
 * @param renumbered the groups that match only once renumbered, one note each, in name order
 */
public record ValidationCheck(Path hashFile, Map<String, String> expected, Map<String, String> found,
    List<String> differences, List<String> renumbered) {

  /** A buffer name's number suffix, {@code __<n>}, PREESM's {@code generateUniqueBufferName} appends. */
  private static final Pattern NUMBERED = Pattern.compile("(.*)__(\\d+)");

  /** The name of the file a PREESM project keeps its expected digests in. */
  public static final String HASH_FILE = ".validation.hash";

  private static final Pattern LINE = Pattern.compile("preesm_md5_(\\w+)\\s:\\s([a-fA-F0-9]{32})");

  /** Whether the output holds exactly the file's lines. */
  public boolean matches() {
    return differences.isEmpty();
  }

  /**
   * Compares a program's output with a project's {@code .validation.hash} ({@code project} may also be the file
   * itself).
   *
   * @throws InputException when the file is missing, unreadable, or has a line that is not a digest line
   */
  static ValidationCheck of(Path project, String output) {
    Path file = Files.isDirectory(project) ? project.resolve(HASH_FILE) : project;
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new InputException(new SourceLocation(file.toString(), 0, 0), "cannot read the validation file: "
          + (Files.exists(file) ? e.getMessage() : "no such file"), e);
    }
    Map<String, String> expected = new TreeMap<>();
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).isBlank()) {
        continue;
      }
      Matcher m = LINE.matcher(lines.get(i));
      if (!m.matches()) {
        throw new InputException(new SourceLocation(file.toString(), i + 1, 1), "not a digest line "
            + "(preesm_md5_<buffer> : <32 hex digits>): '" + lines.get(i) + "'");
      }
      expected.put(m.group(1), m.group(2));
    }
    Map<String, String> found = new TreeMap<>();
    Matcher m = LINE.matcher(output);
    while (m.find()) {
      found.put(m.group(1), m.group(2));
    }
    List<String> renumbered = new ArrayList<>();
    Map<String, String> paired = new TreeMap<>(found);
    for (Map.Entry<String, List<String>> group : groups(expected, found).entrySet()) {
      List<String> names = group.getValue();
      List<String> want = digests(expected, names);
      List<String> got = digests(found, names);
      if (!want.equals(got) && want.stream().sorted().toList().equals(got.stream().sorted().toList())) {
        renumbered.add(group.getKey() + "__<n>: " + names.size() + " buffers with the file's digests, numbered in "
            + "another order than PREESM's");
        names.forEach(name -> paired.put(name, expected.get(name)));
      }
    }
    return new ValidationCheck(file, expected, found, differences(expected, paired), List.copyOf(renumbered));
  }

  /**
   * Buffers of one name but their number, by that name: only groups of two or more whose names the file and the
   * output both have (none missing on either side).
   */
  private static Map<String, List<String>> groups(Map<String, String> expected, Map<String, String> found) {
    Map<String, List<String>> groups = new TreeMap<>();
    for (String name : new TreeSet<>(expected.keySet())) {
      Matcher m = NUMBERED.matcher(name);
      if (m.matches()) {
        groups.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(name);
      }
    }
    groups.values().removeIf(names -> names.size() < 2 || !names.stream().allMatch(found::containsKey)
        || found.keySet().stream().filter(n -> !names.contains(n)).anyMatch(n -> sameGroup(n, names.get(0))));
    return groups;
  }

  private static boolean sameGroup(String name, String other) {
    Matcher a = NUMBERED.matcher(name);
    Matcher b = NUMBERED.matcher(other);
    return a.matches() && b.matches() && a.group(1).equals(b.group(1));
  }

  private static List<String> digests(Map<String, String> lines, List<String> names) {
    return names.stream().map(name -> lines.get(name).toLowerCase(Locale.ROOT)).toList();
  }

  private static List<String> differences(Map<String, String> expected, Map<String, String> found) {
    Map<String, String> all = new TreeMap<>(expected);
    found.forEach(all::putIfAbsent);
    List<String> differences = new ArrayList<>();
    for (String buffer : all.keySet()) {
      String want = expected.get(buffer);
      String got = found.get(buffer);
      if (want == null) {
        differences.add("+ preesm_md5_" + buffer + " : " + got + "   (printed, not in the file)");
      } else if (got == null) {
        differences.add("- preesm_md5_" + buffer + " : " + want + "   (in the file, not printed)");
      } else if (!want.equals(got)) {
        differences.add("- preesm_md5_" + buffer + " : " + want + "   (the file)");
        differences.add("+ preesm_md5_" + buffer + " : " + got + "   (printed)");
      }
    }
    return differences;
  }
}
