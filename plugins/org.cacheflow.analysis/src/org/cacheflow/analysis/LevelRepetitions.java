package org.cacheflow.analysis;

import static org.cacheflow.analysis.Flattener.isInterface;
import static org.cacheflow.analysis.Flattener.kindOf;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.cacheflow.model.Actor;
import org.cacheflow.model.ActorKind;
import org.cacheflow.model.Graph;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * The repetition vector of one level {@link Flattener} is flattening: its balance equations solved per connected
 * component ({@link BalanceEquations}, interfaces left out), then, in a sub-graph, each component scaled up to its
 * interfaces as PREESM's {@code PiBRV.updateRVWithInterfaces} does.
 */
final class LevelRepetitions {

  private LevelRepetitions() {
  }

  /**
   * Solves the level's balance equations and scales sub-graph components to their interfaces.
   */
  static long[] solve(Graph graph, String graphPath, List<Actor> nodes, Map<Actor, Integer> nodeIndex,
      List<LevelFifo> levelFifos, Map<Actor, LevelFifo> interfaceFifo, Map<String, Actor> interfaces,
      boolean isTop, Diagnostics warnings) {
    List<LevelFifo> internal = new ArrayList<>();
    for (LevelFifo levelFifo : levelFifos) {
      if (!isInterface(levelFifo.source()) && !isInterface(levelFifo.target())) {
        internal.add(levelFifo);
      }
    }
    int edgeCount = internal.size();
    int[] source = new int[edgeCount];
    int[] target = new int[edgeCount];
    long[] production = new long[edgeCount];
    long[] consumption = new long[edgeCount];
    for (int e = 0; e < edgeCount; e++) {
      LevelFifo levelFifo = internal.get(e);
      source[e] = nodeIndex.get(levelFifo.source());
      target[e] = nodeIndex.get(levelFifo.target());
      production[e] = levelFifo.production();
      consumption[e] = levelFifo.consumption();
    }
    BalanceEquations.Solution solution = BalanceEquations.solve(graphPath, Locations.of(graph), nodes.size(),
        source, target, production, consumption, new BalanceEquations.Naming() {
          @Override
          public String node(int node) {
            return graphPath + "/" + nodes.get(node).getName();
          }

          @Override
          public String edge(int edge) {
            LevelFifo levelFifo = internal.get(edge);
            return node(source[edge]) + "." + levelFifo.fifo().getSource().getName() + " -> "
                + node(target[edge]) + "." + levelFifo.fifo().getTarget().getName();
          }

          @Override
          public SourceLocation location(int edge) {
            return Locations.of(internal.get(edge).fifo());
          }
        });
    long[] repetitions = solution.repetitions();
    if (isTop) {
      return repetitions;
    }
    // PREESM's updateRVWithInterfaces: source interfaces first, then sink interfaces, in order
    long[] scale = new long[solution.componentCount()];
    Arrays.fill(scale, 1);
    for (boolean sources : new boolean[] {true, false}) {
      for (Actor iface : interfaces.values()) {
        boolean isSource = kindOf(iface) == ActorKind.SOURCE_INTERFACE;
        if (isSource != sources) {
          continue;
        }
        LevelFifo levelFifo = interfaceFifo.get(iface);
        if (levelFifo == null) {
          warnings.warn(Locations.of(iface), "interface '" + iface.getName() + "' of graph '" + graphPath
              + "' is connected to nothing inside");
          continue;
        }
        Actor inner = isSource ? levelFifo.target() : levelFifo.source();
        if (isInterface(inner)) {
          continue;
        }
        int node = nodeIndex.get(inner);
        int component = solution.component()[node];
        long innerRate = isSource ? levelFifo.consumption() : levelFifo.production();
        long interfaceRate = isSource ? levelFifo.production() : levelFifo.consumption();
        try {
          long perFiring = Math.multiplyExact(Math.multiplyExact(scale[component], innerRate),
              repetitions[node]);
          if (perFiring > 0 && perFiring < interfaceRate) {
            scale[component] = Math.multiplyExact(scale[component],
                (interfaceRate + perFiring - 1) / perFiring);
          }
        } catch (ArithmeticException overflow) {
          throw new InputException(Locations.of(iface), "repetitions in graph '" + graphPath
              + "' do not fit 64-bit integers when scaled to interface '" + iface.getName() + "'");
        }
      }
    }
    for (int n = 0; n < repetitions.length; n++) {
      try {
        repetitions[n] = Math.multiplyExact(repetitions[n], scale[solution.component()[n]]);
      } catch (ArithmeticException overflow) {
        throw new InputException(Locations.of(nodes.get(n)), "repetitions in graph '" + graphPath
            + "' do not fit 64-bit integers");
      }
    }
    return repetitions;
  }
}
