package org.cacheflow.scripts;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The marks of all FIFOs, gathered from the scripts of both ends of each FIFO. A mark belongs to the FIFO,
 * so the producer's {@code o_y.markWriteMostly()} and the consumer's {@code i_x.markReadMostly()} meet here,
 * and contradictions between them are reported with both locations.
 */
public final class FifoMarks {

  private final Map<String, List<MarkRecord>> byFifo = new LinkedHashMap<>();

  /** Adds a mark; throws a {@link ScriptException} at the new mark when it contradicts an earlier one. */
  public void add(MarkRecord mark) {
    List<MarkRecord> marks = byFifo.computeIfAbsent(mark.fifoId(), id -> new ArrayList<>());
    for (MarkRecord earlier : marks) {
      if (earlier.mark().contradicts(mark.mark())) {
        throw new ScriptException(mark.location(), contradiction(earlier, mark));
      }
    }
    marks.add(mark);
  }

  static String contradiction(MarkRecord earlier, MarkRecord later) {
    return "contradictory marks on FIFO " + later.fifoId() + ": " + later.vertexName() + "." + later.bufferName() + "."
        + later.mark().method + "() here, but " + earlier.vertexName() + "." + earlier.bufferName() + "."
        + earlier.mark().method + "() at " + earlier.location() + " (" + earlier.mark().label() + " and "
        + later.mark().label() + " cannot both hold)";
  }

  /** The distinct marks of a FIFO, empty when none. */
  public Set<FifoMark> marksOf(String fifoId) {
    Set<FifoMark> marks = new TreeSet<>();
    for (MarkRecord mark : byFifo.getOrDefault(fifoId, List.of())) {
      marks.add(mark.mark());
    }
    return marks;
  }

  /** Every mark, grouped by FIFO in the order FIFOs were first marked. */
  public Map<String, List<MarkRecord>> all() {
    return Collections.unmodifiableMap(byFifo);
  }
}
