package org.cacheflow.codegen.build;

import java.util.List;

import org.cacheflow.codegen.model.Core;

/**
 * The synchronisation the program keeps. Under the baseline, the semaphores; under every other strategy the
 * cross-core dependencies become rdy-ack flags, coalesced ({@link FlagSignalling}).
 */
final class FlagLowering {

  /**
   * The cores' programs as they run and the semaphores they keep.
   *
   * @param cores one program per core
   * @param semaphores the initial value of every semaphore kept (none once they became flags)
   */
  record Synchronisation(List<Core> cores, List<Integer> semaphores) {
  }

  private FlagLowering() {
  }

  static Synchronisation lower(CodePreset strategy, List<Core> cores, List<Integer> semaphoreStarts) {
    if (!strategy.barrier() && !semaphoreStarts.isEmpty()) {
      return new Synchronisation(FlagSignalling.lower(cores, semaphoreStarts), List.of());
    }
    return new Synchronisation(cores, semaphoreStarts);
  }
}
