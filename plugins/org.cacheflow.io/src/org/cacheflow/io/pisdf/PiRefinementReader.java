package org.cacheflow.io.pisdf;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import org.cacheflow.io.xml.XmlElement;
import org.cacheflow.model.Actor;
import org.cacheflow.model.ActorKind;
import org.cacheflow.model.Graph;
import org.cacheflow.model.Parameter;
import org.cacheflow.model.ParameterKind;
import org.cacheflow.model.Port;
import org.cacheflow.model.PortDirection;
import org.cacheflow.model.Prototype;
import org.cacheflow.model.PrototypeDirection;
import org.cacheflow.model.PrototypeParameter;
import org.cacheflow.model.Refinement;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * Reads an actor's or a delay's refinement ({@code <data key="graph_desc">}): a header with the {@code <loop>} and
 * {@code <init>} prototypes written in the {@code .pi}, or a {@code .pi} sub-graph, read recursively through
 * {@link PiReader} and checked against the hierarchical actor's ports (PREESM reconnects them by name).
 */
final class PiRefinementReader extends PiGraphPart {

  PiRefinementReader(PiGraphPart same) {
    super(same);
  }

  void readRefinement(XmlElement node, Actor actor, boolean isDelay) {
    Optional<XmlElement> description = data(node, "graph_desc").filter(data -> !data.text().isEmpty());
    if (description.isEmpty()) {
      if (!isDelay) {
        diagnostics.warn(start(node), describe(actor) + " has no refinement (<data key=\"graph_desc\">)");
      }
      return;
    }
    XmlElement data = description.get();
    String path = data.text();
    Refinement refinement = FACTORY.createRefinement();
    locate(refinement, data);
    actor.setRefinement(refinement);
    String lower = path.toLowerCase(Locale.ROOT);
    if (lower.endsWith(".pi")) {
      if (isDelay) {
        throw error(data, "a delay's initialisation cannot be a sub-graph ('" + path + "')");
      }
      refinement.setSubgraphPath(path);
      Optional<Path> subgraphFile = project.resolve(path).filter(Files::isRegularFile);
      if (subgraphFile.isEmpty()) {
        throw new InputException(content(data), "sub-graph file '" + path + "' of " + describe(actor)
            + " not found (looked for " + project.locate(path) + ")");
      }
      Graph subgraph = reader.readGraph(subgraphFile.get(), content(data));
      refinement.setSubgraph(subgraph);
      checkHierarchy(actor, subgraph, data);
    } else if (lower.endsWith(".h") || lower.endsWith(".hpp") || lower.endsWith(".hxx")) {
      refinement.setHeaderPath(path);
      node.child("loop").ifPresent(loop -> refinement.setLoopPrototype(prototype(loop)));
      node.child("init").ifPresent(init -> refinement.setInitPrototype(prototype(init)));
      if (project.resolve(path).filter(Files::isRegularFile).isEmpty()) {
        diagnostics.warn(content(data), "refinement header '" + path + "' of " + describe(actor)
            + " not found; using the prototypes written in the .pi");
      }
      if (refinement.getLoopPrototype() == null && !isDelay) {
        diagnostics.warn(start(node), describe(actor) + " has no <loop> prototype");
      }
    } else {
      throw new InputException(content(data), "unsupported refinement '" + path + "' of " + describe(actor)
          + ": expected a .h header or a .pi graph");
    }
  }

  private Prototype prototype(XmlElement element) {
    Prototype prototype = FACTORY.createPrototype();
    prototype.setName(element.requireAttribute("name").trim());
    locate(prototype, element);
    for (XmlElement child : element.children("param")) {
      PrototypeParameter parameter = FACTORY.createPrototypeParameter();
      parameter.setName(child.requireAttribute("name").trim());
      parameter.setType(child.requireAttribute("type").trim());
      String direction = child.requireAttribute("direction").trim();
      switch (direction) {
        case "IN" -> parameter.setDirection(PrototypeDirection.IN);
        case "OUT" -> parameter.setDirection(PrototypeDirection.OUT);
        default -> throw error(child, "unknown prototype parameter direction '" + direction
            + "' (expected IN or OUT)");
      }
      parameter.setConfig(Boolean.parseBoolean(child.attribute("isConfig").orElse("false").trim()));
      locate(parameter, child);
      prototype.getParameters().add(parameter);
    }
    return prototype;
  }

  /**
   * A hierarchical actor's ports are its sub-graph's interfaces: each data port needs an interface of the
   * same name and direction, each config input port a config input parameter (PREESM reconnects them by
   * name and fails otherwise).
   */
  private void checkHierarchy(Actor actor, Graph subgraph, XmlElement reference) {
    Map<String, Actor> interfaces = new HashMap<>();
    for (Actor inner : subgraph.getActors()) {
      interfaces.put(inner.getName(), inner);
    }
    Set<String> configInputs = subgraph.getParameters().stream()
        .filter(parameter -> parameter.getKind() == ParameterKind.CONFIG_INPUT)
        .map(Parameter::getName).collect(Collectors.toSet());
    Set<String> matched = new HashSet<>();
    for (Port port : actor.getPorts()) {
      SourceLocation at = new SourceLocation(port.getFile(), port.getLine(), 0);
      switch (port.getDirection()) {
        case INPUT, OUTPUT -> {
          ActorKind expected = port.getDirection() == PortDirection.INPUT ? ActorKind.SOURCE_INTERFACE
              : ActorKind.SINK_INTERFACE;
          Actor inner = interfaces.get(port.getName());
          if (inner == null || inner.getKind() != expected) {
            throw new InputException(at, "port '" + port.getName() + "' of hierarchical " + describe(actor)
                + " has no " + (expected == ActorKind.SOURCE_INTERFACE ? "source (src)" : "sink (snk)")
                + " interface of that name in sub-graph '" + subgraph.getName() + "'");
          }
          matched.add(port.getName());
        }
        case CONFIG_INPUT -> {
          if (!configInputs.contains(port.getName())) {
            throw new InputException(at, "config input port '" + port.getName() + "' of hierarchical "
                + describe(actor) + " has no config input parameter (cfg_in_iface) of that name in sub-graph '"
                + subgraph.getName() + "'");
          }
          matched.add(port.getName());
        }
        case CONFIG_OUTPUT -> matched.add(port.getName());
        default -> throw new IllegalStateException("port direction " + port.getDirection());
      }
    }
    for (Actor inner : subgraph.getActors()) {
      boolean isDataInterface = inner.getKind() == ActorKind.SOURCE_INTERFACE
          || inner.getKind() == ActorKind.SINK_INTERFACE;
      if (isDataInterface && !matched.contains(inner.getName())) {
        diagnostics.warn(content(reference), "interface '" + inner.getName() + "' of sub-graph '"
            + subgraph.getName() + "' has no port on " + describe(actor));
      }
    }
    for (String configInput : configInputs) {
      if (!matched.contains(configInput)) {
        diagnostics.warn(content(reference), "config input parameter '" + configInput + "' of sub-graph '"
            + subgraph.getName() + "' has no config input port on " + describe(actor) + "; it keeps its"
            + " default value, if any");
      }
    }
  }
}
