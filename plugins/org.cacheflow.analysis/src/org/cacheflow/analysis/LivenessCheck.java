package org.cacheflow.analysis;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import org.cacheflow.model.diagnostics.InputException;

/**
 * Checks that one iteration of a consistent flat graph can complete: that every cycle holds enough initial
 * tokens (delays).
 *
 * <p>
 * Acyclic parts can always run, so only strongly connected components (found with Tarjan's algorithm) are
 * examined. Each is executed symbolically as a class-S schedule: an actor fires as many times at once as
 * its inputs inside the component allow (inputs from outside count as available), until every actor has
 * fired its repetition count or nothing can fire. SDF firing is monotonic, so this completes if and only if
 * any schedule does. When it does not, a blocked actor waits on a FIFO whose producer is itself blocked
 * (a finished producer would have delivered enough tokens, by the balance equations); following those
 * FIFOs backwards must close a cycle, which the error names with each FIFO's delay and consumption.
 *
 * <p>
 * The flat graph holds each delay once even when PREESM resets it at every firing of the enclosing
 * sub-graph ({@link FlatFifo#delaySegments()}); since a sub-graph firing ends with exactly as many tokens
 * on the FIFO as it started with, the answer is the same.
 */
public final class LivenessCheck {

  private LivenessCheck() {
  }

  /**
   * @throws InputException naming a cycle that lacks initial tokens, at its first FIFO's location
   */
  public static void check(FlatGraph graph) {
    int[] component = stronglyConnectedComponents(graph);
    int componentCount = 0;
    for (int c : component) {
      componentCount = Math.max(componentCount, c + 1);
    }
    List<List<Integer>> members = new ArrayList<>();
    for (int c = 0; c < componentCount; c++) {
      members.add(new ArrayList<>());
    }
    for (int a = 0; a < component.length; a++) {
      members.get(component[a]).add(a);
    }
    for (int c = 0; c < componentCount; c++) {
      List<Integer> actors = members.get(c);
      if (actors.size() > 1 || hasSelfLoop(graph, actors.get(0))) {
        simulate(graph, actors, component, c);
      }
    }
  }

  private static boolean hasSelfLoop(FlatGraph graph, int actor) {
    for (int f : graph.outputsOf(actor)) {
      FlatFifo fifo = graph.fifo(f);
      if (fifo.target() == actor && fifo.carriesTokens()) {
        return true;
      }
    }
    return false;
  }

  private static void simulate(FlatGraph graph, List<Integer> actors, int[] component, int id) {
    long[] tokens = new long[graph.fifos().size()];
    for (FlatFifo fifo : graph.fifos()) {
      tokens[fifo.index()] = fifo.delay();
    }
    long[] fired = new long[graph.actors().size()];
    boolean[] queued = new boolean[graph.actors().size()];
    ArrayDeque<Integer> ready = new ArrayDeque<>(actors);
    for (int a : actors) {
      queued[a] = true;
    }
    while (!ready.isEmpty()) {
      int actor = ready.poll();
      queued[actor] = false;
      long possible = graph.actor(actor).repetitions() - fired[actor];
      for (int f : graph.inputsOf(actor)) {
        FlatFifo fifo = graph.fifo(f);
        if (component[fifo.source()] == id && fifo.consumption() > 0) {
          possible = Math.min(possible, tokens[f] / fifo.consumption());
        }
      }
      if (possible <= 0) {
        continue;
      }
      fired[actor] += possible;
      for (int f : graph.inputsOf(actor)) {
        tokens[f] -= graph.fifo(f).consumption() * possible;
      }
      for (int f : graph.outputsOf(actor)) {
        FlatFifo fifo = graph.fifo(f);
        tokens[f] = FlatGraph.saturatedAdd(tokens[f], saturatedMultiply(fifo.production(), possible));
        int next = fifo.target();
        if (component[next] == id && !queued[next]) {
          queued[next] = true;
          ready.add(next);
        }
      }
    }
    for (int a : actors) {
      if (fired[a] < graph.actor(a).repetitions()) {
        throw deadlock(graph, a, fired, tokens, component, id);
      }
    }
  }

