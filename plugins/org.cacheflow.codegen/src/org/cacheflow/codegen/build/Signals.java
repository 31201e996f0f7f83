package org.cacheflow.codegen.build;

import java.util.List;
import java.util.Map;

/**
 * The semaphores {@link StorageChoice} adds for merge groups and copy-on-write memory several cores use.
 *
 * @param semaphoreStarts every semaphore's initial value, by number
 * @param waitsBefore per consuming vertex, the data-ready semaphores it waits for before it fires
 * @param postsAfter per writing vertex, the data-ready semaphores it posts after firing
 * @param slotSemaphores per shared group root, per pair of its user cores, the semaphore that says the first is done
 *     with a slot the second reuses
 */
record Signals(List<Integer> semaphoreStarts, Map<Integer, List<Ready>> waitsBefore,
    Map<Integer, List<Ready>> postsAfter, Map<BufferId, Map<CorePair, Integer>> slotSemaphores) {

  /** A data-ready semaphore and what it says. */
  record Ready(int semaphore, String why) {
  }
}
