package org.cacheflow.pipeline;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import org.cacheflow.analysis.FlatFifo;
import org.cacheflow.analysis.FlatGraph;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.io.profile.ProfileFile;
import org.cacheflow.plan.memoryplan.MemoryPlan;

/**
 * The re-read distance of every FIFO between measured actors (DirtBuster's pattern): in the profiled program's order
 * of firings, the bytes the firings between a write and its first re-read give their ports (through fork, join and
 * broadcast vertices, which copy and are not counted), the median over the FIFO's single-rate edges.
 */
final class ReReads {

  private ReReads() {
  }

  static List<ProfileFile.BufferProfile> of(MemoryPlan plan, List<JsonObject> sites, Map<String, Integer> vertices) {
    if (sites == null) {
      return List.of();
    }
    Srdag srdag = plan.srdag();
    Map<Integer, Long> order = new HashMap<>();
    List<long[]> touched = new ArrayList<>(); // order, bytes
    for (JsonObject site : sites) {
      Integer vertex = vertices.get(site.get("vertex").getAsString());
      if (vertex == null || site.get("init").getAsBoolean()) {
        continue;
      }
      long rank = site.get("order").getAsLong();
      order.put(vertex, rank);
      long bytes = 0;
      for (JsonElement port : site.getAsJsonArray("ports")) {
        bytes += port.getAsJsonObject().get("bytes").getAsLong();
      }
      touched.add(new long[] {rank, bytes});
    }
    Map<Integer, List<Long>> distances = new LinkedHashMap<>();
    Map<Integer, Long> fifoBytes = new HashMap<>();
    Map<Integer, Boolean> sameCore = new HashMap<>();
    for (int edge = 0; edge < srdag.edgeCount(); edge++) {
      int source = srdag.edgeSource(edge);
      if (!order.containsKey(source)) {
        continue;
      }
      int fifo = srdag.edgeFifo(edge);
      boolean counted = false;
      for (int reader : readers(srdag, srdag.edgeTarget(edge), order, 0)) {
        long from = order.get(source);
        long to = order.get(reader);
        if (to <= from || fifo < 0) {
          continue; // read in a later iteration (a delay)
        }
        long between = 0;
        for (long[] site : touched) {
          between += site[0] > from && site[0] < to ? site[1] : 0;
        }
        distances.computeIfAbsent(fifo, k -> new ArrayList<>()).add(between);
        fifoBytes.merge(fifo, counted ? 0 : srdag.edgeBytes(edge), Long::sum);
        counted = true;
        sameCore.merge(fifo, plan.schedule().coreOf(source) == plan.schedule().coreOf(reader), Boolean::logicalAnd);
      }
    }
    FlatGraph flat = srdag.flatGraph();
    List<ProfileFile.BufferProfile> buffers = new ArrayList<>();
    for (Map.Entry<Integer, List<Long>> entry : distances.entrySet()) {
      FlatFifo fifo = flat.fifo(entry.getKey());
      List<Long> sorted = new ArrayList<>(entry.getValue());
      sorted.sort(null);
      buffers.add(new ProfileFile.BufferProfile(flat.actor(fifo.source()).path() + "." + fifo.sourcePort() + " -> "
          + flat.actor(fifo.target()).path() + "." + fifo.targetPort(), fifoBytes.get(entry.getKey()),
          Math.round(TimeStatsOf.quantile(sorted, 0.5)), sameCore.get(entry.getKey())));
    }
    return buffers;
  }

  /** The measured vertices that read what reaches {@code vertex}: itself, or past the copying vertices. */
  private static List<Integer> readers(Srdag srdag, int vertex, Map<Integer, Long> order, int depth) {
    if (order.containsKey(vertex)) {
      return List.of(vertex);
    }
    List<Integer> found = new ArrayList<>();
    if (depth < 8) {
      for (int edge : srdag.outgoingEdges(vertex)) {
        found.addAll(readers(srdag, srdag.edgeTarget(edge), order, depth + 1));
      }
    }
    return found;
  }
}
