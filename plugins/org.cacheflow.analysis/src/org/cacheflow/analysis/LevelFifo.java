package org.cacheflow.analysis;

import java.util.Map;

import org.cacheflow.model.Actor;
import org.cacheflow.model.Fifo;
import org.cacheflow.model.Port;
import org.cacheflow.model.diagnostics.InputException;

/**
 * A FIFO of the level {@link Flattener} is flattening, with its ends classified and rates evaluated; and the
 * evaluated rate of a FIFO's end.
 */
record LevelFifo(Fifo fifo, Actor source, Actor target, long production, long consumption) {

  static long rateOf(Map<Port, Long> rates, Port port, Actor actor, String graphPath) {
    Long rate = rates.get(port);
    if (rate == null) {
      throw new InputException(Locations.of(port), "port " + graphPath + "/" + actor.getName() + "."
          + port.getName() + " is not a data port of its actor but a FIFO is connected to it");
    }
    return rate;
  }

  static long interfaceRate(Actor iface, String graphPath, Map<String, Long> interfaceRates) {
    Long rate = interfaceRates.get(iface.getName());
    if (rate == null) {
      throw new InputException(Locations.of(iface), "interface '" + iface.getName() + "' of graph '"
          + graphPath + "' matches no data port of its hierarchical actor");
    }
    return rate;
  }
}
