package org.cacheflow.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.cacheflow.plan.memoryplan.ProgramMemory;

import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.plan.memoryplan.MemoryPlan;

/**
 * Writes a plan's report into a directory: {@code plan.json} (everything, per buffer and per core order),
 * {@code plan.md} (explained), {@code graph.dot} and {@code graph.svg} (FIFOs coloured by strategy) and
 * {@code gantt.svg} (the per-core schedule).
 */
public final class ReportWriter {

  private ReportWriter() {
  }

  /**
   * @return the files written, in order
   * @throws InputException when the directory cannot be created or written
   */
  public static List<Path> write(MemoryPlan plan, Path directory) {
    return write(plan, directory, null, 0, "");
  }

  /**
   * The report with the program's memory: a section of {@code plan.md}, the {@code memory} object of
   * {@code plan.json}.
   *
   * @param memory the memory of the program generate would write, or null for none
   * @param limit what it may use (0: no limit), set by {@code limitSource}
   * @return the files written, in order
   * @throws InputException when the directory cannot be created or written
   */
  public static List<Path> write(MemoryPlan plan, Path directory, ProgramMemory memory, long limit,
      String limitSource) {
    return write(plan, directory, memory, limit, limitSource, List.of());
  }

  /**
   * The report with the program's memory and, when not empty, the facts the plan was made from with their sources
   * (a section of {@code plan.md}, the {@code facts} array of {@code plan.json}).
   */
  public static List<Path> write(MemoryPlan plan, Path directory, ProgramMemory memory, long limit,
      String limitSource, List<FactSource> facts) {
    List<Path> written = new ArrayList<>();
    try {
      Files.createDirectories(directory);
    } catch (IOException | UncheckedIOException e) {
      throw new InputException(SourceLocation.file(directory), "cannot create the report directory: " + e);
    }
    Map<String, Object> json = new LinkedHashMap<>(PlanJson.toJson(plan, true, true));
    String markdown = PlanMarkdown.render(plan);
    if (memory != null) {
      json.put("memory", MemoryText.json(memory, limit));
      markdown += MemoryText.markdown(memory, limit, limitSource);
    }
    if (!facts.isEmpty()) {
      json.put("facts", FactSource.json(facts));
      markdown += FactSource.markdown(facts);
    }
    written.add(write(directory.resolve("plan.json"), JsonText.print(json)));
    written.add(write(directory.resolve("plan.md"), markdown));
    written.add(write(directory.resolve("graph.dot"), GraphDrawing.dot(plan)));
    written.add(write(directory.resolve("graph.svg"), GraphDrawing.svg(plan)));
    written.add(write(directory.resolve("gantt.svg"), GanttChart.svg(plan)));
    return written;
  }

  static Path write(Path file, String text) {
    try {
      Files.writeString(file, text, StandardCharsets.UTF_8);
      return file;
    } catch (IOException | UncheckedIOException e) {
      throw new InputException(SourceLocation.file(file), "cannot write the report: " + e.getMessage());
    }
  }
}
