package org.cacheflow.codegen.build;

import org.cacheflow.plan.srdag.Srdag;

/**
 * What code generation needs from the plan: which core fires each single-rate vertex, in which order, and
 * the strategy for buffers. Kept this small so the memory plan of {@code org.cacheflow.plan} can stand
 * behind it.
 */
public interface ExecutionPlan {

  Srdag srdag();

  int cores();

  /** The core that runs the vertex. */
  int coreOf(int vertex);

  /** The core's static order of vertices for one iteration (a topological order of its vertices). */
  int[] order(int core);

  Strategy strategy();
}
