package org.cacheflow.scripts.testing;

import java.util.ArrayList;
import java.util.List;

import org.cacheflow.scripts.MarkRecord;
import org.cacheflow.scripts.Match;
import org.cacheflow.scripts.ScriptRun;

/** The normalised text of matches and marks, shared by both sides of the differential tests. */
public final class ScriptRecords {

  private ScriptRecords() {
  }

  public static String match(String local, long localBit, String remote, long remoteBit, long bits) {
    return local + "[" + localBit + "+" + bits + "]=" + remote + "[" + remoteBit + "]";
  }

  public static List<String> matches(ScriptRun run) {
    List<String> records = new ArrayList<>();
    for (Match match : run.matches()) {
      records.add(match(match.local().scriptName(), match.localStart(), match.remote().scriptName(),
          match.remoteStart(), match.length()));
    }
    return records;
  }

  public static List<String> marks(ScriptRun run) {
    List<String> records = new ArrayList<>();
    for (MarkRecord mark : run.marks()) {
      records.add(mark.bufferName() + "." + mark.mark().method);
    }
    return records;
  }
}
