package org.cacheflow.scripts;

import java.util.ArrayList;
import java.util.List;

import org.cacheflow.scripts.lang.ScriptObject.CallSite;

/**
 * The result of running one memory script for one actor instance: its buffers, the matches in call order
 * and the marks.
 */
public record ScriptRun(String scriptFile, ScriptEnvironment environment, List<ScriptBuffer> inputs,
    List<ScriptBuffer> outputs, List<Match> matches, List<MarkRecord> marks, long steps) {

  public List<ScriptBuffer> buffers() {
    return ScriptBuffer.concat(inputs, outputs);
  }

  /** Collects matches and marks while a script runs; refuses contradicting marks at once. */
  static final class Recorder {
    final List<Match> matches = new ArrayList<>();
    final List<MarkRecord> marks = new ArrayList<>();

    void match(Match match) {
      matches.add(match);
    }

    void mark(MarkRecord mark, CallSite site) {
      for (MarkRecord earlier : marks) {
        if (earlier.fifoId().equals(mark.fifoId()) && earlier.mark().contradicts(mark.mark())) {
          throw site.error(FifoMarks.contradiction(earlier, mark));
        }
      }
      marks.add(mark);
    }
  }
}
