package org.cacheflow.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.cacheflow.plan.memoryplan.ProgramMemory;
import org.cacheflow.plan.memoryplan.ProgramMemory.Buffer;
import org.cacheflow.plan.strategy.Bytes;

/**
 * The words for a program's memory ({@link ProgramMemory}): the lines {@code plan} prints, the section of
 * {@code plan.md}, the {@code memory} object of {@code plan.json}, and the refusal of a program that does not fit.
 */
public final class MemoryText {

  private MemoryText() {
  }

  /**
   * {@code program memory: 12.5 MiB (core 0 8 MiB, core 1 4.5 MiB; pools 1.9 MiB; copies in flight 3 MiB)} and the
   * largest buffers, one per line, with the limit it is checked against when there is one.
   *
   * @param limit the memory the program may use (0: none known), named by {@code limitSource}
   */
  public static List<String> lines(ProgramMemory memory, long limit, String limitSource) {
    List<String> lines = new ArrayList<>();
    lines.add("program memory: " + size(memory.totalBytes()) + " (" + parts(memory) + ")"
        + (limit > 0 ? "; " + (memory.totalBytes() <= limit ? "fits " : "DOES NOT FIT ") + size(limit) + " ("
            + limitSource + ")" : ""));
    for (Buffer buffer : memory.largest()) {
      lines.add("  " + buffer(buffer));
    }
    return lines;
  }

  /** The {@code plan.md} section. */
  public static String markdown(ProgramMemory memory, long limit, String limitSource) {
    StringBuilder md = new StringBuilder("\n## Program memory\n\n");
    md.append("What the generated program allocates and touches while it runs, as `generate` lays it out");
    md.append(limit > 0 ? ", against " + size(limit) + " (" + limitSource + ")" : "").append(".\n\n");
    md.append("| | bytes |\n|---|---:|\n");
    md.append("| total | ").append(size(memory.totalBytes())).append(" |\n");
    for (int core = 0; core < memory.perCore().size(); core++) {
      md.append("| core ").append(core).append(" | ").append(size(memory.perCore().get(core))).append(" |\n");
    }
    md.append("| of which pools | ").append(size(sum(memory.poolBytes()))).append(" |\n");
    md.append("| of which copies in flight | ").append(size(memory.inFlightBytes())).append(" |\n");
    md.append("| copy-on-write sources | ").append(size(memory.copyOnWriteBytes())).append(" |\n");
    md.append("| address space reserved | ").append(size(memory.reservedBytes())).append(" |\n\n");
    md.append("Largest:\n\n");
    for (Buffer buffer : memory.largest()) {
      md.append("- ").append(buffer(buffer)).append('\n');
    }
    return md.toString();
  }

  /** The {@code memory} object of {@code plan.json}: every figure in bytes. */
  public static Map<String, Object> json(ProgramMemory memory, long limit) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("totalBytes", memory.totalBytes());
    json.put("perCoreBytes", memory.perCore());
    json.put("poolBytes", memory.poolBytes());
    json.put("inFlightBytes", memory.inFlightBytes());
    json.put("copyOnWriteBytes", memory.copyOnWriteBytes());
    json.put("reservedBytes", memory.reservedBytes());
    json.put("limitBytes", limit);
    List<Map<String, Object>> largest = new ArrayList<>();
    for (Buffer buffer : memory.largest()) {
      Map<String, Object> b = new LinkedHashMap<>();
      b.put("name", buffer.name());
      b.put("bytes", buffer.bytes());
      b.put("copies", buffer.copies());
      b.put("description", buffer.description());
      largest.add(b);
    }
    json.put("largest", largest);
    return json;
  }

  /**
   * Why {@code generate} refuses: {@code the program needs 8 PiB of memory (...), more than the 24 GiB target
   * zen4-vm allows (--max-memory to change it); largest: ...}.
   */
  public static String refusal(ProgramMemory memory, long limit, String limitSource) {
    StringBuilder text = new StringBuilder("the program would need " + size(memory.totalBytes()) + " of memory ("
        + parts(memory) + "), more than the " + size(limit) + " " + limitSource
        + " allows (--max-memory SIZE to allow more); nothing was written. Largest buffers: ");
    List<String> named = memory.largest().stream().map(MemoryText::buffer).toList();
    text.append(String.join("; ", named));
    return text.toString();
  }

  private static String parts(ProgramMemory memory) {
    List<String> parts = new ArrayList<>();
    List<String> cores = new ArrayList<>();
    for (int core = 0; core < memory.perCore().size(); core++) {
      cores.add("core " + core + " " + size(memory.perCore().get(core)));
    }
    parts.add(String.join(", ", cores));
    long pools = sum(memory.poolBytes());
    if (pools > 0) {
      parts.add("pools " + size(pools));
    }
    parts.add("copies in flight " + size(memory.inFlightBytes()));
    if (memory.copyOnWriteBytes() > 0) {
      parts.add("copy-on-write sources " + size(memory.copyOnWriteBytes()));
    }
    return String.join("; ", parts);
  }

  /** One buffer: {@code buf328 48 MiB: what lives in it}, with its copies when it has several. */
  public static String buffer(Buffer buffer) {
    return buffer.name() + " " + size(buffer.bytes()) + (buffer.copies() > 1 ? " (" + buffer.copies() + " copies)"
        : "") + ": " + buffer.description();
  }

  private static long sum(List<Long> values) {
    long total = 0;
    for (long value : values) {
      total = ProgramMemory.saturatedAdd(total, value);
    }
    return total;
  }

  /** {@code 1.5 MiB}; {@code more than 8 EiB} for a saturated figure. */
  public static String size(long bytes) {
    return bytes == Long.MAX_VALUE ? "more than 8 EiB" : Bytes.human(bytes);
  }
}
