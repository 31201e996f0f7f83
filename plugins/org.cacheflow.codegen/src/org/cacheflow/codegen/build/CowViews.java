package org.cacheflow.codegen.build;

import java.util.List;

import org.cacheflow.codegen.model.CowBuffer;

/**
 * The plan's copy-on-write views ({@link CopyOnWriteViews}): the copy-on-write buffers, and which edges are their
 * sources (the memory they show) and their views.
 *
 * @param cowOfView per edge, the copy-on-write buffer it is a view of, -1 for none
 * @param viewIndex per view edge, its number among its buffer's views
 * @param cowOfSource per edge, the copy-on-write buffer whose memory it is, -1 for none
 * @param cows the copy-on-write buffers
 */
record CowViews(int[] cowOfView, int[] viewIndex, int[] cowOfSource, List<CowBuffer> cows) {

  boolean isView(int edge) {
    return cowOfView[edge] >= 0;
  }

  /** Whether a root is the memory of a copy-on-write buffer. */
  boolean isSource(BufferId root) {
    return !root.delayState() && cowOfSource[root.edge()] >= 0;
  }

  /** Whether a root is a copy-on-write buffer's memory or one of its views. */
  boolean touches(BufferId root) {
    return isSource(root) || !root.delayState() && isView(root.edge());
  }

  /** The copy-on-write buffer a root is the memory of, or a view of. */
  CowBuffer cowOf(BufferId root) {
    return cows.get(isSource(root) ? cowOfSource[root.edge()] : cowOfView[root.edge()]);
  }

  /** The copy-on-write buffer an edge is a view of. */
  CowBuffer viewOf(int edge) {
    return cows.get(cowOfView[edge]);
  }

  int viewIndex(int edge) {
    return viewIndex[edge];
  }

  /** The same views with the buffers replaced (their writer counts known). */
  CowViews withCows(List<CowBuffer> buffers) {
    return new CowViews(cowOfView, viewIndex, cowOfSource, List.copyOf(buffers));
  }
}
