package org.cacheflow.io.pisdf;

import java.nio.file.Files;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.cacheflow.io.xml.XmlElement;
import org.cacheflow.model.Actor;
import org.cacheflow.model.ActorKind;
import org.cacheflow.model.Delay;
import org.cacheflow.model.MemoryAnnotation;
import org.cacheflow.model.Parameter;
import org.cacheflow.model.ParameterKind;
import org.cacheflow.model.PersistenceLevel;
import org.cacheflow.model.Port;
import org.cacheflow.model.PortDirection;
import org.cacheflow.model.expression.Expression;

/**
 * Reads a {@code .pi} file's vertices: parameters ({@code param}, {@code cfg_in_iface}, {@code malleable_param}),
 * actors and interfaces with their ports (kinds, annotations, rates checked at read time), and delay nodes (their
 * expression, persistence level, ports, and setter / getter names, resolved by {@link PiFifoReader} once every
 * node is read). An actor's or a delay's refinement goes to {@link PiRefinementReader}.
 */
final class PiVertexReader extends PiGraphPart {

  private static final Map<String, PortDirection> PORT_KINDS = Map.of(
      "input", PortDirection.INPUT,
      "output", PortDirection.OUTPUT,
      "cfg_input", PortDirection.CONFIG_INPUT,
      "cfg_output", PortDirection.CONFIG_OUTPUT);

  private final PiRefinementReader refinements;

  PiVertexReader(PiGraphPart same, PiRefinementReader refinements) {
    super(same);
    this.refinements = refinements;
  }

  void readParameter(XmlElement node, String name, String kind) {
    Parameter parameter = FACTORY.createParameter();
    parameter.setName(name);
    String expressionAttribute = kind.equals("cfg_in_iface") ? "defaultValue" : "expr";
    Optional<String> expression = node.attribute(expressionAttribute).filter(text -> !text.isBlank());
    parameter.setKind(kind.equals("cfg_in_iface") ? ParameterKind.CONFIG_INPUT : ParameterKind.STATIC);
    locateExpression(parameter, node, expressionAttribute, expression.isPresent());
    if (expression.isPresent()) {
      parameter.setExpression(expression.get());
      parse(expression.get(), parameter);
    }
    if (kind.equals("malleable_param")) {
      diagnostics.warn(start(node), "malleable parameter '" + name + "' is treated as a static parameter of"
          + " value '" + expression.orElse("") + "'");
    }
    graph.getParameters().add(parameter);
    parameters.put(name, parameter);
  }

  void readActor(XmlElement node, String name, ActorKind kind) {
    Actor actor = FACTORY.createActor();
    actor.setName(name);
    actor.setKind(kind);
    locate(actor, node);
    graph.getActors().add(actor);
    actors.put(name, actor);
    boolean isInterface = kind == ActorKind.SOURCE_INTERFACE || kind == ActorKind.SINK_INTERFACE
        || kind == ActorKind.CONFIG_OUTPUT_INTERFACE;
    if (isInterface) {
      readInterfacePort(node, actor);
    } else {
      for (XmlElement port : node.children("port")) {
        readPort(port, actor);
      }
    }
    if (kind == ActorKind.NORMAL) {
      refinements.readRefinement(node, actor, false);
      data(node, "memoryScript").filter(script -> !script.text().isEmpty()).ifPresent(script -> {
        actor.setMemoryScript(script.text());
        if (project.resolve(script.text()).filter(Files::isRegularFile).isEmpty()) {
          diagnostics.warn(content(script), "memory script '" + script.text() + "' of " + describe(actor)
              + " not found (looked for " + project.locate(script.text()) + ")");
        }
      });
    } else if (data(node, "graph_desc").isPresent()) {
      diagnostics.warn(start(data(node, "graph_desc").get()), "refinement of " + describe(actor) + " ignored:"
          + " only actors and delays have one");
    }
    long inputs = actor.getPorts().stream().filter(port -> port.getDirection() == PortDirection.INPUT).count();
    if ((kind == ActorKind.BROADCAST || kind == ActorKind.FORK) && inputs != 1) {
      throw error(node, describe(actor) + " must have exactly one input port, not " + inputs);
    }
  }

  /** An interface has one data port, named after the interface as PREESM names it. */
  private void readInterfacePort(XmlElement node, Actor actor) {
    PortDirection direction = actor.getKind() == ActorKind.SOURCE_INTERFACE ? PortDirection.OUTPUT
        : PortDirection.INPUT;
    Port port = FACTORY.createPort();
    port.setName(actor.getName());
    port.setDirection(direction);
    port.setAnnotation(MemoryAnnotation.NONE);
    XmlElement written = null;
    for (XmlElement child : node.children("port")) {
      PortDirection childDirection = portDirection(child);
      if (childDirection == direction && written == null) {
        written = child;
      } else if (childDirection == PortDirection.CONFIG_INPUT) {
        readPort(child, actor);
      } else {
        throw error(child, "interface '" + actor.getName() + "' can have only one " + direction.getLiteral()
            .toLowerCase(Locale.ROOT) + " port");
      }
    }
    if (written == null) {
      locateExpression(port, node, "expr", false);
      diagnostics.warn(start(node), "interface '" + actor.getName() + "' has no <port> giving its rate");
    } else {
      port.setAnnotation(annotation(written));
      readRate(written, port, actor);
    }
    actor.getPorts().add(0, port);
  }

