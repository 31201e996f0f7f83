package org.cacheflow.report;

import static org.cacheflow.plan.strategy.Bytes.human;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.cacheflow.plan.mapping.Network;
import org.cacheflow.plan.mapping.Platform;
import org.cacheflow.plan.memoryplan.MemoryPlan;
import org.cacheflow.plan.partition.NodePartition;

/**
 * The node partition of a plan on several nodes, as the reports show it: each node's cores, load and firings, the
 * bytes and messages each iteration sends from node to node, and the predicted time of an iteration. Reports of
 * one-node plans show none of it.
 */
final class NodeReport {

  private NodeReport() {
  }

  /** Whether the plan spans several nodes (reports then show the partition). */
  static boolean shown(MemoryPlan plan) {
    return plan.platform().nodes() > 1;
  }

  /** One line: nodes, bytes sent per iteration, messages, predicted time. */
  static String summary(MemoryPlan plan) {
    NodePartition partition = plan.partition();
    return partition.nodes() + " nodes: " + human(partition.cutBytes()) + " sent between nodes per iteration in "
        + partition.cutMessages() + " messages; predicted time per iteration " + partition.predictedTime()
        + " time units";
  }

  private static int firings(MemoryPlan plan, int node) {
    int count = 0;
    for (int v = 0; v < plan.srdag().vertexCount(); v++) {
      if (plan.partition().nodeOf(v) == node) {
        count++;
      }
    }
    return count;
  }

  private static String coreNames(Platform platform, int node) {
    List<String> names = new ArrayList<>();
    for (int c : platform.coresOf(node)) {
      names.add(platform.core(c).name());
    }
    return String.join(", ", names);
  }

  /** The markdown rows of the summary table. */
  static String summaryRows(MemoryPlan plan) {
    NodePartition partition = plan.partition();
    return "| nodes | " + partition.nodes() + " (MPI ranks; " + plan.platform().size() + " cores) |\n"
        + "| sent between nodes | " + human(partition.cutBytes()) + " (" + partition.cutBytes() + " B) in "
        + partition.cutMessages() + " messages per iteration |\n"
        + "| predicted time per iteration | " + partition.predictedTime() + " time units (the schedule's makespan, "
        + "network transfers included) |\n";
  }

  /** The markdown section on nodes. */
  static String section(MemoryPlan plan) {
    NodePartition partition = plan.partition();
    Platform platform = plan.platform();
    Network network = platform.network();
    StringBuilder md = new StringBuilder("## Nodes\n\n");
    md.append("The single-rate graph was split across ").append(partition.nodes()).append(" nodes before its firings "
        + "were mapped to cores: balanced load (a node's share is proportional to its cores), fewest bytes sent "
        + "between nodes; a delay's tokens and state stay with the firings using them. A buffer whose producer and "
        + "consumer are on different nodes is sent over MPI (`send`). Network model: ").append(network.latency())
        .append(network.latency() == 1 ? " time unit" : " time units").append(" per message plus ")
        .append(number(network.bytesPerTimeUnit())).append(" bytes per time unit (no contention).\n\n");
    md.append("| node | cores | firings | load |\n|---|---|---:|---:|\n");
    for (int n = 0; n < partition.nodes(); n++) {
      md.append("| ").append(n).append(" | ").append(coreNames(platform, n)).append(" | ").append(firings(plan, n))
          .append(" | ").append(partition.load(n)).append(" |\n");
    }
    md.append("\n| from node | to node | bytes per iteration | messages |\n|---|---|---:|---:|\n");
    boolean any = false;
    for (int from = 0; from < partition.nodes(); from++) {
      for (int to = 0; to < partition.nodes(); to++) {
        if (partition.messages(from, to) > 0) {
          any = true;
          md.append("| ").append(from).append(" | ").append(to).append(" | ").append(human(partition.bytes(from, to)))
              .append(" (").append(partition.bytes(from, to)).append(" B) | ").append(partition.messages(from, to))
              .append(" |\n");
        }
      }
    }
    if (!any) {
      md.append("| — | — | 0 B | 0 |\n");
    }
    md.append("\nPredicted time per iteration: ").append(partition.predictedTime()).append(" time units.\n\n");
    return md.toString();
  }

  private static String number(double value) {
    return value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value)
        : String.format(Locale.ROOT, "%.4g", value);
  }

  /** The JSON object on nodes. */
  static Map<String, Object> json(MemoryPlan plan) {
    NodePartition partition = plan.partition();
    Platform platform = plan.platform();
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("count", partition.nodes());
    Map<String, Object> network = new LinkedHashMap<>();
    network.put("latency", platform.network().latency());
    network.put("bytesPerTimeUnit", platform.network().bytesPerTimeUnit());
    json.put("network", network);
    List<Object> nodes = new ArrayList<>();
    for (int n = 0; n < partition.nodes(); n++) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("node", n);
      List<Object> cores = new ArrayList<>();
      for (int c : platform.coresOf(n)) {
        cores.add(platform.core(c).name());
      }
      row.put("cores", cores);
      row.put("firings", firings(plan, n));
      row.put("load", partition.load(n));
      nodes.add(row);
    }
    json.put("nodes", nodes);
    List<Object> transfers = new ArrayList<>();
    for (int from = 0; from < partition.nodes(); from++) {
      for (int to = 0; to < partition.nodes(); to++) {
        if (partition.messages(from, to) > 0) {
          Map<String, Object> row = new LinkedHashMap<>();
          row.put("from", from);
          row.put("to", to);
          row.put("bytes", partition.bytes(from, to));
          row.put("messages", partition.messages(from, to));
          transfers.add(row);
        }
      }
    }
    json.put("transfers", transfers);
    json.put("bytesSent", partition.cutBytes());
    json.put("messages", partition.cutMessages());
    json.put("predictedTime", partition.predictedTime());
    return json;
  }
}
