package org.cacheflow.analysis;

import static org.cacheflow.analysis.Flattener.isInterface;
import static org.cacheflow.analysis.Flattener.kindOf;

import java.util.List;
import java.util.Map;

import org.cacheflow.model.Actor;
import org.cacheflow.model.ActorKind;
import org.cacheflow.model.Delay;
import org.cacheflow.model.Fifo;
import org.cacheflow.model.Port;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;

/**
 * The setter and getter FIFOs of one delay of the level {@link Flattener} is flattening (either may be null): how a
 * FIFO into or out of a delay's actor is recognised, and the checks that the delay runs once per firing of its
 * graph and that its ends carry tokens of the delayed FIFO's size.
 */
final class DelayEnds {

  final Delay delay;
  final Fifo delayed;
  final long tokens;
  LevelFifo setter;
  LevelFifo getter;

  DelayEnds(Delay delay, Fifo delayed, long tokens) {
    this.delay = delay;
    this.delayed = delayed;
    this.tokens = tokens;
  }

  /**
   * Classifies a FIFO with a delay actor at one end: the setter FIFO (into the delay actor) or the getter FIFO
   * (out of it) of the delay on {@code delayedFifoOf}'s FIFO. Makes the delay actor a balance-equation node
   * whose ports carry the delay's size. Returns null (with a warning) for a delay actor of no delayed FIFO.
   */
  static LevelFifo delayEndFifo(Fifo fifo, Actor source, Actor target, String graphPath,
      Map<String, Long> parameters, Map<Port, Long> rates, Map<String, Long> interfaceRates,
      Map<Actor, Fifo> delayedFifoOf,
      Map<Fifo, DelayEnds> delayEnds, List<Actor> nodes, Map<Actor, Integer> nodeIndex,
      Diagnostics warnings) {
    boolean isSetter = kindOf(target) == ActorKind.DELAY;
    Actor delayActor = isSetter ? target : source;
    Actor other = isSetter ? source : target;
    Fifo delayed = delayedFifoOf.get(delayActor);
    if (delayed == null) {
      warnings.warn(Locations.of(fifo), "FIFO " + (isSetter ? "into" : "out of") + " delay actor '"
          + delayActor.getName() + "', which is the delay of no FIFO of graph '" + graphPath + "'; ignored");
      return null;
    }
    Delay delay = delayed.getDelay();
    String role = isSetter ? "setter" : "getter";
    String delayName = "delay '" + delayActor.getName() + "' of graph '" + graphPath + "'";
    // in a sub-graph, the enclosing graph may give the initial tokens through a source interface and take the
    // final ones through a sink interface (PREESM's removePersistence writes delays so)
    boolean fromParent = interfaceRates != null
        && kindOf(other) == (isSetter ? ActorKind.SOURCE_INTERFACE : ActorKind.SINK_INTERFACE);
    if (!fromParent && (kindOf(other) == ActorKind.DELAY || isInterface(other)
        || kindOf(other) == ActorKind.CONFIG_OUTPUT_INTERFACE)) {
      throw new InputException(Locations.of(fifo), "the " + role + " of " + delayName + " must be an actor of"
          + " the graph" + (interfaceRates == null ? "" : " or a " + (isSetter ? "source" : "sink") + " interface")
          + ", not " + (kindOf(other) == ActorKind.DELAY ? "a delay" : "interface '" + other.getName() + "'"));
    }
    Actor own = isSetter ? delayed.getSource().getActor() : delayed.getTarget().getActor();
    if (other == own) {
      // its firings would be both the delay's end and the FIFO's own producer / consumer
      throw new InputException(Locations.of(fifo), "the " + role + " of " + delayName + " is '" + other.getName()
          + "', the " + (isSetter ? "producer" : "consumer") + " of the delayed FIFO itself; a " + role
          + " must be another actor");
    }
    Actor named = isSetter ? delay.getSetter() : delay.getGetter();
    if (named != null && named != other) {
      throw new InputException(Locations.of(fifo), delayName + " names '" + named.getName() + "' as its " + role
          + " but this FIFO connects it to '" + other.getName() + "'");
    }
    DelayEnds ends = delayEnds.get(delayed);
    if (ends == null) {
      ends = new DelayEnds(delay, delayed, ParameterValues.delayTokens(delay, "FIFO " + describe(delayed, graphPath),
          parameters));
      delayEnds.put(delayed, ends);
    }
    if ((isSetter ? ends.setter : ends.getter) != null) {
      throw new InputException(Locations.of(fifo), delayName + " has a second " + role + " FIFO (the first is at"
          + " line " + (isSetter ? ends.setter : ends.getter).fifo().getLine() + ")");
    }
    if (!nodeIndex.containsKey(delayActor)) {
      nodeIndex.put(delayActor, nodes.size());
      nodes.add(delayActor);
    }
    Port otherPort = isSetter ? fifo.getSource() : fifo.getTarget();
    long otherRate = fromParent ? LevelFifo.interfaceRate(other, graphPath, interfaceRates)
        : LevelFifo.rateOf(rates, otherPort, other, graphPath);
    LevelFifo levelFifo = isSetter ? new LevelFifo(fifo, source, target, otherRate, ends.tokens)
        : new LevelFifo(fifo, source, target, ends.tokens, otherRate);
    if (isSetter) {
      ends.setter = levelFifo;
    } else {
      ends.getter = levelFifo;
    }
    return levelFifo;
  }

