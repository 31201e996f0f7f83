package org.cacheflow.codegen.build;

import java.util.ArrayList;
import java.util.List;

import org.cacheflow.codegen.model.CodeProject;
import org.cacheflow.codegen.model.Core;
import org.cacheflow.codegen.model.Sink;
import org.cacheflow.codegen.model.Statement;
import org.cacheflow.codegen.model.SyntheticActor;

/**
 * After the passes: the code project from what they decided; on several nodes with each core's and each sink part's
 * node, checked for mechanisms that would cross nodes ({@link NodeLocality}).
 */
final class ProjectAssembly {

  private ProjectAssembly() {
  }

  static CodeProject project(BuildContext c) {
    List<SyntheticActor> declarations = new ArrayList<>();
    c.syntheticActors.keySet().stream().sorted().forEach(a -> declarations.add(c.syntheticActors.get(a)));
    String name = c.graph.name();
    if (c.plan.nodes() <= 1) {
      return new CodeProject(name, CNames.identifier(name), c.strategy.name(), c.synthetic, c.strategy.barrier(),
          c.semaphores, List.copyOf(c.headers), declarations, c.buffers, c.heapBytes, c.channels, c.cows, c.sinks,
          c.cores);
    }
    List<Integer> coreNodes = new ArrayList<>();
    for (int core = 0; core < c.plan.cores(); core++) {
      coreNodes.add(c.plan.nodeOf(core));
    }
    CodeProject project = new CodeProject(name, CNames.identifier(name), c.strategy.name(), c.synthetic,
        c.strategy.barrier(), c.semaphores, List.copyOf(c.headers), declarations, c.buffers, c.heapBytes, c.channels,
        c.cows, c.sinks, c.cores, coreNodes, c.transfers, partNodes(c, c.sinks, c.cores));
    NodeLocality.check(project);
    return project;
  }

  /** Per sink part, the node of the core that digests it. */
  private static List<Integer> partNodes(BuildContext c, List<Sink> sinks, List<Core> cores) {
    int parts = sinks.isEmpty() ? 0 : sinks.get(sinks.size() - 1).firstPart() + sinks.get(sinks.size() - 1).parts();
    Integer[] nodes = new Integer[parts];
    for (Core core : cores) {
      for (Statement statement : Statement.flatten(core.loop())) {
        if (statement instanceof Statement.Digest digest) {
          nodes[sinks.get(digest.sink()).firstPart() + digest.part()] = c.plan.nodeOf(core.index());
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
