package org.cacheflow.plan.strategy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.cacheflow.plan.classify.BufferClass;
import org.cacheflow.plan.classify.BufferOrigin;
import org.cacheflow.plan.memoryplan.BufferPlan;
import org.cacheflow.plan.memoryplan.MemoryPlan;

/** Consistency between classes, origins and strategies that holds for every auto plan. */
public final class BufferClassCheck {

  private BufferClassCheck() {
  }

  public static void check(MemoryPlan plan) {
    if (plan.strategy() != GlobalStrategy.AUTO) {
      return;
    }
    for (BufferPlan b : plan.buffers()) {
      String what = plan.srdag().flatGraph().name() + " edge " + b.edge() + ": " + String.valueOf(b.decision());
      // a merged buffer shares its group's memory in place, or, when its consumer may write it or runs off the
      // core that writes that memory, reads it through a copy-on-write view of its place
      boolean memberView = b.bufferClass() == BufferClass.ALIASED && b.strategy() == Strategy.COW;
      if (b.bufferClass() == BufferClass.ALIASED && !b.overridden()) {
        assertTrue(b.strategy() == Strategy.ALIAS || memberView, what);
      }
      if (b.origin() != BufferOrigin.COPY) {
        assertEquals(0, b.bytesCopied(), what);
        assertTrue(b.strategy() != Strategy.MEMCPY && b.strategy() != Strategy.NTM
            && (b.strategy() != Strategy.COW || memberView), what);
      }
      if (b.strategy() == Strategy.COW) {
        assertTrue(b.bytes() >= plan.target().costs().cowReadOnlyMinBytes(), what);
      }
      if (b.strategy() == Strategy.NTM) {
        assertTrue(b.bytes() >= plan.target().costs().ntmMinBytes(), what);
      }
      if (b.strategy() == Strategy.PRESTORE) {
        assertTrue(b.crossCore() && b.bytes() <= plan.target().costs().prestoreMaxBytes(), what);
      }
    }
  }
}
