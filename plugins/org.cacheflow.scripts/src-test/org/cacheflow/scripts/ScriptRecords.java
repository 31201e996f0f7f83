package org.cacheflow.scripts;

import java.util.ArrayList;
import java.util.List;

/** The normalised text of matches and marks, shared by both sides of the differential tests. */
final class ScriptRecords {

  private ScriptRecords() {
  }

  static String match(String local, long localBit, String remote, long remoteBit, long bits) {
    return local + "[" + localBit + "+" + bits + "]=" + remote + "[" + remoteBit + "]";
  }

  static List<String> matches(ScriptRun run) {
    List<String> records = new ArrayList<>();
    for (Match match : run.matches()) {
      records.add(match(match.local().scriptName(), match.localStart(), match.remote().scriptName(),
          match.remoteStart(), match.length()));
    }
    return records;
  }

  static List<String> marks(ScriptRun run) {
    List<String> records = new ArrayList<>();
    for (MarkRecord mark : run.marks()) {
      records.add(mark.bufferName() + "." + mark.mark().method);
    }
    return records;
  }
}
