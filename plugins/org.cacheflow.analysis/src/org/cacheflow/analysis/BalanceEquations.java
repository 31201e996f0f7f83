package org.cacheflow.analysis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * Solves the balance equations {@code production(e) x r(source(e)) = consumption(e) x r(target(e))} of one
 * graph level exactly, giving the minimal positive integer repetition vector of every connected component.
 *
 * <p>
 * Each component is traversed breadth-first from its first node with {@code r = 1}; every node reached gets
 * a reduced fraction {@code r(u) x production / consumption} (or the inverse going backwards), computed
 * with overflow checks. The fractions are then scaled by the LCM of their denominators and divided by the
 * GCD of the numerators. Every edge is finally checked, so an inconsistent graph is reported with all the
 * edges whose equation fails given the values the other edges impose.
 *
 * <p>
 * An edge whose two rates are 0 carries no data and imposes nothing. An edge with exactly one zero rate
 * has no positive solution and is an error.
 */
public final class BalanceEquations {

  /** How errors name the graph's nodes and edges. */
  public interface Naming {
    /** The node (actor) name used in equations, e.g. {@code stereo_top/disparity}. */
    String node(int node);

    /** The edge as users read it, e.g. {@code a.out -> b.in}. */
    String edge(int edge);

    /** Where the edge was read from. */
    SourceLocation location(int edge);
  }

  /**
   * The solution.
   *
   * @param repetitions minimal repetition count of each node within its component
   * @param component the component of each node, numbered from 0 in order of first node
   * @param componentCount the number of components
   */
  public record Solution(long[] repetitions, int[] component, int componentCount) {
  }

  private static final int MAX_REPORTED = 8;

  private BalanceEquations() {
  }