  private static InputException deadlock(FlatGraph graph, int blocked, long[] fired, long[] tokens,
      int[] component, int id) {
    // walk back along starving FIFOs until an actor repeats
    int[] visitedAt = new int[graph.actors().size()];
    Arrays.fill(visitedAt, -1);
    List<Integer> walkActors = new ArrayList<>();
    List<Integer> walkFifos = new ArrayList<>();
    int actor = blocked;
    while (visitedAt[actor] < 0) {
      visitedAt[actor] = walkActors.size();
      walkActors.add(actor);
      int starving = -1;
      for (int f : graph.inputsOf(actor)) {
        FlatFifo fifo = graph.fifo(f);
        if (component[fifo.source()] == id && tokens[f] < fifo.consumption()
            && fired[fifo.source()] < graph.actor(fifo.source()).repetitions()) {
          starving = f;
          break;
        }
      }
      if (starving < 0) {
        throw new IllegalStateException("blocked actor " + graph.actor(actor).path() + " has no starving input");
      }
      walkFifos.add(starving);
      actor = graph.fifo(starving).source();
    }
    // the cycle is the walk from the repeated actor on, traversed backwards; print it forwards
    int from = visitedAt[actor];
    List<Integer> cycleFifos = new ArrayList<>(walkFifos.subList(from, walkFifos.size()));
    Collections.reverse(cycleFifos);
    StringBuilder path = new StringBuilder();
    for (int f : cycleFifos) {
      path.append(graph.actor(graph.fifo(f).source()).path()).append(" -> ");
    }
    path.append(graph.actor(graph.fifo(cycleFifos.get(0)).source()).path());
    StringBuilder message = new StringBuilder("deadlock: the cycle ").append(path)
        .append(" has too few initial tokens to complete an iteration:");
    for (int f : cycleFifos) {
      FlatFifo fifo = graph.fifo(f);
      message.append("\n  ").append(fifo.location()).append(": ").append(graph.describe(fifo)).append(" has ")
          .append(fifo.delay()).append(fifo.delay() == 1 ? " initial token" : " initial tokens")
          .append(", consumes ").append(fifo.consumption()).append(" per firing");
    }
    for (int a : walkActors.subList(from, walkActors.size())) {
      message.append("\n  ").append(graph.actor(a).path()).append(" fired ").append(fired[a]).append(" of ")
          .append(graph.actor(a).repetitions()).append(" times");
    }
    return new InputException(graph.fifo(cycleFifos.get(0)).location(), message.toString());
  }

  private static long saturatedMultiply(long a, long b) {
    long high = Math.multiplyHigh(a, b);
    long low = a * b;
    return (high == 0 && low >= 0) ? low : Long.MAX_VALUE;
  }

  /** Tarjan's algorithm, iterative; FIFOs carrying no tokens are ignored. Returns a component per actor. */
  static int[] stronglyConnectedComponents(FlatGraph graph) {
    int n = graph.actors().size();
    int[] index = new int[n];
    int[] low = new int[n];
    int[] component = new int[n];
    boolean[] onStack = new boolean[n];
    Arrays.fill(index, -1);
    int[] stack = new int[n];
    int stackSize = 0;
    int[] callActor = new int[n];
    int[] callNext = new int[n];
    int counter = 0;
    int components = 0;
    for (int root = 0; root < n; root++) {
      if (index[root] >= 0) {
        continue;
      }
      int depth = 0;
      callActor[0] = root;
      callNext[0] = 0;
      index[root] = low[root] = counter++;
      stack[stackSize++] = root;
      onStack[root] = true;
      while (depth >= 0) {
        int v = callActor[depth];
        int[] outs = graph.outputsOf(v);
        if (callNext[depth] < outs.length) {
          FlatFifo fifo = graph.fifo(outs[callNext[depth]++]);
          if (!fifo.carriesTokens()) {
            continue;
          }
          int w = fifo.target();
          if (index[w] < 0) {
            index[w] = low[w] = counter++;
            stack[stackSize++] = w;
            onStack[w] = true;
            depth++;
            callActor[depth] = w;
            callNext[depth] = 0;
          } else if (onStack[w]) {
            low[v] = Math.min(low[v], index[w]);
          }
        } else {
          if (low[v] == index[v]) {
            int w;
            do {
              w = stack[--stackSize];
              onStack[w] = false;
              component[w] = components;
            } while (w != v);
            components++;
          }
          depth--;
          if (depth >= 0) {
            int parent = callActor[depth];
            low[parent] = Math.min(low[parent], low[v]);
          }
        }
      }
    }
    return component;
  }
}
