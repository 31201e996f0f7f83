package org.cacheflow.io.pisdf;

import java.util.Locale;
import java.util.Optional;

import org.cacheflow.io.xml.XmlElement;
import org.cacheflow.model.Actor;
import org.cacheflow.model.ActorKind;
import org.cacheflow.model.Delay;
import org.cacheflow.model.Fifo;
import org.cacheflow.model.PersistenceLevel;
import org.cacheflow.model.Port;
import org.cacheflow.model.PortDirection;
import org.cacheflow.model.diagnostics.InputException;

/**
 * Reads a {@code .pi} file's FIFOs ({@code <edge kind="fifo">}): their ends (actor or delay node ports), type, and
 * delay (a delay node named by {@code <data key="delay">}, or in old files an expression on the edge); then makes
 * each delay node's setter and getter from the FIFOs into and out of it, checked against its {@code setter} /
 * {@code getter} attributes.
 */
final class PiFifoReader extends PiGraphPart {

  PiFifoReader(PiGraphPart same) {
    super(same);
  }

  void readFifo(XmlElement edge) {
    Port source = fifoEnd(edge, "source", "sourceport", PortDirection.OUTPUT);
    Port target = fifoEnd(edge, "target", "targetport", PortDirection.INPUT);
    Fifo fifo = FACTORY.createFifo();
    locate(fifo, edge);
    fifo.setSource(source);
    fifo.setTarget(target);
    String type = edge.attribute("type").orElse("").trim();
    fifo.setType(type.isEmpty() ? "void" : type);
    fifo.setTokenBits(0);
    source.setFifo(fifo);
    target.setFifo(fifo);
    readFifoDelay(edge, fifo);
    graph.getFifos().add(fifo);
    fifosById.put(owner(source).getName() + "." + source.getName() + "-" + owner(target).getName() + "."
        + target.getName(), fifo);
  }

  private Port fifoEnd(XmlElement edge, String nodeAttribute, String portAttribute, PortDirection direction) {
    String nodeName = edge.requireAttribute(nodeAttribute).trim();
    String portName = edge.attribute(portAttribute).orElse("").trim();
    String role = nodeAttribute.equals("source") ? "FIFO source" : "FIFO target";
    Actor actor = actors.get(nodeName);
    if (actor == null && delays.containsKey(nodeName)) {
      actor = delays.get(nodeName).getActor();
    }
    if (actor == null) {
      String what = parameters.containsKey(nodeName) ? "is a parameter, not an actor" : "is not a node of graph '"
          + graph.getName() + "'";
      throw error(edge, role + " '" + nodeName + "' " + what);
    }
    Port port = null;
    boolean isInterface = actor.getKind() == ActorKind.SOURCE_INTERFACE
        || actor.getKind() == ActorKind.SINK_INTERFACE;
    for (Port candidate : actor.getPorts()) {
      if (candidate.getDirection() == direction
          && (candidate.getName().equals(portName) || (isInterface && portName.isEmpty()))) {
        port = candidate;
      }
    }
    if (port == null) {
      String written = portName.isEmpty() ? "no " + portAttribute + " attribute"
          : "no " + direction.getLiteral().toLowerCase(Locale.ROOT) + " port '" + portName + "'";
      throw error(edge, role + " " + describe(actor) + " has " + written);
    }
    if (port.getFifo() != null) {
      throw error(edge, "port '" + port.getName() + "' of " + describe(actor) + " already has a FIFO (line "
          + port.getFifo().getLine() + ")");
    }
    return port;
  }

