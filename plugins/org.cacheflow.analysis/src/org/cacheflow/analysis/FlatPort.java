package org.cacheflow.analysis;

import org.cacheflow.model.MemoryAnnotation;
import org.cacheflow.model.PortDirection;
import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * A data port of a {@link FlatActor} with its rate evaluated.
 *
 * @param name the port's name
 * @param direction {@link PortDirection#INPUT} or {@link PortDirection#OUTPUT}
 * @param rate tokens consumed or produced per firing
 * @param annotation the memory annotation (NONE when the input gave none)
 * @param location where the port was read from
 * @param fifo the index of the {@link FlatFifo} connected to the port, or -1 when it is unconnected
 */
public record FlatPort(String name, PortDirection direction, long rate, MemoryAnnotation annotation,
    SourceLocation location, int fifo) {

  public boolean isInput() {
    return direction == PortDirection.INPUT;
  }
}
