package org.cacheflow.codegen.build;

/**
 * Pass 9: the synchronisation the program keeps. Under the baseline, the semaphores; under every other strategy the
 * cross-core dependencies become rdy-ack flags, coalesced ({@link FlagSignalling}).
 */
final class FlagLowering implements Pass {

  @Override
  public void run(BuildContext c) {
    c.semaphores = c.semaphoreStarts;
    if (!c.strategy.barrier() && !c.semaphoreStarts.isEmpty()) {
      c.cores = FlagSignalling.lower(c.cores, c.semaphoreStarts);
      c.semaphores = java.util.List.of();
    }
  }
}
