package org.cacheflow.codegen.model;

import java.util.List;

/**
 * A FIFO whose data the validation mode digests: one MD5 context per consumer firing ({@code parts}); the
 * printed digest is the MD5 of the data itself when there is one part, else the MD5 of the parts' digests
 * in firing order.
 *
 * @param index position in {@link CodeProject#sinks()}
 * @param label the FIFO as users name it ({@code source.port -> target.port})
 * @param parts consumer firings
 * @param firstPart index of its first context in the generated array of all sinks' contexts
 * @param preesmNames per part, the buffer's name as PREESM's code generator names the sink buffer of that firing
 *     ({@code --validate=preesm}); empty when PREESM digests none (the FIFOs of persistent delays)
 * @param note a line {@code --validate} prints after the digest (e.g. the bytes of it no actor writes, from a
 *     profile), or null
 */
public record Sink(int index, String label, int parts, int firstPart, List<String> preesmNames, String note) {

  public Sink {
    preesmNames = List.copyOf(preesmNames);
    if (!preesmNames.isEmpty() && preesmNames.size() != parts) {
      throw new IllegalArgumentException(preesmNames.size() + " PREESM names for " + parts + " parts");
    }
  }

  /** A sink without a note. */
  public Sink(int index, String label, int parts, int firstPart, List<String> preesmNames) {
    this(index, label, parts, firstPart, preesmNames, null);
  }

  /** A sink PREESM does not digest. */
  public Sink(int index, String label, int parts, int firstPart) {
    this(index, label, parts, firstPart, List.of());
  }

  /** This sink with a note printed after its digest. */
  public Sink withNote(String value) {
    return new Sink(index, label, parts, firstPart, preesmNames, value);
  }
}