  /** The delay's actor fires once per graph firing exactly when setter and getter give and take its size. */
  static void checkDelayEnds(DelayEnds ends, String graphPath, long[] levelRepetitions,
      Map<Actor, Integer> nodeIndex) {
    for (LevelFifo end : new LevelFifo[] {ends.setter, ends.getter}) {
      if (end == null) {
        continue;
      }
      boolean isSetter = end == ends.setter;
      Actor actor = isSetter ? end.source() : end.target();
      long rate = isSetter ? end.production() : end.consumption();
      // an interface setter or getter passes the hierarchical actor's tokens once per firing of the graph
      long fires = isInterface(actor) ? 1 : levelRepetitions[nodeIndex.get(actor)];
      long delayFires = levelRepetitions[nodeIndex.get(ends.delay.getActor())];
      if (delayFires != 1) {
        Port port = isSetter ? end.fifo().getSource() : end.fifo().getTarget();
        throw new InputException(Locations.of(end.fifo()), (isSetter ? "setter" : "getter") + " '"
            + actor.getName() + "' of delay '" + ends.delay.getActor().getName() + "' (graph '" + graphPath + "') "
            + (isSetter ? "produces " : "consumes ") + rate + " tokens per firing on port '" + port.getName()
            + "' and fires " + fires + " times per firing of the graph (" + rate + " x " + fires + " = "
            + multiplySaturated(rate, fires) + " tokens), but the delay holds " + ends.tokens + " tokens per"
            + " firing of the graph; the rates must give exactly the delay's size");
      }
    }
  }

  /** A setter's or getter's FIFO must carry tokens of the delayed FIFO's size when both sizes are known. */
  static void checkSetterTokens(Fifo end, Fifo delayed, String fifoName) {
    if (end.getTokenBits() > 0 && delayed.getTokenBits() > 0 && end.getTokenBits() != delayed.getTokenBits()) {
      throw new InputException(Locations.of(end), "FIFO " + end.getSource().getActor().getName() + "."
          + end.getSource().getName() + " -> " + end.getTarget().getActor().getName() + "."
          + end.getTarget().getName() + " carries " + end.getTokenBits() + "-bit tokens but the delayed FIFO "
          + fifoName + " carries " + delayed.getTokenBits() + "-bit tokens");
    }
  }

  private static long multiplySaturated(long a, long b) {
    try {
      return Math.multiplyExact(a, b);
    } catch (ArithmeticException overflow) {
      return Long.MAX_VALUE;
    }
  }

  private static String describe(Fifo fifo, String graphPath) {
    return graphPath + "/" + fifo.getSource().getActor().getName() + "." + fifo.getSource().getName() + " -> "
        + graphPath + "/" + fifo.getTarget().getActor().getName() + "." + fifo.getTarget().getName();
  }
}
