package org.cacheflow.report;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.plan.memoryplan.MemoryPlan;
import org.cacheflow.plan.memoryplan.PlanTotals;
import org.cacheflow.plan.memoryplan.ProgramMemory;
import org.cacheflow.plan.schedule.Schedule;
import org.cacheflow.plan.strategy.Bytes;

/**
 * The variants of a graph with dynamic parameters (one plan per combination of their values): a table of what each
 * costs (firings, makespan, buffer memory, bytes copied by the plan and by PREESM's buffer merging, the program's
 * memory) as text, Markdown and JSON, and a report folder with one sub-folder per variant.
 */
public final class VariantReport {

  /**
   * One variant's plan.
   *
   * @param values its dynamic parameters' values, by name
   * @param plan its memory plan
   * @param memory the memory of the program generate would write for it, or null
   * @param bufferBytes per core, the bytes of that program's buffers (its memory without channel slots and
   *     copy-on-write buffers), which a program holding every variant shares between the variants; empty when
   *     {@code memory} is null
   * @param channelBytes per core, the bytes of the slots of the channels it receives (primed ones not included),
   *     which a program holding every variant shares between the variants too; empty when unknown (counted with
   *     the rest of the variant's own memory)
   */
  public record Row(Map<String, String> values, MemoryPlan plan, ProgramMemory memory, List<Long> bufferBytes,
      List<Long> channelBytes) {

    public Row {
      bufferBytes = List.copyOf(bufferBytes);
      channelBytes = List.copyOf(channelBytes);
    }

    /** A row whose channel slots are not known apart from the rest of its program's memory. */
    public Row(Map<String, String> values, MemoryPlan plan, ProgramMemory memory, List<Long> bufferBytes) {
      this(values, plan, memory, bufferBytes, List.of());
    }

    /** {@code branch=0, width=16}. */
    public String label() {
      List<String> parts = new ArrayList<>();
      values.forEach((name, value) -> parts.add(name + "=" + value));
      return String.join(", ", parts);
    }

    long firings() {
      Schedule schedule = plan.schedule();
      long firings = 0;
      for (int core = 0; core < schedule.coreCount(); core++) {
        firings += schedule.orderLength(core);
      }
      return firings;
    }

    long programBytes() {
      return memory == null ? -1 : memory.totalBytes();
    }
  }

  private static final String[] HEADINGS = {"variant", "values", "firings", "makespan", "buffer memory",
      "bytes copied", "baseline copied", "preesm copied", "program memory"};

  private VariantReport() {
  }

  private static String[] cells(int index, Row row) {
    PlanTotals totals = row.plan().totals();
    return new String[] {Integer.toString(index + 1), row.label(), Long.toString(row.firings()),
        Long.toString(row.plan().schedule().makespan()), Long.toString(totals.footprintBytes()),
        Long.toString(totals.planBytesCopied()), Long.toString(totals.baselineBytesCopied()),
        Long.toString(row.plan().preesmTotals().planBytesCopied()),
        row.memory() == null ? "-" : Long.toString(row.programBytes())};
  }

  /**
   * The variants as a text table, then the largest variant's memory and the memory of the program generate writes
   * for them ({@link #programBytes(List)}).
   */
  public static List<String> lines(List<Row> rows) {
    List<String[]> table = new ArrayList<>();
    table.add(HEADINGS);
    for (int i = 0; i < rows.size(); i++) {
      table.add(cells(i, rows.get(i)));
    }
    int[] widths = new int[HEADINGS.length];
    for (String[] line : table) {
      for (int c = 0; c < line.length; c++) {
        widths[c] = Math.max(widths[c], line[c].length());
      }
    }
    List<String> lines = new ArrayList<>();
    lines.add(rows.size() + " variants (one plan per combination of the dynamic parameters' values; bytes per "
        + "iteration):");
    for (String[] line : table) {
      StringBuilder text = new StringBuilder(" ");
      for (int c = 0; c < line.length; c++) {
        text.append(' ').append(c == 1 ? String.format("%-" + widths[c] + "s", line[c])
            : String.format("%" + widths[c] + "s", line[c]));
      }
      lines.add(text.toString().stripTrailing());
    }
    lines.add(largest(rows));
    return lines;
  }

  private static String largest(List<Row> rows) {
    long buffers = 0;
    long program = 0;
    for (Row row : rows) {
      buffers = Math.max(buffers, row.plan().totals().footprintBytes());
      program = Math.max(program, row.programBytes());
    }
    long shared = programBytes(rows);
    long sum = rows.stream().mapToLong(Row::programBytes).sum();
    return String.format(Locale.ROOT, "largest variant: buffer memory %s%s", Bytes.human(buffers), program < 0 ? ""
        : ", program memory " + Bytes.human(program)) + (shared < 0 ? "" : "; one program holding every variant "
        + "(generate with these values): " + Bytes.human(shared) + ", the largest variant's buffers and channel "
        + "slots on each core and the largest variant's copy-on-write buffers (variants never run at the same time; "
        + "the variants' programs add up to " + Bytes.human(sum) + ")");
  }