  /**
   * Solves the equations.
   *
   * @param graphName the level's name, for messages
   * @param graphLocation where the level was read from, for errors not tied to an edge
   * @param nodeCount the number of nodes
   * @param source source node of each edge
   * @param target target node of each edge
   * @param production tokens produced per source firing on each edge (non-negative)
   * @param consumption tokens consumed per target firing on each edge (non-negative)
   * @param naming names for messages
   * @throws InputException naming every edge whose equation fails, or when a value overflows 64 bits
   */
  public static Solution solve(String graphName, SourceLocation graphLocation, int nodeCount, int[] source,
      int[] target, long[] production, long[] consumption, Naming naming) {
    int edgeCount = source.length;
    for (int e = 0; e < edgeCount; e++) {
      if ((production[e] == 0) != (consumption[e] == 0)) {
        throw new InputException(naming.location(e), naming.edge(e) + ": " + production[e] + " x r("
            + naming.node(source[e]) + ") = " + consumption[e] + " x r(" + naming.node(target[e])
            + ") has no solution with both actors firing: a rate of 0 on only one side of a FIFO");
      }
    }
    // adjacency in compressed rows, both directions, zero-rate edges left out
    int[] degree = new int[nodeCount + 1];
    for (int e = 0; e < edgeCount; e++) {
      if (production[e] != 0) {
        degree[source[e]]++;
        degree[target[e]]++;
      }
    }
    int[] start = new int[nodeCount + 1];
    for (int n = 0; n < nodeCount; n++) {
      start[n + 1] = start[n] + degree[n];
    }
    int[] fill = start.clone();
    int[] adjacentEdges = new int[start[nodeCount]];
    for (int e = 0; e < edgeCount; e++) {
      if (production[e] != 0) {
        adjacentEdges[fill[source[e]]++] = e;
        adjacentEdges[fill[target[e]]++] = e;
      }
    }

    long[] numerator = new long[nodeCount];
    long[] denominator = new long[nodeCount];
    int[] component = new int[nodeCount];
    Arrays.fill(component, -1);
    int componentCount = 0;
    int[] queue = new int[nodeCount];
    long[] repetitions = new long[nodeCount];
    for (int first = 0; first < nodeCount; first++) {
      if (component[first] >= 0) {
        continue;
      }
      int id = componentCount++;
      int head = 0;
      int tail = 0;
      queue[tail++] = first;
      component[first] = id;
      numerator[first] = 1;
      denominator[first] = 1;
      try {
        while (head < tail) {
          int node = queue[head++];
          for (int i = start[node]; i < start[node + 1]; i++) {
            int e = adjacentEdges[i];
            int other = source[e] == node ? target[e] : source[e];
            if (component[other] >= 0) {
              continue;
            }
            // r(target) = r(source) x production / consumption
            long num;
            long den;
            if (source[e] == node) {
              num = Math.multiplyExact(numerator[node], production[e]);
              den = Math.multiplyExact(denominator[node], consumption[e]);
            } else {
              num = Math.multiplyExact(numerator[node], consumption[e]);
              den = Math.multiplyExact(denominator[node], production[e]);
            }
            long g = gcd(num, den);
            numerator[other] = num / g;
            denominator[other] = den / g;
            component[other] = id;
            queue[tail++] = other;
          }
        }
        long lcm = 1;
        for (int i = 0; i < tail; i++) {
          long d = denominator[queue[i]];
          lcm = Math.multiplyExact(lcm / gcd(lcm, d), d);
        }
        long common = 0;
        for (int i = 0; i < tail; i++) {
          int node = queue[i];
          repetitions[node] = Math.multiplyExact(numerator[node], lcm / denominator[node]);
          common = gcd(common, repetitions[node]);
        }
        for (int i = 0; i < tail; i++) {
          repetitions[queue[i]] /= common;
        }
      } catch (ArithmeticException overflow) {
        throw new InputException(graphLocation, "the repetition vector of graph '" + graphName
            + "' does not fit 64-bit integers (component containing " + naming.node(first)
            + "): the rates are too far apart");
      }
    }

    List<Integer> failing = new ArrayList<>();
    for (int e = 0; e < edgeCount; e++) {
      if (production[e] == 0) {
        continue;
      }
      try {
        long produced = Math.multiplyExact(production[e], repetitions[source[e]]);
        long consumed = Math.multiplyExact(consumption[e], repetitions[target[e]]);
        if (produced != consumed) {
          failing.add(e);
        }
      } catch (ArithmeticException overflow) {
        throw new InputException(naming.location(e), "tokens per iteration on " + naming.edge(e)
            + " do not fit 64-bit integers (" + production[e] + " x " + repetitions[source[e]] + ")");
      }
    }
    if (!failing.isEmpty()) {
      StringBuilder message = new StringBuilder("graph '").append(graphName)
          .append("' is not consistent: no repetition vector balances ")
          .append(failing.size() == 1 ? "this FIFO" : "these FIFOs").append(" given the others:");
      for (int i = 0; i < Math.min(failing.size(), MAX_REPORTED); i++) {
        int e = failing.get(i);
        String from = naming.node(source[e]);
        String to = naming.node(target[e]);
        message.append("\n  ").append(naming.location(e)).append(": ").append(naming.edge(e)).append(": ")
            .append(production[e]).append(" x r(").append(from).append(") != ").append(consumption[e])
            .append(" x r(").append(to).append(") with r(").append(from).append(") = ")
            .append(repetitions[source[e]]);
        if (source[e] != target[e]) {
          message.append(", r(").append(to).append(") = ").append(repetitions[target[e]]);
        }
      }
      if (failing.size() > MAX_REPORTED) {
        message.append("\n  and ").append(failing.size() - MAX_REPORTED).append(" more");
      }
      throw new InputException(naming.location(failing.get(0)), message.toString());
    }
    return new Solution(repetitions, component, componentCount);
  }

  static long gcd(long a, long b) {
    a = Math.abs(a);
    b = Math.abs(b);
    while (b != 0) {
      long t = a % b;
      a = b;
      b = t;
    }
    return a;
  }
}
