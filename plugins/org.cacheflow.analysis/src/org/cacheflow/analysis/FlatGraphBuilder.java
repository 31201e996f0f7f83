package org.cacheflow.analysis;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.cacheflow.model.Actor;
import org.cacheflow.model.ActorKind;
import org.cacheflow.model.Fifo;
import org.cacheflow.model.MemoryAnnotation;
import org.cacheflow.model.PersistenceLevel;
import org.cacheflow.model.PortDirection;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * The flat graph while {@link Flattener} builds it: actors and FIFOs indexing each other, the removal of interface
 * actors that do nothing, and at the end the immutable {@link FlatGraph} (warning of token sizes it assumes and of
 * ports left unconnected).
 */
final class FlatGraphBuilder {

  private final Diagnostics warnings;
  final List<ActorBuilder> actors = new ArrayList<>();
  final List<FifoBuilder> fifos = new ArrayList<>();

  FlatGraphBuilder(Diagnostics warnings) {
    this.warnings = warnings;
  }

  /** Adds a FIFO and records it at its source's outputs and its target's inputs. */
  void add(FifoBuilder fifo) {
    actors.get(fifo.source).outputs.add(fifos.size());
    actors.get(fifo.target).inputs.add(fifos.size());
    fifos.add(fifo);
  }

  // ---------------------------------------------------------------------------------------------------
  // Interfaces that do nothing

  /**
   * Removes each interface broadcast / round buffer whose input and output rates are equal and whose
   * inner FIFO has no delay, joining its two FIFOs into one that keeps the outer FIFO's delay, type and
   * location.
   */
  void removeIdentityInterfaces() {
    for (int a = actors.size() - 1; a >= 0; a--) {
      ActorBuilder actor = actors.get(a);
      if (!actor.fromInterface || actor.inputs.size() != 1 || actor.outputs.size() != 1) {
        continue;
      }
      FifoBuilder in = fifos.get(actor.inputs.get(0));
      FifoBuilder out = fifos.get(actor.outputs.get(0));
      boolean isBroadcast = actor.kind == ActorKind.BROADCAST;
      FifoBuilder outer = isBroadcast ? in : out;
      FifoBuilder inner = isBroadcast ? out : in;
      if (in.consumption != out.production || inner.delay > 0) {
        continue;
      }
      FifoBuilder merged = new FifoBuilder();
      merged.source = in.source;
      merged.sourcePort = in.sourcePort;
      merged.production = in.production;
      merged.target = out.target;
      merged.targetPort = out.targetPort;
      merged.consumption = out.consumption;
      merged.delay = outer.delay;
      merged.persistence = outer.persistence;
      merged.delaySegments = outer.delaySegments;
      merged.delayPersistent = outer.delayPersistent;
      merged.type = outer.type != null ? outer.type : inner.type;
      merged.tokenBits = outer.tokenBits > 0 ? outer.tokenBits : inner.tokenBits;
      merged.location = outer.location;
      merged.origin = outer.origin;
      merged.delayConfig = outer.delayConfig;
      merged.setter = outer.setter;
      merged.setterPort = outer.setterPort;
      merged.getter = outer.getter;
      merged.getterPort = outer.getterPort;
      int mergedIndex = fifos.size();
      fifos.add(merged);
      in.removed = true;
      out.removed = true;
      actor.removed = true;
      replace(actors.get(merged.source).outputs, actor.inputs.get(0), mergedIndex);
      replace(actors.get(merged.target).inputs, actor.outputs.get(0), mergedIndex);
    }
  }

  private static void replace(List<Integer> list, int old, int replacement) {
    int at = list.indexOf(old);
    if (at >= 0) {
      list.set(at, replacement);
    }
  }

  // ---------------------------------------------------------------------------------------------------
  // Result

