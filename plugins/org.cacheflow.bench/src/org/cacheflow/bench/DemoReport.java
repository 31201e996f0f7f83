package org.cacheflow.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.cacheflow.cli.Table;
import org.cacheflow.pipeline.PathText;

/**
 * The demo's results as the user sees them: the table printed on stdout with the outputs' agreement, the quality
 * line and how misses were measured; demo.csv, runs.csv and the bar chart comparison.svg.
 */
final class DemoReport {

  /** The strategy speed-ups are given against: PREESM's generated code with its memory scripts. */
  static final String REFERENCE = "preesm";

  private DemoReport() {
  }

  /**
   * Writes demo.csv, runs.csv (every timed run, {@code runsCsv}) and comparison.svg into the work folder, then prints
   * the table, the outputs' agreement, the quality line, how the misses were measured and what was written.
   */
  static void write(PrintStream out, DemoSettings settings, Map<String, DemoResult> results, CharSequence runsCsv,
      String quality, String missSource, List<String> missNotes, Path disparity) throws IOException {
    Path work = settings.work();
    int iterations = settings.iterations();
    DemoResult baseline = results.get("baseline");
    DemoResult preesm = results.get(REFERENCE);
    Table table = new Table("strategy", "ms/iter", "min-max", "speed-up vs preesm", "vs baseline", "copied MiB/iter",
        "streamed MiB/iter", "CoW pages/iter shared/faulted/re-shared",
        "pre-stores/iter", "L1D misses", "LLC misses");
    StringBuilder csv = new StringBuilder("strategy,median_ms_per_iteration,min_ms,max_ms,speedup_vs_baseline,"
        + "bytes_copied_per_iteration,bytes_streamed_per_iteration,cow_pages_per_iteration,prestores_per_iteration,"
        + "l1d_misses,llc_misses,"
        + "cow_pages_shared_per_iteration,cow_pages_reshared_per_iteration,speedup_vs_preesm\n");
    for (DemoResult result : results.values()) {
      String speedUp = baseline == null ? "-" : format("%.2fx", baseline.median() / result.median());
      table.row(result.strategy, format("%.1f", result.median()),
          format("%.1f-%.1f", result.min(), result.max()), preesm == null ? "-"
              : format("%.2fx", preesm.median() / result.median()), speedUp,
          format("%.1f", result.bytesCopied / (double) result.iterations / (1 << 20)),
          format("%.1f", result.bytesStreamed / (double) result.iterations / (1 << 20)),
          result.cowShared / result.iterations + "/" + result.cowPages / result.iterations + "/"
              + result.cowReshared / result.iterations, Long.toString(result.prestores / result.iterations),
          misses(result.l1dMisses), misses(result.llcMisses));
      csv.append(String.join(",", result.strategy, format("%.3f", result.median()), format("%.3f", result.min()),
          format("%.3f", result.max()), baseline == null ? "" : format("%.4f", baseline.median() / result.median()),
          Long.toString(result.bytesCopied / result.iterations),
              Long.toString(result.bytesStreamed / result.iterations),
          Long.toString(result.cowPages / result.iterations),
          Long.toString(result.prestores / result.iterations), result.l1dMisses < 0 ? ""
              : Long.toString(result.l1dMisses),
          result.llcMisses < 0 ? "" : Long.toString(result.llcMisses),
              Long.toString(result.cowShared / result.iterations),
          Long.toString(result.cowReshared / result.iterations),
          preesm == null ? "" : format("%.4f", preesm.median() / result.median()))).append('\n');
    }
    Files.writeString(work.resolve("demo.csv"), csv);
    Files.writeString(work.resolve("runs.csv"), runsCsv);
    Files.writeString(work.resolve("comparison.svg"), chart(results.values(), iterations, settings.runs(),
        settings.frame()));

    int runs = settings.runs();
    out.printf("stereo matching, %s, %d disparities, 2 cores: %d strategies, %d run%s of %d iteration%s each%n",
        settings.frame(), settings.frame().disparities(), results.size(), runs, runs == 1 ? "" : "s", iterations,
        iterations == 1 ? "" : "s");
    out.print(table.render("  "));
    out.println("outputs: identical (" + describeDigests(results) + ")");
    if (quality != null) {
      out.println(quality);
    }
    out.println("cache misses (data, one iteration): " + missSource);
    missNotes.forEach(note -> out.println("  note: " + note));
    out.println("wrote " + PathText.display(work.resolve("demo.csv")) + ", "
        + PathText.display(work.resolve("runs.csv"))
        + ", " + PathText.display(work.resolve("comparison.svg"))
        + (Files.exists(disparity) ? ", " + PathText.display(disparity) : ""));
  }

