package org.cacheflow.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.cacheflow.analysis.FlatFifo;
import org.cacheflow.analysis.FlatGraph;

/**
 * A layered left-to-right layout of the flat graph (a simple Sugiyama scheme): cycles are broken by reversing
 * the back edges of a depth-first search, each actor's layer is its longest path from a source, actors within
 * a layer are ordered by a few barycenter sweeps, and coordinates follow from label widths.
 */
final class GraphLayout {

  static final double NODE_HEIGHT = 28;
  static final double ROW_GAP = 22;
  static final double LAYER_GAP = 110;
  static final double FONT = 12;
  static final double MARGIN = 30;

  final int[] layer;
  final double[] x;
  final double[] y;
  final double[] width;
  final boolean[] backEdge;
  final double totalWidth;
  final double totalHeight;

  GraphLayout(FlatGraph graph, List<String> labels, double top) {
    int n = graph.actors().size();
    List<FlatFifo> fifos = graph.fifos();
    List<List<Integer>> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(new ArrayList<>());
    }
    for (FlatFifo fifo : fifos) {
      out.get(fifo.source()).add(fifo.index());
    }
    backEdge = backEdges(n, fifos, out);
    layer = layers(n, fifos, out, backEdge);
    List<List<Integer>> rows = rows(n, fifos, backEdge, layer);
    width = new double[n];
    double[] layerWidth = new double[rows.size()];
    for (int v = 0; v < n; v++) {
      width[v] = Math.max(60, Xml.textWidth(labels.get(v), FONT) + 16);
      layerWidth[layer[v]] = Math.max(layerWidth[layer[v]], width[v]);
    }
    double[] layerX = new double[rows.size()];
    double cursor = MARGIN;
    for (int l = 0; l < rows.size(); l++) {
      layerX[l] = cursor;
      cursor += layerWidth[l] + LAYER_GAP;
    }
    int tallest = 0;
    for (List<Integer> row : rows) {
      tallest = Math.max(tallest, row.size());
    }
    double height = tallest * (NODE_HEIGHT + ROW_GAP);
    x = new double[n];
    y = new double[n];
    for (int l = 0; l < rows.size(); l++) {
      List<Integer> row = rows.get(l);
      double offset = top + (height - row.size() * (NODE_HEIGHT + ROW_GAP)) / 2;
      for (int i = 0; i < row.size(); i++) {
        int v = row.get(i);
        x[v] = layerX[l] + (layerWidth[l] - width[v]) / 2;
        y[v] = offset + i * (NODE_HEIGHT + ROW_GAP);
      }
    }
    totalWidth = Math.max(cursor - LAYER_GAP + MARGIN, 400);
    totalHeight = top + height + MARGIN;
  }

  /** The back edges of an iterative depth-first search (0 = unseen, 1 = on stack, 2 = done). */
  private static boolean[] backEdges(int n, List<FlatFifo> fifos, List<List<Integer>> out) {
    boolean[] backEdge = new boolean[fifos.size()];
    byte[] state = new byte[n];
    int[] stack = new int[n];
    int[] next = new int[n];
    for (int s = 0; s < n; s++) {
      if (state[s] != 0) {
        continue;
      }
      int depth = 0;
      stack[depth++] = s;
      state[s] = 1;
      while (depth > 0) {
        int v = stack[depth - 1];
        if (next[v] < out.get(v).size()) {
          FlatFifo fifo = fifos.get(out.get(v).get(next[v]++));
          int t = fifo.target();
          if (state[t] == 1) {
            backEdge[fifo.index()] = true;
          } else if (state[t] == 0) {
            state[t] = 1;
            stack[depth++] = t;
          }
        } else {
          state[v] = 2;
          depth--;
        }
      }
    }
    return backEdge;
  }

  /** Longest-path layers over forward edges, by repeated relaxation in a topological order. */
  private static int[] layers(int n, List<FlatFifo> fifos, List<List<Integer>> out, boolean[] backEdge) {
    int[] layer = new int[n];
    int[] indegree = new int[n];
    for (FlatFifo fifo : fifos) {
      if (!backEdge[fifo.index()]) {
        indegree[fifo.target()]++;
      }
    }
    int[] queue = new int[n];
    int head = 0;
    int tail = 0;
    for (int v = 0; v < n; v++) {
      if (indegree[v] == 0) {
        queue[tail++] = v;
      }
    }
    while (head < tail) {
      int v = queue[head++];
      for (int f : out.get(v)) {
        if (backEdge[f]) {
          continue;
        }
        int t = fifos.get(f).target();
        layer[t] = Math.max(layer[t], layer[v] + 1);
        if (--indegree[t] == 0) {
          queue[tail++] = t;
        }
      }
    }
    return layer;
  }

  /** The actors of each layer in order: by index, then a few barycenter sweeps. */
  private static List<List<Integer>> rows(int n, List<FlatFifo> fifos, boolean[] backEdge, int[] layer) {
    int layers = 0;
    for (int v = 0; v < n; v++) {
      layers = Math.max(layers, layer[v] + 1);
    }
    List<List<Integer>> rows = new ArrayList<>();
    for (int l = 0; l < layers; l++) {
      rows.add(new ArrayList<>());
    }
    for (int v = 0; v < n; v++) {
      rows.get(layer[v]).add(v);
    }
    double[] position = new double[n];
    assign(rows, position);
    for (int sweep = 0; sweep < 4; sweep++) {
      double[] sum = new double[n];
      int[] count = new int[n];
      for (FlatFifo fifo : fifos) {
        if (backEdge[fifo.index()] || fifo.source() == fifo.target()) {
          continue;
        }
        boolean down = sweep % 2 == 0;
        int moved = down ? fifo.target() : fifo.source();
        int anchor = down ? fifo.source() : fifo.target();
        sum[moved] += position[anchor];
        count[moved]++;
      }
      for (List<Integer> row : rows) {
        double[] key = new double[n];
        for (int v : row) {
          key[v] = count[v] > 0 ? sum[v] / count[v] : position[v];
        }
        row.sort((a, b) -> key[a] != key[b] ? Double.compare(key[a], key[b]) : Integer.compare(a, b));
      }
      assign(rows, position);
    }
    return rows;
  }

  private static void assign(List<List<Integer>> rows, double[] position) {
    for (List<Integer> row : rows) {
      for (int i = 0; i < row.size(); i++) {
        position[row.get(i)] = i;
      }
    }
  }

  /** For tests: the layers, each with its actors in order. */
  int[][] layers() {
    int count = Arrays.stream(layer).max().orElse(-1) + 1;
    List<List<Integer>> rows = new ArrayList<>();
    for (int l = 0; l < count; l++) {
      rows.add(new ArrayList<>());
    }
    Integer[] order = new Integer[layer.length];
    for (int v = 0; v < layer.length; v++) {
      order[v] = v;
    }
    Arrays.sort(order, (a, b) -> Double.compare(y[a], y[b]));
    for (int v : order) {
      rows.get(layer[v]).add(v);
    }
    return rows.stream().map(r -> r.stream().mapToInt(Integer::intValue).toArray()).toArray(int[][]::new);
  }
}
