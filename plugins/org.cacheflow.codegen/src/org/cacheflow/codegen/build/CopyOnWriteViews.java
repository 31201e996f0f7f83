package org.cacheflow.codegen.build;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.cacheflow.codegen.model.CowBuffer;

/**
 * The plan's copy-on-write views. Each view edge shows a range of its source's memory (a merge group's, or a
 * buffer's own), which becomes a copy-on-write buffer its writer core publishes after its last use there.
 */
final class CopyOnWriteViews {

  private CopyOnWriteViews() {
  }

  static CowViews of(BuildInput in) {
    Map<Integer, List<Integer>> viewsOf = new TreeMap<>();
    for (int e = 0; e < in.edges; e++) {
      if (in.plan.copyOnWrite(e)) {
        int source = in.plan.viewSource(e);
        if (source < 0) {
          throw new IllegalStateException("copy-on-write view " + in.describe(e) + " has no source memory");
        }
        viewsOf.computeIfAbsent(source, k -> new ArrayList<>()).add(e);
      }
    }
    int[] cowOfView = new int[in.edges];
    int[] viewIndex = new int[in.edges];
    int[] cowOfSource = new int[in.edges];
    Arrays.fill(cowOfView, -1);
    Arrays.fill(cowOfSource, -1);
    List<CowBuffer> cows = new ArrayList<>();
    for (Map.Entry<Integer, List<Integer>> entry : viewsOf.entrySet()) {
      int source = entry.getKey();
      List<Integer> views = entry.getValue();
      int index = cows.size();
      long bytes = in.plan.mergeRoot(source) == source ? in.plan.groupBytes(source) : in.srdag.edgeBytes(source);
      List<CowBuffer.Range> ranges = new ArrayList<>();
      for (int i = 0; i < views.size(); i++) {
        int e = views.get(i);
        cowOfView[e] = index;
        viewIndex[e] = i; // a view shows its range from its own first byte: its offset in a root stays 0
        ranges.add(new CowBuffer.Range(in.plan.viewOffset(e), in.srdag.edgeBytes(e)));
      }
      cows.add(new CowBuffer(index, "cow" + source, bytes, views.size(), ranges, in.cowSlots(),
          "memory of " + in.describe(source)));
      cowOfSource[source] = index;
    }
    return new CowViews(cowOfView, viewIndex, cowOfSource, List.copyOf(cows));
  }
}