  /**
   * A horizontal bar chart of the median times, min-max whiskers and speed-ups against {@code preesm} (PREESM's code
   * with its memory scripts), else against the baseline when preesm did not run.
   */
  static String chart(Iterable<DemoResult> results, int iterations, int runs, DemoFrame frame) {
    List<DemoResult> rows = new ArrayList<>();
    results.forEach(rows::add);
    double scale = rows.stream().mapToDouble(DemoResult::max).max().orElse(1);
    DemoResult reference = rows.stream().filter(r -> r.strategy.equals(REFERENCE)).findFirst()
        .or(() -> rows.stream().filter(r -> r.strategy.equals("baseline")).findFirst()).orElse(null);
    int labelWidth = 130;
    int barWidth = 480;
    int rowHeight = 28;
    int top = 50;
    int height = top + rows.size() * rowHeight + 40;
    int width = labelWidth + barWidth + 150;
    StringBuilder svg = new StringBuilder();
    svg.append(format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
        + "font-family=\"sans-serif\" font-size=\"13\">%n", width, height));
    svg.append(format("<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
    svg.append(format("<text x=\"10\" y=\"22\" font-size=\"15\" font-weight=\"bold\">cacheflow demo: stereo "
        + "matching %s on 2 cores, ms per iteration (median of %d run%s of %d iteration%s, min-max)</text>%n", frame,
        runs, runs == 1 ? "" : "s", iterations, iterations == 1 ? "" : "s"));
    for (int i = 0; i < rows.size(); i++) {
      DemoResult result = rows.get(i);
      double y = top + i * rowHeight;
      double length = barWidth * result.median() / scale;
      String colour = result.strategy.equals("baseline") || result.strategy.equals(REFERENCE) ? "#999999"
          : result.strategy.equals("auto") ? "#d95f02" : "#1b9e77";
      svg.append(format("<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", labelWidth - 8, y + 17,
          escape(result.strategy)));
      svg.append(format("<rect x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>%n", labelWidth, y + 4,
          length, rowHeight - 8, colour));
      double low = labelWidth + barWidth * result.min() / scale;
      double high = labelWidth + barWidth * result.max() / scale;
      svg.append(format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>%n", low,
          y + rowHeight / 2.0, high, y + rowHeight / 2.0));
      String speedUp = reference == null ? "" : format(" (%.2fx)", reference.median() / result.median());
      svg.append(format("<text x=\"%.1f\" y=\"%.1f\">%.1f ms%s</text>%n", Math.max(high, labelWidth + length) + 6,
          y + 17, result.median(), speedUp));
    }
    svg.append(format("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>%n", labelWidth, top,
        labelWidth, top + rows.size() * rowHeight));
    String against = reference == null || reference.strategy.equals(REFERENCE)
        ? "preesm (PREESM's code with its memory scripts)" : "the baseline (PREESM's plain copies)";
    svg.append(format("<text x=\"%d\" y=\"%d\" fill=\"#555555\">speed-up against %s in brackets</text>%n",
        labelWidth, top + rows.size() * rowHeight + 24, against));
    svg.append("</svg>\n");
    return svg.toString();
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  /** The summary of the agreement: the first strategy's MD5 per sink FIFO, shortened. */
  private static String describeDigests(Map<String, DemoResult> results) {
    List<String> parts = new ArrayList<>();
    results.values().iterator().next().digests.forEach((fifo, md5) -> parts.add(fifo + " " + md5.substring(0, 8)
        + "..."));
    return "MD5 " + String.join(", ", parts);
  }

  private static String misses(long value) {
    return value < 0 ? "-" : String.format(Locale.ROOT, "%,d", value);
  }

  static String format(String pattern, Object... values) {
    return String.format(Locale.ROOT, pattern, values);
  }
}