  private void readFifoDelay(XmlElement edge, Fifo fifo) {
    Optional<XmlElement> delayData = data(edge, "delay");
    Optional<String> delayAttribute = edge.attribute("delay").filter(text -> !text.isBlank());
    if (delayData.isPresent() && !delayData.get().text().isEmpty()) {
      String name = delayData.get().text();
      Delay delay = delays.get(name);
      if (delay == null) {
        throw new InputException(content(delayData.get()), "FIFO delay '" + name + "' is not a delay node of"
            + " graph '" + graph.getName() + "'");
      }
      if (!usedDelays.add(delay)) {
        throw new InputException(content(delayData.get()), "delay '" + name + "' is on two FIFOs");
      }
      fifo.setDelay(delay);
      String onEdge = edge.attribute("expr").orElse("").trim();
      if (delay.getExpression() == null && !onEdge.isEmpty()) {
        delay.setExpression(onEdge);
        locateExpression(delay, edge, "expr", true);
        parse(onEdge, delay);
      } else if (!onEdge.isEmpty() && !onEdge.equals(delay.getExpression().trim())) {
        diagnostics.warn(start(edge), "FIFO says its delay is '" + onEdge + "' but delay node '" + name
            + "' says '" + delay.getExpression() + "'; using the delay node's");
      }
      if (delay.getExpression() == null) {
        throw error(delayElements.get(delay), "delay '" + name + "' has no expression (expr)");
      }
    } else if (delayData.isPresent() || delayAttribute.isPresent()) {
      // old files: the delay is only an expression on the FIFO
      String attribute = delayAttribute.isPresent() ? "delay" : "expr";
      Optional<String> text = delayAttribute.or(() -> edge.attribute("expr").filter(value -> !value.isBlank()));
      if (text.isEmpty()) {
        throw error(edge, "FIFO has a delay without expression (expr)");
      }
      Delay delay = FACTORY.createDelay();
      delay.setName("");
      delay.setExpression(text.get().trim());
      delay.setPersistence(PersistenceLevel.PERMANENT);
      locateExpression(delay, edge, attribute, true);
      rejectNegativeLiteral(parse(delay.getExpression(), delay), "delay of the FIFO");
      fifo.setDelay(delay);
    }
  }

  /**
   * Checks a delay's setter (or getter) FIFO against its {@code setter} ({@code getter}) attribute: a FIFO
   * into the delay node's input port (out of its output port) makes its other end the setter (getter), as
   * PREESM derives it from the FIFOs; an attribute naming an actor that no such FIFO connects, or another
   * actor than the FIFO's, is an error.
   */
  void linkDelayEnd(Delay delay, XmlElement node, boolean isSetter) {
    String role = isSetter ? "setter" : "getter";
    Fifo fifo = null;
    for (Port port : delay.getActor().getPorts()) {
      if (port.getFifo() != null && port.getDirection() == (isSetter ? PortDirection.INPUT : PortDirection.OUTPUT)) {
        if (fifo != null) {
          throw new InputException(location(port.getFifo()), "delay '" + delay.getName() + "' has a second "
              + role + " FIFO (the first is at line " + fifo.getLine() + ")");
        }
        fifo = port.getFifo();
      }
    }
    Actor named = isSetter ? delay.getSetter() : delay.getGetter();
    if (fifo == null) {
      if (named != null) {
        throw error(node, "delay '" + delay.getName() + "' names '" + named.getName() + "' as its " + role
            + " but no FIFO connects it to the delay's " + (isSetter ? "input" : "output") + " port");
      }
      return;
    }
    Actor connected = owner(isSetter ? fifo.getSource() : fifo.getTarget());
    ActorKind kind = connected.getKind();
    // a source interface may set and a sink interface may get a sub-graph's delay (the enclosing graph
    // gives the initial tokens and takes the final ones), as PREESM's removePersistence itself writes it
    ActorKind ownInterface = isSetter ? ActorKind.SOURCE_INTERFACE : ActorKind.SINK_INTERFACE;
    if (kind == ActorKind.DELAY || kind == ActorKind.SOURCE_INTERFACE || kind == ActorKind.SINK_INTERFACE
        || kind == ActorKind.CONFIG_OUTPUT_INTERFACE) {
      if (kind != ownInterface) {
        throw new InputException(location(fifo), "the " + role + " of delay '" + delay.getName() + "' must be an"
            + " actor or a " + (isSetter ? "source" : "sink") + " interface, not " + describe(connected));
      }
    }
    if (named != null && named != connected) {
      throw new InputException(location(fifo), "this FIFO makes '" + connected.getName() + "' the " + role
          + " of delay '" + delay.getName() + "', but the delay node names '" + named.getName() + "'");
    }
    if (isSetter) {
      delay.setSetter(connected);
    } else {
      delay.setGetter(connected);
    }
  }

  /** Setter and getter name actors, which may be written after the delay node. */
  void resolveDelayEnds() {
    for (DelayEnds ends : pendingDelayEnds) {
      if (!ends.setter().isEmpty()) {
        ends.delay().setSetter(delayEnd(ends, ends.setter(), "setter"));
      }
      if (!ends.getter().isEmpty()) {
        ends.delay().setGetter(delayEnd(ends, ends.getter(), "getter"));
      }
    }
  }

  private Actor delayEnd(DelayEnds ends, String name, String role) {
    Actor actor = actors.get(name);
    if (actor == null) {
      throw error(ends.node(), "delay " + role + " '" + name + "' of delay '" + ends.delay().getName()
          + "' is not an actor of graph '" + graph.getName() + "'");
    }
    return actor;
  }
}
