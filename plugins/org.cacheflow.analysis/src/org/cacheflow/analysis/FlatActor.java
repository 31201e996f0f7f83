package org.cacheflow.analysis;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.cacheflow.model.Actor;
import org.cacheflow.model.ActorKind;
import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * An actor of the flattened graph: a leaf actor of the hierarchy, or the broadcast / round buffer that
 * stands for a sub-graph interface (see {@link Flattener}).
 *
 * @param index position in {@link FlatGraph#actors()}
 * @param path the graph names and hierarchical actor names down to the actor, joined with {@code /}, e.g.
 *     {@code stereo_top/costParallel/aggregate}
 * @param kind the actor's kind; interfaces kept in the flat graph are BROADCAST (source interface) or
 *     ROUNDBUFFER (sink interface)
 * @param repetitions firings per iteration of the top graph (the repetition vector entry)
 * @param ports data ports in declaration order, rates evaluated
 * @param configValues the value reaching each config input port, by port name
 * @param location where the actor (or interface) was read from
 * @param origin the model actor it comes from (the interface actor for an interface)
 * @param fromInterface whether the actor stands for a sub-graph interface
 * @param configOutputs for a configuration actor, the value each config output port sets its dynamic parameter to
 *     in the graph as analysed (the value it was planned for), by port name; empty for other actors
 */
public record FlatActor(int index, String path, ActorKind kind, long repetitions, List<FlatPort> ports,
    Map<String, Long> configValues, SourceLocation location, Actor origin, boolean fromInterface,
    Map<String, Long> configOutputs) {

  public FlatActor {
    ports = List.copyOf(ports);
    configValues = Collections.unmodifiableMap(new LinkedHashMap<>(configValues));
    configOutputs = Collections.unmodifiableMap(new LinkedHashMap<>(configOutputs));
  }

  /** An actor without config output ports. */
  public FlatActor(int index, String path, ActorKind kind, long repetitions, List<FlatPort> ports,
      Map<String, Long> configValues, SourceLocation location, Actor origin, boolean fromInterface) {
    this(index, path, kind, repetitions, ports, configValues, location, origin, fromInterface, Map.of());
  }

  /** The last path segment. */
  public String name() {
    return path.substring(path.lastIndexOf('/') + 1);
  }

  /** The data port of that name, or null. */
  public FlatPort port(String name) {
    for (FlatPort port : ports) {
      if (port.name().equals(name)) {
        return port;
      }
    }
    return null;
  }
}
