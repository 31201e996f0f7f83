package org.cacheflow.report;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.cacheflow.model.ActorKind;
import org.cacheflow.analysis.FlatActor;
import org.cacheflow.analysis.FlatFifo;
import org.cacheflow.analysis.FlatGraph;
import org.cacheflow.plan.memoryplan.FifoPlan;
import org.cacheflow.plan.memoryplan.MemoryPlan;
import org.cacheflow.plan.strategy.Bytes;
import org.cacheflow.plan.strategy.FifoNames;
import org.cacheflow.plan.strategy.Strategy;

/**
 * The flat graph with its FIFOs coloured by the strategy applied to most of their bytes: as DOT (for users
 * who have Graphviz) and as an SVG laid out here (layered, left to right). Edge width grows with the bytes a
 * FIFO carries; hovering an edge or actor in a browser shows its details.
 */
public final class GraphDrawing {

  /** Above this many FIFOs, edge labels are left to tooltips so the drawing stays readable. */
  static final int LABEL_LIMIT = 120;

  private GraphDrawing() {
  }

  public static String dot(MemoryPlan plan) {
    FlatGraph graph = plan.srdag().flatGraph();
    DecisionText words = DecisionText.of(plan);
    FifoNames names = new FifoNames(graph);
    StringBuilder out = new StringBuilder();
    out.append("// ").append(graph.name()).append(": FIFOs coloured by strategy (").append(plan.strategy().label)
        .append(" plan). Render with: dot -Tsvg graph.dot -o graph-dot.svg\n");
    out.append("digraph ").append(Xml.dot(graph.name())).append(" {\n");
    out.append("  rankdir=LR;\n  node [shape=box, style=\"rounded,filled\", fillcolor=\"#f8f9fa\", "
        + "fontname=\"Helvetica\"];\n");
    out.append("  edge [fontname=\"Helvetica\", fontsize=10];\n");
    if (NodeReport.shown(plan)) {
      out.append("  label=").append(Xml.dot(NodeReport.summary(plan)))
          .append("; labelloc=t; fontname=\"Helvetica\";\n");
    }
    for (FlatActor actor : graph.actors()) {
      out.append("  a").append(actor.index()).append(" [label=").append(Xml.dot(label(names, actor)));
      if (actor.kind() != ActorKind.NORMAL) {
        out.append(", shape=ellipse, fillcolor=\"#e9ecef\"");
      }
      out.append("];\n");
    }
    for (FifoPlan fifo : plan.fifos()) {
      if (fifo.buffers() == 0) {
        continue; // it carries nothing (a rate of 0 for these parameter values)
      }
      FlatFifo f = graph.fifo(fifo.fifo());
      out.append("  a").append(f.source()).append(" -> a").append(f.target()).append(" [color=\"")
          .append(StrategyColors.of(fifo.strategy())).append("\", penwidth=").append(String.format(Locale.ROOT, "%.1f",
              penWidth(fifo.bytes())))
          .append(", label=").append(Xml.dot(Bytes.human(fifo.bytes()) + "\n" + strategyText(fifo)))
          .append(", tooltip=").append(Xml.dot(tooltip(words, plan, fifo))).append("];\n");
    }
    out.append("  subgraph cluster_legend {\n    label=\"strategies\"; fontname=\"Helvetica\";\n");
    for (Strategy strategy : used(plan)) {
      out.append("    legend_").append(strategy.label).append(" [shape=plaintext, label=")
          .append(Xml.dot(strategy.label + ": " + StrategyColors.meaning(strategy))).append(", fontcolor=\"")
          .append(StrategyColors.of(strategy)).append("\", style=\"\"];\n");
    }
    out.append("  }\n}\n");
    return out.toString();
  }

