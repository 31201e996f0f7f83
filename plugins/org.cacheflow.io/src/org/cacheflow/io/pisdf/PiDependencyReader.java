package org.cacheflow.io.pisdf;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.cacheflow.io.xml.XmlElement;
import org.cacheflow.model.Actor;
import org.cacheflow.model.ActorKind;
import org.cacheflow.model.Delay;
import org.cacheflow.model.Dependency;
import org.cacheflow.model.Fifo;
import org.cacheflow.model.MemoryAnnotation;
import org.cacheflow.model.Parameter;
import org.cacheflow.model.ParameterKind;
import org.cacheflow.model.Port;
import org.cacheflow.model.PortDirection;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * Reads a {@code .pi} file's dependencies ({@code <edge kind="dependency">}): from a parameter or an actor's config
 * output port to a parameter, a config input port (made for an interface, which has none in the file), or a
 * delay; then checks the connections once the graph is complete (a config input fed twice is an error; unconnected
 * ports are warnings).
 */
final class PiDependencyReader extends PiGraphPart {

  PiDependencyReader(PiGraphPart same) {
    super(same);
  }

  void readDependency(XmlElement edge) {
    String sourceName = edge.requireAttribute("source").trim();
    String targetName = edge.requireAttribute("target").trim();
    Dependency dependency = FACTORY.createDependency();
    locate(dependency, edge);

    Parameter sourceParameter = parameters.get(sourceName);
    Actor sourceActor = actors.get(sourceName);
    if (sourceParameter != null) {
      dependency.setSource(sourceParameter);
    } else if (sourceActor != null) {
      String portName = edge.attribute("sourceport").orElse("").trim();
      Port port = sourceActor.getPorts().stream()
          .filter(candidate -> candidate.getDirection() == PortDirection.CONFIG_OUTPUT
              && candidate.getName().equals(portName))
          .findFirst().orElseThrow(() -> error(edge, "dependency source " + describe(sourceActor)
              + " has no config output port '" + portName + "'"));
      dependency.setSourcePort(port);
    } else {
      throw error(edge, "dependency source '" + sourceName + "' is not a parameter or actor of graph '"
          + graph.getName() + "'");
    }

    Parameter targetParameter = parameters.get(targetName);
    Actor targetActor = actors.get(targetName);
    Delay targetDelay = delays.containsKey(targetName) ? delays.get(targetName)
        : Optional.ofNullable(fifosById.get(targetName)).map(Fifo::getDelay).orElse(null);
    if (targetParameter != null) {
      if (targetParameter.getKind() == ParameterKind.CONFIG_INPUT) {
        throw error(edge, "config input parameter '" + targetName + "' takes its value from the parent graph,"
            + " not from a dependency");
      }
      dependency.setTargetParameter(targetParameter);
      if (sourceActor != null) {
        targetParameter.setKind(ParameterKind.DYNAMIC);
      }
    } else if (targetActor != null) {
      if (sourceParameter == null) {
        throw error(edge, "a config output port can only set a parameter, not " + describe(targetActor));
      }
      dependency.setTargetPort(configInputPort(edge, targetActor, sourceParameter));
    } else if (targetDelay != null) {
      if (sourceParameter == null) {
        throw error(edge, "a config output port can only set a parameter, not delay '" + targetName + "'");
      }
      dependency.setTargetDelay(targetDelay);
    } else if (fifosById.containsKey(targetName)) {
      throw error(edge, "dependency target FIFO '" + targetName + "' has no delay to receive it");
    } else {
      throw error(edge, "dependency target '" + targetName + "' is not a parameter, actor or delay of graph '"
          + graph.getName() + "'");
    }
    for (Dependency earlier : graph.getDependencies()) {
      if (sameEnds(earlier, dependency)) {
        // PREESM's editor can write an edge twice; the copy changes nothing
        diagnostics.warn(location(dependency), "dependency from '" + sourceName + "' to '" + targetName + "'"
            + edge.attribute("targetport").map(port -> port.isBlank() ? "" : " port '" + port.trim() + "'")
                .orElse("")
            + " is written twice (also at line " + earlier.getLine() + "); the copy is ignored");
        return;
      }
    }
    graph.getDependencies().add(dependency);
  }

