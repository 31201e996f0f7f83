package org.cacheflow.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.cacheflow.plan.classify.BufferClass;
import org.cacheflow.plan.mapping.Core;
import org.cacheflow.plan.memoryplan.BufferPlan;
import org.cacheflow.plan.memoryplan.FifoPlan;
import org.cacheflow.plan.memoryplan.MemoryPlan;
import org.cacheflow.plan.memoryplan.PlanTotals;
import org.cacheflow.plan.schedule.Schedule;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.plan.strategy.FifoNames;
import org.cacheflow.plan.strategy.TargetCache;

/**
 * The plan as plain values for JSON: {@code {"graph", "strategy", "policy", "target", "cores", "schedule",
 * "partition" (several nodes only: {"count", "network", "nodes", "transfers", "bytesSent", "messages",
 * "predictedTime"}), "fifos": [{"source", "targets", "bytes", "class", "strategy", "reason", ...}], "totals":
 * {"baselineBytesCopied", "planBytesCopied", "footprintBytes", ...}, "notes"}}. Bytes are per graph iteration.
 */
public final class PlanJson {

  private PlanJson() {
  }

  /**
   * @param plan the plan
   * @param buffers whether to list each FIFO's single-rate buffers
   * @param orders whether to list each core's static order (vertex names)
   */
  public static Map<String, Object> toJson(MemoryPlan plan, boolean buffers, boolean orders) {
    Srdag srdag = plan.srdag();
    Schedule schedule = plan.schedule();
    FifoNames names = new FifoNames(srdag.flatGraph());
    DecisionText words = DecisionText.of(plan);
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("graph", srdag.flatGraph().name());
    root.put("strategy", plan.strategy().label);
    root.put("policy", schedule.policy().label);
    root.put("target", target(plan.target()));
    root.put("cores", cores(plan, names, orders));
    Map<String, Object> scheduleJson = new LinkedHashMap<>();
    scheduleJson.put("makespan", schedule.makespan());
    scheduleJson.put("vertices", srdag.vertexCount());
    scheduleJson.put("edges", srdag.edgeCount());
    root.put("schedule", scheduleJson);
    if (NodeReport.shown(plan)) {
      root.put("partition", NodeReport.json(plan));
    }
    List<Object> fifos = new ArrayList<>();
    for (FifoPlan fifo : plan.fifos()) {
      fifos.add(fifo(plan, words, names, fifo, buffers));
    }
    root.put("fifos", fifos);
    root.put("totals", totals(plan.totals()));
    root.put("preesmTotals", totals(plan.preesmTotals()));
    root.put("copyOnWrite", copyOnWrite(plan));
    root.put("notes", new ArrayList<Object>(words.notes()));
    return root;
  }