  public static String svg(MemoryPlan plan) {
    DecisionText words = DecisionText.of(plan);
    FlatGraph graph = plan.srdag().flatGraph();
    FifoNames names = new FifoNames(graph);
    List<String> labels = new ArrayList<>();
    for (FlatActor actor : graph.actors()) {
      labels.add(label(names, actor));
    }
    double header = 70;
    GraphLayout layout = new GraphLayout(graph, labels, header);
    Set<Strategy> used = used(plan);
    double width = Math.max(layout.totalWidth, 180 * used.size() + 60);
    double height = layout.totalHeight + 40;
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
        + "viewBox=\"0 0 %.0f %.0f\" font-family=\"Helvetica, Arial, sans-serif\">%n", width, height, width, height));
    out.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    out.append(String.format(Locale.ROOT, "<text x=\"%.0f\" y=\"24\" font-size=\"16\" font-weight=\"bold\">%s</text>%n",
        GraphLayout.MARGIN, Xml.escape(graph.name() + " — FIFOs by strategy (" + plan.strategy().label + " plan)"
            + (NodeReport.shown(plan) ? "; " + NodeReport.summary(plan) : ""))));
    out.append(legend(used));
    boolean labelled = plan.fifos().size() <= LABEL_LIMIT;
    for (FifoPlan fifo : plan.fifos()) {
      if (fifo.buffers() == 0) {
        continue; // it carries nothing (a rate of 0 for these parameter values)
      }
      FlatFifo f = graph.fifo(fifo.fifo());
      int s = f.source();
      int t = f.target();
      EdgePath edge = edgePath(layout, s, t);
      String color = StrategyColors.of(fifo.strategy());
      out.append(String.format(Locale.ROOT, "<g><title>%s</title><path d=\"%s\" fill=\"none\" stroke=\"%s\" "
          + "stroke-width=\"%.1f\" marker-end=\"url(#arrow-%s)\" opacity=\"0.85\"/>", Xml.escape(tooltip(words, plan,
              fifo)), edge.path(),
          color, penWidth(fifo.bytes()), fifo.strategy().label));
      if (labelled) {
        out.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"9\" text-anchor=\"middle\" "
            + "fill=\"%s\">%s</text>", edge.labelX(), edge.labelY(), color, Xml.escape(Bytes.human(fifo.bytes()) + " · "
            + strategyText(fifo))));
      }
      out.append("</g>\n");
    }
    for (FlatActor actor : graph.actors()) {
      int v = actor.index();
      boolean special = actor.kind() != ActorKind.NORMAL;
      out.append(String.format(Locale.ROOT, "<g><title>%s</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
          + "height=\"%.1f\" rx=\"%d\" fill=\"%s\" stroke=\"#495057\"/><text x=\"%.1f\" y=\"%.1f\" font-size=\"%.0f\" "
          + "text-anchor=\"middle\">%s</text></g>%n",
          Xml.escape(names.actor(actor) + " (" + actor.kind().getLiteral().toLowerCase(Locale.ROOT) + ", fires "
              + actor.repetitions() + "x per iteration)"),
          layout.x[v], layout.y[v], layout.width[v], GraphLayout.NODE_HEIGHT, special ? 14 : 4,
          special ? "#e9ecef" : "#f8f9fa", layout.x[v] + layout.width[v] / 2, layout.y[v] + 18, GraphLayout.FONT,
          Xml.escape(labels.get(v))));
    }
    out.append("</svg>\n");
    return out.toString();
  }

  /** An edge's path and where its label goes. */
  private record EdgePath(String path, double labelX, double labelY) {
  }

  /** The path of the edge from actor {@code s} to actor {@code t}: a loop, a forward curve or a back edge below. */
  private static EdgePath edgePath(GraphLayout layout, int s, int t) {
    String path;
    double mx;
    double my;
    if (s == t) {
      double x0 = layout.x[s] + layout.width[s] - 10;
      double y0 = layout.y[s];
      path = String.format(Locale.ROOT, "M %.1f %.1f C %.1f %.1f %.1f %.1f %.1f %.1f", x0, y0, x0 + 30, y0 - 40,
          x0 - 50, y0 - 40, x0 - 30, y0);
      mx = x0 - 10;
      my = y0 - 34;
    } else if (layout.layer[t] > layout.layer[s]) {
      double x0 = layout.x[s] + layout.width[s];
      double y0 = layout.y[s] + GraphLayout.NODE_HEIGHT / 2;
      double x1 = layout.x[t];
      double y1 = layout.y[t] + GraphLayout.NODE_HEIGHT / 2;
      double dx = Math.max(40, (x1 - x0) / 2);
      path = String.format(Locale.ROOT, "M %.1f %.1f C %.1f %.1f %.1f %.1f %.1f %.1f", x0, y0, x0 + dx, y0, x1 - dx,
          y1, x1, y1);
      mx = (x0 + x1) / 2;
      my = (y0 + y1) / 2 - 4;
    } else {
      // a back edge (a cycle through a delay): loop under the graph
      double x0 = layout.x[s] + layout.width[s] / 2;
      double y0 = layout.y[s] + GraphLayout.NODE_HEIGHT;
      double x1 = layout.x[t] + layout.width[t] / 2;
      double y1 = layout.y[t] + GraphLayout.NODE_HEIGHT;
      double depth = 40 + 10 * (layout.layer[s] - layout.layer[t]);
      path = String.format(Locale.ROOT, "M %.1f %.1f C %.1f %.1f %.1f %.1f %.1f %.1f", x0, y0, x0, y0 + depth, x1,
          y1 + depth, x1, y1);
      mx = (x0 + x1) / 2;
      my = Math.max(y0, y1) + depth * 0.75;
    }
    return new EdgePath(path, mx, my);
  }

  /** The legend of the strategies used, and their arrow heads. */
  private static String legend(Set<Strategy> used) {
    StringBuilder out = new StringBuilder();
    double lx = GraphLayout.MARGIN;
    for (Strategy strategy : used) {
      out.append(String.format(Locale.ROOT, "<line x1=\"%.0f\" y1=\"46\" x2=\"%.0f\" y2=\"46\" stroke=\"%s\" "
          + "stroke-width=\"4\"/>%n", lx, lx + 24, StrategyColors.of(strategy)));
      out.append(String.format(Locale.ROOT, "<text x=\"%.0f\" y=\"50\" font-size=\"11\">%s</text>%n", lx + 30,
          Xml.escape(strategy.label + ": " + StrategyColors.meaning(strategy))));
      lx += 30 + Xml.textWidth(strategy.label + ": " + StrategyColors.meaning(strategy), 11) + 24;
    }
    out.append("<defs>\n");
    for (Strategy strategy : used) {
      out.append(String.format(Locale.ROOT, "<marker id=\"arrow-%s\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" "
          + "markerUnits=\"userSpaceOnUse\" markerWidth=\"10\" markerHeight=\"10\" orient=\"auto-start-reverse\"><path"
              + " d=\"M 0 0 L 10 5 L 0 10 z\" "
          + "fill=\"%s\"/></marker>%n", strategy.label, StrategyColors.of(strategy)));
    }
    out.append("</defs>\n");
    return out.toString();
  }

  private static String label(FifoNames names, FlatActor actor) {
    String name = names.actor(actor);
    return actor.repetitions() > 1 ? name + " ×" + actor.repetitions() : name;
  }

  private static String strategyText(FifoPlan fifo) {
    return fifo.bytesByStrategy().size() > 1 ? fifo.strategy().label + "+" : fifo.bytesByStrategy().keySet().iterator()
        .next();
  }

  private static String tooltip(DecisionText words, MemoryPlan plan, FifoPlan fifo) {
    StringBuilder text = new StringBuilder(fifo.name()).append('\n');
    text.append(Bytes.human(fifo.bytes())).append(" per iteration in ").append(fifo.buffers())
        .append(" single-rate buffers; class ").append(fifo.bufferClass().label()).append('\n');
    fifo.bytesByStrategy().forEach((strategy, bytes) -> text.append("  ").append(strategy).append(": ")
        .append(Bytes.human(bytes)).append('\n'));
    text.append("copied per iteration: ").append(Bytes.human(fifo.planBytesCopied())).append(" (baseline ")
        .append(Bytes.human(fifo.baselineBytesCopied())).append(")\n");
    text.append(words.fifo(plan, fifo));
    return text.toString();
  }

  static double penWidth(long bytes) {
    double log = bytes <= 1 ? 0 : Math.log(bytes) / Math.log(2);
    return Math.min(8, 1 + log / 4);
  }

  private static Set<Strategy> used(MemoryPlan plan) {
    Set<Strategy> used = EnumSet.noneOf(Strategy.class);
    for (FifoPlan fifo : plan.fifos()) {
      if (fifo.buffers() == 0) {
        continue; // it carries nothing (a rate of 0 for these parameter values)
      }
      used.add(fifo.strategy());
    }
    return used;
  }
}