  private static String sourceName(Dependency dependency) {
    if (dependency.getSourcePort() != null) {
      return "config output port '" + dependency.getSourcePort().getName() + "' of "
          + describe(owner(dependency.getSourcePort()));
    }
    return dependency.getSource() == null ? "nothing" : "parameter '" + dependency.getSource().getName() + "'";
  }

  /** Whether two dependencies join the same source (parameter or port) to the same target. */
  private static boolean sameEnds(Dependency a, Dependency b) {
    return a.getSource() == b.getSource() && a.getSourcePort() == b.getSourcePort()
        && a.getTargetPort() == b.getTargetPort() && a.getTargetParameter() == b.getTargetParameter()
        && a.getTargetDelay() == b.getTargetDelay();
  }

  /**
   * The config input port a dependency feeds: the named one of an actor; for an interface, which has
   * none in the file, one made for the purpose and named after the parameter.
   */
  private Port configInputPort(XmlElement edge, Actor actor, Parameter source) {
    String portName = edge.attribute("targetport").orElse("").trim();
    boolean isInterface = actor.getKind() == ActorKind.SOURCE_INTERFACE
        || actor.getKind() == ActorKind.SINK_INTERFACE || actor.getKind() == ActorKind.CONFIG_OUTPUT_INTERFACE;
    if (portName.isEmpty() && isInterface) {
      portName = source.getName();
      for (Port port : actor.getPorts()) {
        if (port.getDirection() == PortDirection.CONFIG_INPUT && port.getName().equals(portName)) {
          return port;
        }
      }
      Port port = FACTORY.createPort();
      port.setName(portName);
      port.setDirection(PortDirection.CONFIG_INPUT);
      port.setAnnotation(MemoryAnnotation.NONE);
      locate(port, edge);
      actor.getPorts().add(port);
      return port;
    }
    if (portName.isEmpty()) {
      throw error(edge, "dependency to " + describe(actor) + " names no targetport");
    }
    for (Port port : actor.getPorts()) {
      if (port.getName().equals(portName)) {
        if (port.getDirection() != PortDirection.CONFIG_INPUT) {
          throw error(edge, "dependency target port '" + portName + "' of " + describe(actor)
              + " is not a config input port");
        }
        return port;
      }
    }
    throw error(edge, "dependency target " + describe(actor) + " has no config input port '" + portName + "'");
  }

  /** Warnings for what PREESM's consistency check would reject later but a reader can live with. */
  void checkConnections() {
    Set<Port> fed = new HashSet<>();
    Map<Port, Dependency> feeding = new HashMap<>();
    for (Dependency dependency : graph.getDependencies()) {
      Port port = dependency.getTargetPort();
      if (port != null) {
        Dependency earlier = feeding.put(port, dependency);
        if (earlier != null) {
          throw new InputException(location(dependency), "config input port '" + port.getName() + "' of "
              + describe(owner(port)) + " is fed twice, by " + sourceName(dependency) + " here and by "
              + sourceName(earlier) + " at line " + earlier.getLine() + "; a config input takes one value");
        }
        fed.add(port);
      }
    }
    for (Actor actor : graph.getActors()) {
      for (Port port : actor.getPorts()) {
        boolean data = port.getDirection() == PortDirection.INPUT || port.getDirection() == PortDirection.OUTPUT;
        if (data && port.getFifo() == null) {
          diagnostics.warn(new SourceLocation(port.getFile(), port.getLine(), 0), "port '" + port.getName()
              + "' of " + describe(actor) + " is connected to no FIFO");
        } else if (port.getDirection() == PortDirection.CONFIG_INPUT && !fed.contains(port)) {
          diagnostics.warn(new SourceLocation(port.getFile(), port.getLine(), 0), "config input port '"
              + port.getName() + "' of " + describe(actor) + " is fed by no parameter");
        }
      }
    }
  }
}
