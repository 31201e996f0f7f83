package org.cacheflow.codegen.build;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.cacheflow.codegen.model.CowBuffer;

/**
 * Pass 2: the plan's copy-on-write views. Each view edge shows a range of its source's memory (a merge group's, or
 * a buffer's own), which becomes a copy-on-write buffer its writer core publishes after its last use there.
 */
final class CopyOnWriteViews implements Pass {

  private BuildContext c;

  @Override
  public void run(BuildContext context) {
    this.c = context;
    Map<Integer, List<Integer>> viewsOf = new java.util.TreeMap<>();
    for (int e = 0; e < c.edges; e++) {
      if (c.plan.copyOnWrite(e)) {
        int source = c.plan.viewSource(e);
        if (source < 0) {
          throw new IllegalStateException("copy-on-write view " + c.describe(e) + " has no source memory");
        }
        viewsOf.computeIfAbsent(source, k -> new ArrayList<>()).add(e);
      }
    }
    for (Map.Entry<Integer, List<Integer>> entry : viewsOf.entrySet()) {
      int source = entry.getKey();
      List<Integer> views = entry.getValue();
      int index = c.cows.size();
      long bytes = c.plan.mergeRoot(source) == source ? c.plan.groupBytes(source) : c.srdag.edgeBytes(source);
      List<CowBuffer.Range> ranges = new ArrayList<>();
      for (int i = 0; i < views.size(); i++) {
        int e = views.get(i);
        c.cowOfView[e] = index;
        c.viewIndex[e] = i;
        c.offsetInRoot[e] = 0; // the view shows its range from its first byte
        ranges.add(new CowBuffer.Range(c.plan.viewOffset(e), c.srdag.edgeBytes(e)));
      }
      c.cows.add(new CowBuffer(index, "cow" + source, bytes, views.size(), ranges, c.cowSlots(),
          "memory of " + c.describe(source)));
      c.cowOfRoot[source] = index;
    }
  }

}
