package org.cacheflow.codegen.build;

import java.util.ArrayList;
import java.util.List;

import org.cacheflow.codegen.model.CodeProject;
import org.cacheflow.codegen.model.Core;
import org.cacheflow.codegen.model.CowBuffer;
import org.cacheflow.codegen.model.Sink;
import org.cacheflow.codegen.model.Statement;

/**
 * After the passes: the code project from what they decided; on several nodes with each core's and each sink part's
 * node, checked for mechanisms that would cross nodes ({@link NodeLocality}).
 */
final class ProjectAssembly {

  private ProjectAssembly() {
  }

  static CodeProject project(BuildInput in, Layout layout, List<CowBuffer> cows, Sinks.Digests digests,
      CoreSchedules.Schedules schedules, FlagLowering.Synchronisation sync) {
    String name = in.graph.name();
    List<Integer> coreNodes = new ArrayList<>();
    if (in.plan.nodes() > 1) {
      for (int core = 0; core < in.plan.cores(); core++) {
        coreNodes.add(in.plan.nodeOf(core));
      }
    }
    CodeProject project = new CodeProject(name, CNames.identifier(name), in.strategy.name(), in.synthetic,
        in.strategy.barrier(), sync.semaphores(), schedules.headers(), schedules.declarations(), layout.buffers(),
        layout.heapBytes(), layout.channels(), cows, digests.sinks(), sync.cores(),
        in.plan.nodes() > 1 ? new CodeProject.NodeSplit(coreNodes, layout.transfers(), partNodes(in, digests.sinks(),
            sync.cores())) : CodeProject.NodeSplit.ONE);
    if (in.plan.nodes() > 1) {
      NodeLocality.check(project);
    }
    return project;
  }

  /** Per sink part, the node of the core that digests it. */
  private static List<Integer> partNodes(BuildInput in, List<Sink> sinks, List<Core> cores) {
    int parts = Sinks.nextPart(sinks);
    Integer[] nodes = new Integer[parts];
    for (Core core : cores) {
      for (Statement statement : Statement.flatten(core.loop())) {
        if (statement instanceof Statement.Digest digest) {
          nodes[sinks.get(digest.sink()).firstPart() + digest.part()] = in.plan.nodeOf(core.index());
        }
      }
    }
    List<Integer> result = new ArrayList<>();
    for (int p = 0; p < parts; p++) {
      result.add(nodes[p] == null ? 0 : nodes[p]);
    }
    return result;
  }
}