  /** The flat graph, without the removed actors and FIFOs; checks that every FIFO is balanced. */
  FlatGraph build(String name, SourceLocation location) {
    int[] newActorIndex = new int[actors.size()];
    int count = 0;
    for (int a = 0; a < actors.size(); a++) {
      newActorIndex[a] = actors.get(a).removed ? -1 : count++;
    }
    List<FlatFifo> flatFifos = new ArrayList<>();
    Map<String, Integer> fifoAtPort = new HashMap<>();
    Set<String> defaultedTypes = new LinkedHashSet<>();
    for (FifoBuilder fifo : fifos) {
      if (fifo.removed) {
        continue;
      }
      int index = flatFifos.size();
      int source = newActorIndex[fifo.source];
      int target = newActorIndex[fifo.target];
      boolean defaulted = fifo.tokenBits <= 0;
      if (defaulted) {
        String typeName = fifo.type == null || fifo.type.isBlank() ? null : fifo.type;
        if (defaultedTypes.add(typeName == null ? "" : typeName)) {
          warnings.warn(fifo.location, (typeName == null ? "FIFO " + actors.get(fifo.source).path + "."
              + fifo.sourcePort + " -> " + actors.get(fifo.target).path + "." + fifo.targetPort
              + " has no token size" : "data type '" + typeName + "' has no size") + "; assuming "
              + FlatFifo.DEFAULT_TOKEN_BITS + " bits per token");
        }
      }
      int setter = fifo.setter < 0 ? -1 : newActorIndex[fifo.setter];
      int getter = fifo.getter < 0 ? -1 : newActorIndex[fifo.getter];
      flatFifos.add(new FlatFifo(index, source, fifo.sourcePort, target, fifo.targetPort, fifo.production,
          fifo.consumption, fifo.delay, fifo.persistence, fifo.delaySegments, fifo.delayPersistent, fifo.type,
          defaulted ? FlatFifo.DEFAULT_TOKEN_BITS : fifo.tokenBits, defaulted, fifo.location, fifo.origin,
          fifo.delayConfig, setter, setter < 0 ? null : fifo.setterPort, getter, getter < 0 ? null : fifo.getterPort));
      fifoAtPort.put(source + "\u0000out\u0000" + fifo.sourcePort, index);
      fifoAtPort.put(target + "\u0000in\u0000" + fifo.targetPort, index);
      if (setter >= 0) {
        // the setter's port writes this FIFO's first tokens
        fifoAtPort.put(setter + "\u0000out\u0000" + fifo.setterPort, index);
      }
      if (getter >= 0) {
        fifoAtPort.put(getter + "\u0000in\u0000" + fifo.getterPort, index);
      }
    }
    List<FlatActor> flatActors = new ArrayList<>();
    for (int a = 0; a < actors.size(); a++) {
      ActorBuilder actor = actors.get(a);
      if (actor.removed) {
        continue;
      }
      int index = flatActors.size();
      List<FlatPort> ports = new ArrayList<>();
      for (PortBuilder port : actor.ports) {
        String key = index + (port.direction == PortDirection.INPUT ? "\u0000in\u0000" : "\u0000out\u0000")
            + port.name;
        Integer fifo = fifoAtPort.get(key);
        if (fifo == null && !actor.fromInterface) {
          warnings.warn(port.location, "port " + actor.path + "." + port.name + " is not connected to a FIFO");
        }
        ports.add(new FlatPort(port.name, port.direction, port.rate,
            port.annotation == null ? MemoryAnnotation.NONE : port.annotation, port.location,
            fifo == null ? -1 : fifo));
      }
      flatActors.add(new FlatActor(index, actor.path, actor.kind, actor.repetitions, ports, actor.configValues,
          actor.location, actor.origin, actor.fromInterface, actor.configOutputs));
    }
    FlatGraph flat = new FlatGraph(name, location, flatActors, flatFifos);
    for (FlatFifo fifo : flatFifos) {
      long produced;
      long consumed;
      try {
        produced = Math.multiplyExact(fifo.production(), flatActors.get(fifo.source()).repetitions());
        consumed = Math.multiplyExact(fifo.consumption(), flatActors.get(fifo.target()).repetitions());
      } catch (ArithmeticException overflow) {
        throw new InputException(fifo.location(), "tokens per iteration on FIFO " + flat.describe(fifo)
            + " do not fit 64-bit integers");
      }
      if (produced != consumed) {
        // every level was solved and interfaces adapt rates, so this is a bug, not bad input
        throw new IllegalStateException("flattening broke the balance of " + flat.describe(fifo) + ": "
            + produced + " != " + consumed);
      }
    }
    return flat;
  }

  static final class ActorBuilder {
    final String path;
    final ActorKind kind;
    final long repetitions;
    final SourceLocation location;
    final Actor origin;
    final boolean fromInterface;
    final List<PortBuilder> ports = new ArrayList<>();
    final Map<String, Long> configValues = new LinkedHashMap<>();
    final Map<String, Long> configOutputs = new LinkedHashMap<>();
    final List<Integer> inputs = new ArrayList<>();
    final List<Integer> outputs = new ArrayList<>();
    boolean removed;

    ActorBuilder(String path, ActorKind kind, long repetitions, SourceLocation location, Actor origin,
        boolean fromInterface) {
      this.path = path;
      this.kind = kind;
      this.repetitions = repetitions;
      this.location = location;
      this.origin = origin;
      this.fromInterface = fromInterface;
    }

    PortBuilder port(String name) {
      for (PortBuilder port : ports) {
        if (port.name.equals(name)) {
          return port;
        }
      }
      throw new IllegalStateException("no port " + name + " on " + path);
    }
  }

  static final class PortBuilder {
    final String name;
    final PortDirection direction;
    final long rate;
    final MemoryAnnotation annotation;
    final SourceLocation location;

    PortBuilder(String name, PortDirection direction, long rate, MemoryAnnotation annotation,
        SourceLocation location) {
      this.name = name;
      this.direction = direction;
      this.rate = rate;
      this.annotation = annotation;
      this.location = location;
    }
  }

  static final class FifoBuilder {
    int source;
    String sourcePort;
    int target;
    String targetPort;
    long production;
    long consumption;
    long delay;
    PersistenceLevel persistence;
    long delaySegments = 1;
    boolean delayPersistent;
    String type;
    long tokenBits;
    SourceLocation location;
    Fifo origin;
    Map<String, Long> delayConfig = Map.of();
    int setter = -1;
    String setterPort;
    int getter = -1;
    String getterPort;
    boolean removed;
  }
}