  private void readPort(XmlElement element, Actor actor) {
    Port port = FACTORY.createPort();
    port.setName(element.requireAttribute("name").trim());
    port.setDirection(portDirection(element));
    port.setAnnotation(annotation(element));
    for (Port existing : actor.getPorts()) {
      if (existing.getName().equals(port.getName())) {
        throw error(element, describe(actor) + " has two ports named '" + port.getName() + "'");
      }
    }
    boolean data = port.getDirection() == PortDirection.INPUT || port.getDirection() == PortDirection.OUTPUT;
    if (data && actor.getKind() == ActorKind.DELAY && element.attribute("expr").filter(t -> !t.isBlank())
        .isEmpty()) {
      // PREESM ignores a delay node's port rates: they are the delay's size (filled in by readDelayNode)
      locate(port, element);
    } else if (data) {
      readRate(element, port, actor);
    } else {
      locate(port, element);
    }
    actor.getPorts().add(port);
  }

  private PortDirection portDirection(XmlElement element) {
    String kind = element.attribute("kind").orElse("");
    PortDirection direction = PORT_KINDS.get(kind);
    if (direction == null) {
      throw error(element, (kind.isEmpty() ? "<port> has no 'kind'" : "unknown port kind '" + kind + "'")
          + " (expected input, output, cfg_input or cfg_output)");
    }
    return direction;
  }

  private MemoryAnnotation annotation(XmlElement element) {
    String text = element.attribute("annotation").orElse("NONE").trim();
    MemoryAnnotation annotation = MemoryAnnotation.get(text.isEmpty() ? "NONE" : text);
    if (annotation == null) {
      throw error(element, "unknown port annotation '" + text + "' (expected NONE, READ_ONLY, WRITE_ONLY or"
          + " UNUSED)");
    }
    return annotation;
  }

  private void readRate(XmlElement element, Port port, Actor actor) {
    Optional<String> rate = element.attribute("expr").filter(text -> !text.isBlank());
    locateExpression(port, element, "expr", rate.isPresent());
    if (rate.isEmpty()) {
      throw error(element, "port '" + port.getName() + "' of " + describe(actor) + " has no rate (expr)");
    }
    port.setRate(rate.get());
    Expression expression = parse(rate.get(), port);
    rejectNegativeLiteral(expression, "rate of port '" + port.getName() + "' of " + describe(actor));
  }

  void readDelayNode(XmlElement node, String name) {
    Delay delay = FACTORY.createDelay();
    delay.setName(name);
    Optional<String> expression = node.attribute("expr").filter(text -> !text.isBlank());
    locateExpression(delay, node, "expr", expression.isPresent());
    expression.ifPresent(text -> {
      delay.setExpression(text);
      rejectNegativeLiteral(parse(text, delay), "delay '" + name + "'");
    });
    delay.setPersistence(persistence(node));
    Actor actor = FACTORY.createActor();
    actor.setName(name);
    actor.setKind(ActorKind.DELAY);
    locate(actor, node);
    for (XmlElement port : node.children("port")) {
      readPort(port, actor);
    }
    for (Port port : actor.getPorts()) {
      if (port.getRate() == null && port.getDirection() != PortDirection.CONFIG_INPUT) {
        port.setRate(delay.getExpression());
      }
    }
    delay.setActor(actor);
    delays.put(name, delay);
    delayElements.put(delay, node);
    String setter = node.attribute("setter").orElse("").trim();
    String getter = node.attribute("getter").orElse("").trim();
    if (setter.isEmpty()) {
      // PREESM uses the init refinement only when no setter actor gives the initial tokens
      refinements.readRefinement(node, actor, true);
    }
    pendingDelayEnds.add(new DelayEnds(delay, node, setter, getter));
  }

  private PersistenceLevel persistence(XmlElement node) {
    String level = node.attribute("level").orElse("permanent").trim();
    return switch (level.toLowerCase(Locale.ROOT)) {
      case "permanent", "" -> PersistenceLevel.PERMANENT;
      case "local" -> PersistenceLevel.LOCAL;
      case "none" -> PersistenceLevel.NONE;
      default -> throw error(node, "unknown delay persistence level '" + level + "' (expected permanent, local or"
          + " none)");
    };
  }
}
