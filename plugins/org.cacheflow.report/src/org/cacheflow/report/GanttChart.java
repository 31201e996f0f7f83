package org.cacheflow.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.cacheflow.plan.mapping.Core;
import org.cacheflow.plan.memoryplan.MemoryPlan;
import org.cacheflow.plan.schedule.Schedule;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.plan.strategy.FifoNames;

/**
 * An SVG Gantt chart of the static schedule: one row per core, time left to right, one bar per run of
 * consecutive firings of the same actor (labelled {@code actor ×n} when wide enough; hover for details).
 * Fork, join, init and end vertices are drawn grey. Bars are merged further when a core has more runs than
 * can be drawn.
 */
public final class GanttChart {

  static final double WIDTH = 1200;
  static final double ROW = 34;
  static final double LEFT = 110;
  static final int MAX_BARS_PER_CORE = 1500;

  private GanttChart() {
  }

  /** A drawn bar: consecutive firings of one actor on one core. */
  record Bar(String actor, boolean inserted, long start, long end, int firings) {
  }

  public static String svg(MemoryPlan plan) {
    Schedule schedule = plan.schedule();
    Srdag srdag = plan.srdag();
    FifoNames names = new FifoNames(srdag.flatGraph());
    long makespan = Math.max(1, schedule.makespan());
    double scale = (WIDTH - LEFT - 20) / makespan;
    int cores = schedule.coreCount();
    double top = 60;
    double height = top + cores * ROW + 50;
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
        + "viewBox=\"0 0 %.0f %.0f\" font-family=\"Helvetica, Arial, sans-serif\">%n", WIDTH, height, WIDTH, height));
    out.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    out.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"22\" font-size=\"16\" font-weight=\"bold\">%s</text>%n",
        Xml.escape(srdag.flatGraph().name() + " — static schedule of one iteration (" + schedule.policy().label
            + " mapping, makespan " + makespan + " time units)")));
    out.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"42\" font-size=\"11\" fill=\"#555\">%s</text>%n",
        Xml.escape("each row is a core, bars are firings in order (grey: forks, joins, delay init/end); time in the "
            + "scenario's units" + (NodeReport.shown(plan) ? "; " + NodeReport.summary(plan) : ""))));
    for (int c = 0; c < cores; c++) {
      Core core = schedule.platform().core(c);
      double y = top + c * ROW;
      out.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"%.1f\" font-size=\"12\">%s</text>%n", y + ROW / 2 + 4,
          Xml.escape(NodeReport.shown(plan) ? core.name() + " (node " + core.node() + ")" : core.name())));
      out.append(String.format(Locale.ROOT, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#ddd\"/>%n",
          LEFT, y + ROW - 2, WIDTH - 20, y + ROW - 2));
      for (Bar bar : bars(schedule, names, c)) {
        double x0 = LEFT + bar.start() * scale;
        double w = Math.max(0.8, (bar.end() - bar.start()) * scale);
        String color = bar.inserted() ? "#adb5bd" : color(bar.actor());
        String label = bar.firings() > 1 ? bar.actor() + " ×" + bar.firings() : bar.actor();
        out.append(String.format(Locale.ROOT, "<g><title>%s</title><rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" "
            + "height=\"%.1f\" fill=\"%s\" stroke=\"white\" stroke-width=\"0.5\"/>",
            Xml.escape(label + " on " + core.name() + ": " + bar.start() + " to " + bar.end()), x0, y + 4, w, ROW - 10,
            color));
        if (w > Xml.textWidth(label, 10) + 6) {
          out.append(String.format(Locale.ROOT, "<text x=\"%.2f\" y=\"%.1f\" font-size=\"10\" fill=\"white\">%s</text>",
              x0 + 3, y + ROW / 2 + 3, Xml.escape(label)));
        }
        out.append("</g>\n");
      }
    }
    double axisY = top + cores * ROW + 14;
    for (int i = 0; i <= 10; i++) {
      long t = makespan * i / 10;
      double x = LEFT + t * scale;
      out.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#999\"/>"
          + "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"middle\" fill=\"#555\">%d</text>%n", x,
              axisY - 6,
          x, axisY, x, axisY + 12, t));
    }
    out.append("</svg>\n");
    return out.toString();
  }

  /** The bars of a core: runs of the same actor; merged further until few enough to draw. */
  static List<Bar> bars(Schedule schedule, FifoNames names, int core) {
    Srdag srdag = schedule.srdag();
    List<Bar> bars = new ArrayList<>();
    for (int i = 0; i < schedule.orderLength(core); i++) {
      int v = schedule.vertexAt(core, i);
      boolean inserted = srdag.isInserted(v);
      String actor = inserted ? "fork/join/delay" : names.relative(srdag.vertexActorPath(v));
      Bar last = bars.isEmpty() ? null : bars.get(bars.size() - 1);
      if (last != null && last.actor().equals(actor)) {
        bars.set(bars.size() - 1, new Bar(actor, inserted, last.start(), schedule.end(v), last.firings() + 1));
      } else {
        bars.add(new Bar(actor, inserted, schedule.start(v), schedule.end(v), 1));
      }
    }
    while (bars.size() > MAX_BARS_PER_CORE) {
      List<Bar> merged = new ArrayList<>();
      for (int i = 0; i < bars.size(); i += 2) {
        if (i + 1 < bars.size()) {
          Bar a = bars.get(i);
          Bar b = bars.get(i + 1);
          String actor = a.actor().equals(b.actor()) ? a.actor() : "several actors";
          merged.add(new Bar(actor, a.inserted() && b.inserted(), a.start(), b.end(), a.firings() + b.firings()));
        } else {
          merged.add(bars.get(i));
        }
      }
      bars = merged;
    }
    return bars;
  }

  /** A stable colour per actor name. */
  static String color(String actor) {
    int hash = actor.hashCode();
    double hue = Math.floorMod(hash, 360) / 60.0;
    double value = 0.72;
    double chroma = value * 0.55;
    double second = chroma * (1 - Math.abs(hue % 2 - 1));
    double[] rgb = switch ((int) hue) {
      case 0 -> new double[] {chroma, second, 0};
      case 1 -> new double[] {second, chroma, 0};
      case 2 -> new double[] {0, chroma, second};
      case 3 -> new double[] {0, second, chroma};
      case 4 -> new double[] {second, 0, chroma};
      default -> new double[] {chroma, 0, second};
    };
    double m = value - chroma;
    return String.format("#%02x%02x%02x", Math.round((rgb[0] + m) * 255), Math.round((rgb[1] + m) * 255),
        Math.round((rgb[2] + m) * 255));
  }
}
