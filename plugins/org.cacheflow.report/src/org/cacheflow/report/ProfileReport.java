package org.cacheflow.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.google.gson.GsonBuilder;

import org.cacheflow.io.profile.ProfileFile;
import org.cacheflow.plan.strategy.Bytes;

/**
 * A profile's files: {@code profile.json} (read back by {@code --profile}) and {@code profile.md}, the readable report:
 * how it was measured and at what cost, the contradictions (a declared annotation the run disproves), the suggested
 * annotations, time per firing per actor, what each port's firings did, and the FIFOs' re-read distances.
 */
public final class ProfileReport {

  /** The files written and the findings, one line each. */
  public record Written(Path json, Path markdown, List<String> contradictions, List<String> suggestions) {
  }

  private ProfileReport() {
  }

  /**
   * Writes {@code profile.json}, {@code profile.md} and {@code timings.scenario.xml} (the measured medians as a
   * PREESM scenario's timing section, in ns, for the core type {@code coreType}) into {@code dir}.
   */
  public static Written write(ProfileFile profile, Path dir, String coreType) {
    List<String> contradictions = contradictions(profile);
    List<String> suggestions = suggestions(profile);
    Path json = dir.resolve("profile.json");
    Path markdown = dir.resolve("profile.md");
    try {
      Files.createDirectories(dir);
      Files.writeString(json, new GsonBuilder().setPrettyPrinting().create().toJson(profile) + "\n",
          StandardCharsets.UTF_8);
      Files.writeString(markdown, markdown(profile, contradictions, suggestions), StandardCharsets.UTF_8);
      Files.writeString(dir.resolve("timings.scenario.xml"), scenarioTimings(profile, coreType),
          StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the profile into " + dir + ": " + e.getMessage(), e);
    }
    return new Written(json, markdown, contradictions, suggestions);
  }

  /** Every declaration the run disproves, naming actor and port. */
  public static List<String> contradictions(ProfileFile profile) {
    List<String> lines = new ArrayList<>();
    for (ProfileFile.ActorProfile actor : profile.actors()) {
      for (ProfileFile.PortProfile port : actor.ports()) {
        String where = actor.actor() + "." + port.port();
        boolean readOnly = port.declared().equals("READ_ONLY") || port.declared().equals("UNUSED");
        if (port.input() && readOnly && port.measured().equals("NONE")) {
          lines.add(where + " is declared " + port.declared() + " but the actor writes it (" + writtenWords(port)
              + "): copy-on-write there would fault");
        } else if (port.declared().equals("UNUSED") && !port.measured().equals("UNUSED")) {
          lines.add(where + " is declared UNUSED but the actor " + (port.input() ? "reads" : "writes") + " it");
        } else if (!port.input() && port.declared().equals("WRITE_ONLY") && port.readFirstFirings() > 0) {
          lines.add(where + " is declared WRITE_ONLY but the actor reads it before writing it in "
              + port.readFirstFirings() + " of " + port.firings() + " firings");
        }
      }
    }
    return lines;
  }

  private static String writtenWords(ProfileFile.PortProfile port) {
    return port.writtenFirings() > 0 ? "changed in " + port.writtenFirings() + " firings"
        : "stored to in " + port.storedFirings() + " firings";
  }

  /** The annotations the run suggests where the graph declares none. */
  public static List<String> suggestions(ProfileFile profile) {
    List<String> lines = new ArrayList<>();
    for (ProfileFile.ActorProfile actor : profile.actors()) {
      for (ProfileFile.PortProfile port : actor.ports()) {
        if (port.declared().equals("NONE") && !port.measured().equals("NONE")) {
          lines.add(actor.actor() + "." + port.port() + ": " + port.measured());
        }
      }
    }
    return lines;
  }

  /**
   * The measured medians as a PREESM scenario's {@code <timings>} element (integer nanoseconds per firing), to paste
   * into a scenario for PREESM.
   */
  public static String scenarioTimings(ProfileFile profile, String coreType) {
    StringBuilder xml = new StringBuilder("<!-- measured by cacheflow profile: median ns per firing -->\n"
        + "<timings excelUrl=\"\">\n");
    for (ProfileFile.ActorProfile actor : profile.actors()) {
      if (actor.firings() > 0) {
        xml.append("    <timing opname=\"").append(Xml.escape(coreType)).append("\" time=\"")
            .append(Math.max(1, Math.round(actor.time().medianNs()))).append("\" vertexname=\"")
            .append(Xml.escape(actor.actor())).append("\"/>\n");
      }
    }
    return xml.append("</timings>\n").toString();
  }

  static String markdown(ProfileFile profile, List<String> contradictions, List<String> suggestions) {
    StringBuilder md = new StringBuilder();
    md.append("# Profile of ").append(profile.graph()).append("\n\n");
    md.append(profile.iterations()).append(" iterations on ").append(profile.cores())
        .append(profile.cores() == 1 ? " core" : " cores").append(", the real actors, plain copies between them.\n\n");
    md.append("## How it was measured\n\n").append(profile.instrumentation().granularity()).append(".\n\n");
    md.append("| run | wall time | slowdown |\n|---|---:|---:|\n");
    for (ProfileFile.RunCost run : profile.instrumentation().runs()) {
      md.append("| ").append(run.mode()).append(" | ").append(fixed(run.seconds(), 3)).append(" s | ")
          .append(fixed(run.slowdown(), 2)).append("x |\n");
    }
    md.append("\n## Contradictions\n\n");
    list(md, contradictions, "none: every declaration agrees with the run");
    md.append("\n## Digests over unwritten bytes\n\n");
    list(md, profile.unwrittenDigests(), "none: every byte --validate digests is written by an actor");
    md.append("\n## Suggested annotations\n\n");
    list(md, suggestions, "none");
    md.append(timeChart(profile));
    md.append("\n## Time per firing\n\n| actor | firings | median | q1 - q3 | min - max | CV |\n"
        + "|---|---:|---:|---:|---:|---:|\n");
    for (ProfileFile.ActorProfile actor : profile.actors()) {
      ProfileFile.TimeStats t = actor.time();
      md.append("| ").append(actor.actor()).append(" | ").append(actor.firings()).append(" | ")
          .append(ns(t.medianNs())).append(" | ").append(ns(t.q1Ns())).append(" - ").append(ns(t.q3Ns()))
          .append(" | ").append(ns(t.minNs())).append(" - ").append(ns(t.maxNs())).append(" | ")
          .append(fixed(t.cv(), 2)).append(" |\n");
    }
    md.append("\n## Ports\n\nPer firing: bytes the port gives, bytes written (outputs) or changed (inputs), bytes on "
        + "pages read. Unwritten: output bytes no firing wrote.\n\n| actor.port | dir | bytes | written | read "
        + "(pages) | stored | read first | unwritten | declared | measured |\n"
        + "|---|---|---:|---:|---:|---:|---:|---:|---|---|\n");
    for (ProfileFile.ActorProfile actor : profile.actors()) {
      for (ProfileFile.PortProfile p : actor.ports()) {
        md.append("| ").append(actor.actor()).append('.').append(p.port()).append(" | ")
            .append(p.input() ? "in" : "out").append(" | ").append(p.bytesPerFiring()).append(" | ")
            .append(fixed(p.writtenBytesPerFiring(), 0)).append(" | ")
            .append(p.readBytesPerFiring() < 0 ? "-" : fixed(p.readBytesPerFiring(), 0)).append(" | ")
            .append(p.input() ? p.storedFirings() + "/" + p.firings() : "").append(" | ")
            .append(p.input() ? "" : p.readFirstFirings() + "/" + p.firings()).append(" | ")
            .append(p.input() ? "" : unwritten(p)).append(" | ").append(p.declared()).append(" | ")
            .append(p.measured()).append(" |\n");
      }
    }
    md.append("\n## Re-read distances\n\nBytes the firings between a FIFO's write and its first re-read touch (the "
        + "profiled order); a distance beyond the writer's cache is where a pre-store pays (DirtBuster's pattern).\n\n"
        + "| FIFO | bytes | distance | same core |\n|---|---:|---:|---|\n");
    for (ProfileFile.BufferProfile b : profile.buffers()) {
      md.append("| ").append(b.fifo()).append(" | ").append(Bytes.human(b.bytes())).append(" | ")
          .append(Bytes.human(b.reReadDistanceBytes())).append(" | ").append(b.sameCore() ? "yes" : "no")
          .append(" |\n");
    }
    return md.toString();
  }

  /** The widest bar of {@link #timeChart}, in characters. */
  static final int BAR_WIDTH = 40;

  /** Eighths of a character cell, for the bars' last character. */
  private static final String EIGHTHS = " \u258f\u258e\u258d\u258c\u258b\u258a\u2589";

  /**
   * The picture of where an iteration's time goes: per actor, its median time per firing times its firings per
   * iteration, as a bar of Unicode blocks (eighths of a character) scaled to the largest, with its share of the
   * sum. Actors in the order of the largest first; nothing when no actor was timed.
   */
  static String timeChart(ProfileFile profile) {
    int iterations = Math.max(1, profile.iterations());
    List<ProfileFile.ActorProfile> timed = profile.actors().stream().filter(a -> a.firings() > 0
        && a.time().medianNs() > 0).sorted((a, b) -> Double.compare(perIteration(b, iterations),
            perIteration(a, iterations))).toList();
    if (timed.isEmpty()) {
      return "";
    }
    double largest = perIteration(timed.get(0), iterations);
    double sum = timed.stream().mapToDouble(a -> perIteration(a, iterations)).sum();
    int nameWidth = timed.stream().mapToInt(a -> a.actor().length()).max().orElse(0);
    StringBuilder md = new StringBuilder("\n## Where an iteration's time goes\n\nMedian time per firing times "
        + "firings per iteration, by actor (the bars are to scale; the sum is the actors' work, not the wall time of "
        + "an iteration on several cores).\n\n```\n");
    for (ProfileFile.ActorProfile actor : timed) {
      double ns = perIteration(actor, iterations);
      md.append(String.format(Locale.ROOT, "%-" + nameWidth + "s ", actor.actor())).append(bar(ns / largest))
          .append(' ').append(ns(ns)).append(" (").append(fixed(100 * ns / sum, 1)).append("%)\n");
    }
    return md.append("```\n").toString();
  }

  /** A bar of {@code fraction} of {@link #BAR_WIDTH} characters, padded to that width. */
  static String bar(double fraction) {
    long eighths = Math.round(Math.max(0, Math.min(1, fraction)) * BAR_WIDTH * 8);
    StringBuilder bar = new StringBuilder("\u2588".repeat((int) (eighths / 8)));
    if (eighths % 8 != 0) {
      bar.append(EIGHTHS.charAt((int) (eighths % 8)));
    }
    while (bar.length() < BAR_WIDTH) {
      bar.append(' ');
    }
    return bar.toString();
  }

  private static double perIteration(ProfileFile.ActorProfile actor, int iterations) {
    return actor.time().medianNs() * actor.firings() / iterations;
  }

  private static String unwritten(ProfileFile.PortProfile p) {
    if (p.unwrittenBytes() == 0) {
      return "0";
    }
    String share = fixed(100.0 * p.unwrittenBytes() / Math.max(1, p.bytesPerFiring()), 0) + "%";
    List<String> ranges = p.unwrittenRanges().stream().limit(3).map(r -> r.get(0) + "-" + r.get(1)).toList();
    return p.unwrittenBytes() + " (" + share + ": " + String.join(", ", ranges)
        + (p.unwrittenRanges().size() > 3 ? ", ..." : "") + ")";
  }

  private static void list(StringBuilder md, List<String> lines, String none) {
    if (lines.isEmpty()) {
      md.append(none).append("\n");
    }
    for (String line : lines) {
      md.append("- ").append(line).append("\n");
    }
  }

  private static String ns(double ns) {
    if (ns >= 1e6) {
      return fixed(ns / 1e6, 2) + " ms";
    }
    return ns >= 1e3 ? fixed(ns / 1e3, 1) + " us" : fixed(ns, 0) + " ns";
  }

  private static String fixed(double value, int digits) {
    return String.format(Locale.ROOT, "%." + digits + "f", value);
  }
}
