package org.cacheflow.codegen.model;

import org.cacheflow.plan.memoryplan.ProgramMemory;

/**
 * A home-forwarded rdy-ack channel carrying one buffer from one core to another, one message per graph
 * iteration, {@code slots} iterations in flight.
 *
 * @param index position in {@link CodeProject#channels()}
 * @param name C identifier of the channel variable
 * @param sender the sending core
 * @param receiver the receiving core (the home of the slots)
 * @param slots k
 * @param bytes message size
 * @param primed whether main sends one zero message before the cores start (a persistent delay's first
 *     iteration)
 * @param description what it carries, for the comment
 */
public record Channel(int index, String name, int sender, int receiver, int slots, long bytes, boolean primed,
    String description) {

  /** The bytes of its slots as the program's memory counts them: slots times the message size (saturated). */
  public long slotBytes() {
    return ProgramMemory.saturatedMultiply(bytes, slots);
  }
}