  /**
   * The memory of the program generate writes for every variant: per core the largest of the variants' buffers
   * there and the largest of their channel slots there, plus the largest of their copy-on-write buffers (one memory
   * file); -1 when a
   * variant's program is not known.
   */
  public static long programBytes(List<Row> rows) {
    List<Long> largestBuffers = new ArrayList<>();
    List<Long> largestSlots = new ArrayList<>();
    long largestCow = 0;
    long others = 0;
    for (Row row : rows) {
      if (row.memory() == null) {
        return -1;
      }
      long cow = row.memory().copyOnWriteBytes();
      largestCow = Math.max(largestCow, cow);
      others += row.programBytes() - addLargest(largestBuffers, row.bufferBytes())
          - addLargest(largestSlots, row.channelBytes()) - cow;
    }
    return others + largestBuffers.stream().mapToLong(Long::longValue).sum()
        + largestSlots.stream().mapToLong(Long::longValue).sum() + largestCow;
  }

  /** Keeps per core the largest of {@code largest} and {@code own}; returns the sum of {@code own}. */
  private static long addLargest(List<Long> largest, List<Long> own) {
    long sum = 0;
    for (int c = 0; c < own.size(); c++) {
      if (c == largest.size()) {
        largest.add(0L);
      }
      largest.set(c, Math.max(largest.get(c), own.get(c)));
      sum += own.get(c);
    }
    return sum;
  }

  /** The variants as a Markdown section, each linking to its own report. */
  public static String markdown(List<Row> rows) {
    StringBuilder text = new StringBuilder("## Variants\n\nOne plan per combination of the dynamic parameters' values "
        + "(bytes per iteration); each variant's report is in its folder.\n\n|");
    for (String heading : HEADINGS) {
      text.append(' ').append(heading).append(" |");
    }
    text.append("\n|");
    text.append(" --- |".repeat(HEADINGS.length)).append('\n');
    for (int i = 0; i < rows.size(); i++) {
      String[] cells = cells(i, rows.get(i));
      cells[0] = "[" + cells[0] + "](" + folder(i) + "/plan.md)";
      text.append("| ").append(String.join(" | ", cells)).append(" |\n");
    }
    return text.append('\n').append(largest(rows)).append('\n').toString();
  }

  /** The variants as JSON: values and costs of each; {@code plans} adds each variant's plan ({@link PlanJson}). */
  public static List<Object> json(List<Row> rows, boolean plans) {
    List<Object> json = new ArrayList<>();
    for (Row row : rows) {
      Map<String, Object> variant = new LinkedHashMap<>();
      variant.put("values", new LinkedHashMap<String, Object>(row.values()));
      variant.put("firings", row.firings());
      variant.put("makespan", row.plan().schedule().makespan());
      variant.put("footprintBytes", row.plan().totals().footprintBytes());
      variant.put("planBytesCopied", row.plan().totals().planBytesCopied());
      variant.put("baselineBytesCopied", row.plan().totals().baselineBytesCopied());
      variant.put("preesmBytesCopied", row.plan().preesmTotals().planBytesCopied());
      if (row.memory() != null) {
        variant.put("programBytes", row.programBytes());
        variant.put("bufferBytesPerCore", row.bufferBytes());
        variant.put("channelBytesPerCore", row.channelBytes());
      }
      if (plans) {
        variant.put("plan", PlanJson.toJson(row.plan(), true, false));
      }
      json.add(variant);
    }
    return json;
  }

  /**
   * {@code {"variants": [...], "programBytes": N}}: {@link #json(List, boolean)} and, when known, the memory of the
   * program holding every variant ({@link #programBytes(List)}).
   */
  public static Map<String, Object> document(List<Row> rows, boolean plans) {
    Map<String, Object> document = new LinkedHashMap<>();
    document.put("variants", json(rows, plans));
    long program = programBytes(rows);
    if (program >= 0) {
      document.put("programBytes", program);
    }
    return document;
  }

  /**
   * Writes the report of every variant into {@code variant-N/} of {@code directory}, then {@code plan.md} (the
   * variants table) and {@code plan.json} ({@code {"variants": [...]}}) there.
   *
   * @return the files written, in order
   * @throws InputException when the directory cannot be created or written
   */
  public static List<Path> write(List<Row> rows, Path directory, long limit, String limitSource) {
    List<Path> written = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      Row row = rows.get(i);
      written.addAll(ReportWriter.write(row.plan(), directory.resolve(folder(i)), row.memory(), limit, limitSource));
    }
    String title = "# Plan of " + rows.size() + " variants\n\n";
    written.add(ReportWriter.write(directory.resolve("plan.md"), title + markdown(rows)));
    written.add(ReportWriter.write(directory.resolve("plan.json"), JsonText.print(document(rows, false))));
    return written;
  }

  private static String folder(int index) {
    return "variant-" + (index + 1);
  }
}