  /** Per core: its name, type, node, load and firings, and with {@code orders} its static order. */
  private static List<Object> cores(MemoryPlan plan, FifoNames names, boolean orders) {
    Srdag srdag = plan.srdag();
    Schedule schedule = plan.schedule();
    List<Object> cores = new ArrayList<>();
    for (Core core : plan.platform().cores()) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("name", core.name());
      row.put("type", core.type());
      if (NodeReport.shown(plan)) {
        row.put("node", core.node());
      }
      row.put("load", schedule.load(core.index()));
      row.put("firings", schedule.orderLength(core.index()));
      if (orders) {
        row.put("order", order(schedule, srdag, names, core.index()));
      }
      cores.add(row);
    }
    return cores;
  }

  /** A core's static order: each firing's vertex, start and end, and how many iterations behind it fires. */
  private static List<Object> order(Schedule schedule, Srdag srdag, FifoNames names, int core) {
    List<Object> order = new ArrayList<>();
    for (int i = 0; i < schedule.orderLength(core); i++) {
      int v = schedule.vertexAt(core, i);
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("vertex", names.relative(srdag.vertexName(v)));
      entry.put("start", schedule.start(v));
      entry.put("end", schedule.end(v));
      if (schedule.skew(v) > 0) {
        entry.put("iterationsBehind", schedule.skew(v)); // software pipelining: fires iteration p - 1 in pass p
      }
      order.add(entry);
    }
    return order;
  }

  /** The copy-on-write views of one iteration, in total and per core. */
  private static Map<String, Object> copyOnWrite(MemoryPlan plan) {
    Map<String, Object> cow = new LinkedHashMap<>();
    org.cacheflow.plan.memoryplan.MemoryPlan.CowSummary summary = plan.cowSummary();
    cow.put("views", summary.views());
    cow.put("sources", summary.sources());
    cow.put("pagesShared", summary.pagesShared());
    List<Object> perCore = new ArrayList<>();
    for (org.cacheflow.plan.memoryplan.MemoryPlan.CoreViews core : summary.perCore()) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("core", core.core());
      entry.put("views", core.views());
      entry.put("pagesShared", core.pagesShared());
      perCore.add(entry);
    }
    cow.put("perCore", perCore);
    return cow;
  }

  static Map<String, Object> target(TargetCache target) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("name", target.name());
    json.put("l1dBytes", target.l1dBytes());
    json.put("l2Bytes", target.l2Bytes());
    json.put("llcBytes", target.llcBytes());
    json.put("lineBytes", target.lineBytes());
    json.put("pageBytes", target.pageBytes());
    Map<String, Object> costs = new LinkedHashMap<>();
    costs.put("cowReadOnlyMinBytes", target.costs().cowReadOnlyMinBytes());
    costs.put("cowReadMostlyMinBytes", target.costs().cowReadMostlyMinBytes());
    costs.put("ntmMinBytes", target.costs().ntmMinBytes());
    costs.put("prestoreMaxBytes", target.costs().prestoreMaxBytes());
    json.put("breakEven", costs);
    return json;
  }

  static Map<String, Object> totals(PlanTotals totals) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("baselineBytesCopied", totals.baselineBytesCopied());
    json.put("planBytesCopied", totals.planBytesCopied());
    json.put("footprintBytes", totals.footprintBytes());
    json.put("baselineFootprintBytes", totals.baselineFootprintBytes());
    return json;
  }

  private static Map<String, Object> fifo(MemoryPlan plan, DecisionText words, FifoNames names, FifoPlan fifo,
      boolean withBuffers) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("source", fifo.source());
    json.put("targets", List.of(fifo.target()));
    json.put("bytes", fifo.bytes());
    json.put("class", fifo.bufferClass() == null ? "none" : fifo.bufferClass().label());
    json.put("strategy", fifo.strategy() == null ? "none" : fifo.strategy().label);
    json.put("reason", words.fifo(plan, fifo));
    json.put("producerCores", coreNames(plan, fifo.producerCores()));
    json.put("consumerCores", coreNames(plan, fifo.consumerCores()));
    json.put("crossCore", fifo.crossCore());
    Map<String, Object> classes = new LinkedHashMap<>();
    for (Map.Entry<BufferClass, Long> entry : fifo.bytesByClass().entrySet()) {
      classes.put(entry.getKey().label(), entry.getValue());
    }
    json.put("bufferBytesByClass", classes);
    json.put("bufferBytesByStrategy", new LinkedHashMap<String, Object>(fifo.bytesByStrategy()));
    json.put("baselineBytesCopied", fifo.baselineBytesCopied());
    json.put("planBytesCopied", fifo.planBytesCopied());
    json.put("footprintBytes", fifo.footprintBytes());
    json.put("bufferCount", fifo.buffers());
    if (withBuffers) {
      List<Object> buffers = new ArrayList<>();
      for (BufferPlan buffer : plan.buffersOf(fifo.fifo())) {
        buffers.add(buffer(plan, words, names, buffer));
      }
      json.put("buffers", buffers);
    }
    return json;
  }

  private static Map<String, Object> buffer(MemoryPlan plan, DecisionText words, FifoNames names, BufferPlan b) {
    Srdag srdag = plan.srdag();
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("edge", b.edge());
    json.put("producer", names.relative(srdag.vertexName(b.producer())) + "." + srdag.edgeSourcePort(b.edge()));
    json.put("consumer", names.relative(srdag.vertexName(b.consumer())) + "." + srdag.edgeTargetPort(b.edge()));
    json.put("bytes", b.bytes());
    json.put("class", b.bufferClass().label());
    json.put("classEvidence", words.evidence(b.edge()));
    json.put("origin", b.origin().label());
    json.put("producerCore", plan.platform().core(b.producerCore()).name());
    json.put("consumerCore", plan.platform().core(b.consumerCore()).name());
    json.put("crossCore", b.crossCore());
    json.put("strategy", b.strategy().label);
    json.put("prestore", b.prestore().label);
    json.put("slots", b.slots());
    json.put("homeCore", plan.platform().core(b.homeCore()).name());
    json.put("mergeRoot", b.mergeRoot());
    json.put("baselineBytesCopied", b.baselineBytesCopied());
    json.put("bytesCopied", b.bytesCopied());
    json.put("footprintBytes", b.footprintBytes());
    json.put("rereadBytes", b.rereadBytes());
    json.put("rewriteBytes", b.rewriteBytes());
    json.put("overridden", b.overridden());
    json.put("reason", words.buffer(b));
    return json;
  }

  private static List<Object> coreNames(MemoryPlan plan, List<Integer> cores) {
    List<Object> result = new ArrayList<>();
    for (int core : cores) {
      result.add(plan.platform().core(core).name());
    }
    return result;
  }
}
