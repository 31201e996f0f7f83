package org.cacheflow.io.sdf3;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.cacheflow.io.xml.LocatedXmlReader;
import org.cacheflow.io.xml.XmlElement;
import org.cacheflow.model.Actor;
import org.cacheflow.model.ActorKind;
import org.cacheflow.model.Delay;
import org.cacheflow.model.Fifo;
import org.cacheflow.model.Graph;
import org.cacheflow.model.Located;
import org.cacheflow.model.ModelFactory;
import org.cacheflow.model.PersistenceLevel;
import org.cacheflow.model.Port;
import org.cacheflow.model.PortDirection;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * Reads an SDF3 XML graph ({@code <sdf3 type="sdf">}, schema {@code sdf3-sdf.xsd}) into a {@link Graph}.
 *
 * <p>Mapping: each {@code applicationGraph/sdf/actor} becomes a {@link ActorKind#NORMAL} actor; each of its
 * {@code port}s a port whose {@code rate} text is the port's integer rate ({@code type="in"} is an input,
 * {@code "out"} an output); each {@code channel} a {@link Fifo} from {@code srcActor.srcPort} to
 * {@code dstActor.dstPort} (self-loops included), with a {@link PersistenceLevel#PERMANENT} {@link Delay}
 * holding {@code initialTokens} when that is positive. A FIFO's {@code tokenBits} comes from
 * {@code sdfProperties/channelProperties[@channel]/tokenSize/@sz}, which is in bits (h263decoder's
 * frame channel is 304128 = one 38016-byte QCIF frame times 8). SDF3 has no C types, so FIFOs get no
 * {@code type}. Execution times, state sizes and buffer sizes are not read.
 *
 * <p>Lenient where real files are: a missing {@code applicationGraph/@name} (SDF3's generator omits it)
 * names the graph after the file, and a channel without {@code tokenSize} gets
 * {@value #DEFAULT_TOKEN_BITS} bits (one C {@code int}); both are reported as warnings. Everything else
 * that would make the graph meaningless — another SDF3 type such as {@code csdf}, references to
 * unknown actors or ports, negative or non-integer rates, a port wired twice, truncated XML — is an
 * {@link InputException} at the offending element.
 */
public final class Sdf3Reader {

  /** Token size, in bits, of a channel whose properties give no {@code tokenSize}: one 32-bit C int. */
  public static final long DEFAULT_TOKEN_BITS = 32;

  private static final int LISTED_CHANNELS_IN_WARNING = 8;

  private final Path file;
  private final Diagnostics diagnostics;
  private final ModelFactory factory = ModelFactory.eINSTANCE;
  private final Map<String, Actor> actorsByName = new LinkedHashMap<>();
  private final Map<String, Fifo> fifosByChannel = new LinkedHashMap<>();
  private final Map<Port, String> channelOfPort = new LinkedHashMap<>();

  private Sdf3Reader(Path file, Diagnostics diagnostics) {
    this.file = file;
    this.diagnostics = diagnostics;
  }

  /** Reads {@code file}; warnings go to {@code diagnostics}, errors are thrown as {@link InputException}. */
  public static Graph read(Path file, Diagnostics diagnostics) {
    return new Sdf3Reader(file, diagnostics).readGraph(LocatedXmlReader.read(file));
  }

  private Graph readGraph(XmlElement root) {
    if (!root.name().equals("sdf3")) {
      throw root.error("not an SDF3 file: the root element is <" + root.name() + ">, expected <sdf3>");
    }
    String type = root.requireAttribute("type").trim();
    if (!type.equals("sdf")) {
      throw root.error("SDF3 graph type '" + type + "' is not supported; only type=\"sdf\" graphs can be read");
    }
    XmlElement applicationGraph = root.child("applicationGraph")
        .orElseThrow(() -> root.error("<sdf3> has no <applicationGraph>"));
    XmlElement sdf = applicationGraph.child("sdf")
        .orElseThrow(() -> applicationGraph.error("<applicationGraph> has no <sdf> element"));

    Graph graph = factory.createGraph();
    locate(graph, applicationGraph.location());
    graph.setName(graphName(applicationGraph));

    for (XmlElement actorElement : sdf.children("actor")) {
      Actor actor = readActor(actorElement);
      graph.getActors().add(actor);
    }
    for (XmlElement channelElement : sdf.children("channel")) {
      graph.getFifos().add(readChannel(channelElement));
    }
    applyTokenSizes(applicationGraph);
    warnAboutUnconnectedPorts();
    return graph;
  }

  private String graphName(XmlElement applicationGraph) {
    String name = applicationGraph.attribute("name").map(String::trim).orElse("");
    if (!name.isEmpty()) {
      return name;
    }
    String fileName = file.getFileName().toString();
    String stem = fileName.endsWith(".xml") ? fileName.substring(0, fileName.length() - 4) : fileName;
    diagnostics.warn(applicationGraph.location(), "<applicationGraph> has no 'name' attribute (the SDF3 schema"
        + " requires one); the graph is named '" + stem + "' after the file");
    return stem;
  }

  private Actor readActor(XmlElement element) {
    String name = element.requireAttribute("name").trim();
    if (actorsByName.containsKey(name)) {
      throw element.error("actor '" + name + "' is defined twice");
    }
    Actor actor = factory.createActor();
    locate(actor, element.location());
    actor.setName(name);
    actor.setKind(ActorKind.NORMAL);
    actorsByName.put(name, actor);
    for (XmlElement portElement : element.children("port")) {
      String portName = portElement.requireAttribute("name").trim();
      if (findPort(actor, portName) != null) {
        throw portElement.error("actor '" + name + "' has two ports named '" + portName + "'");
      }
      Port port = factory.createPort();
      locate(port, portElement.location());
      port.setName(portName);
      port.setDirection(portDirection(portElement, name, portName));
      long rate = nonNegativeInteger(portElement, "rate", "rate of port '" + name + "." + portName + "'");
      port.setRate(Long.toString(rate));
      actor.getPorts().add(port);
    }
    return actor;
  }

  private static PortDirection portDirection(XmlElement portElement, String actorName, String portName) {
    String type = portElement.requireAttribute("type").trim();
    return switch (type) {
      case "in" -> PortDirection.INPUT;
      case "out" -> PortDirection.OUTPUT;
      default -> throw portElement.error("port '" + actorName + "." + portName + "' has type '" + type
          + "'; expected \"in\" or \"out\"");
    };
  }

  private Fifo readChannel(XmlElement element) {
    String name = element.requireAttribute("name").trim();
    if (fifosByChannel.containsKey(name)) {
      throw element.error("channel '" + name + "' is defined twice");
    }
    Port source = endpoint(element, name, "srcActor", "srcPort", PortDirection.OUTPUT);
    Port target = endpoint(element, name, "dstActor", "dstPort", PortDirection.INPUT);

    Fifo fifo = factory.createFifo();
    locate(fifo, element.location());
    fifo.setSource(source);
    fifo.setTarget(target);
    source.setFifo(fifo);
    target.setFifo(fifo);

    if (element.attribute("initialTokens").isPresent()) {
      long tokens = nonNegativeInteger(element, "initialTokens", "initialTokens of channel '" + name + "'");
      if (tokens > 0) {
        Delay delay = factory.createDelay();
        locate(delay, element.location());
        delay.setExpression(Long.toString(tokens));
        delay.setPersistence(PersistenceLevel.PERMANENT);
        fifo.setDelay(delay);
      }
    }
    fifosByChannel.put(name, fifo);
    return fifo;
  }

  private Port endpoint(XmlElement channel, String channelName, String actorKey, String portKey,
      PortDirection expected) {
    String actorName = channel.requireAttribute(actorKey).trim();
    String portName = channel.requireAttribute(portKey).trim();
    Actor actor = actorsByName.get(actorName);
    if (actor == null) {
      throw channel.error("channel '" + channelName + "': " + actorKey + " '" + actorName
          + "' is not an actor of the graph");
    }
    Port port = findPort(actor, portName);
    if (port == null) {
      throw channel.error("channel '" + channelName + "': actor '" + actorName + "' has no port '" + portName
          + "' (" + portKey + ")");
    }
    if (port.getDirection() != expected) {
      String wanted = expected == PortDirection.OUTPUT ? "an output (type=\"out\")" : "an input (type=\"in\")";
      throw channel.error("channel '" + channelName + "': " + portKey + " '" + actorName + "." + portName
          + "' must be " + wanted);
    }
    String previous = channelOfPort.putIfAbsent(port, channelName);
    if (previous != null) {
      throw channel.error("channel '" + channelName + "': port '" + actorName + "." + portName
          + "' is already connected by channel '" + previous + "'");
    }
    return port;
  }

  private void applyTokenSizes(XmlElement applicationGraph) {
    Map<String, Long> sizes = new LinkedHashMap<>();
    applicationGraph.child("sdfProperties").ifPresent(properties -> {
      for (XmlElement channelProperties : properties.children("channelProperties")) {
        String channel = channelProperties.requireAttribute("channel").trim();
        if (!fifosByChannel.containsKey(channel)) {
          diagnostics.warn(channelProperties.location(),
              "<channelProperties> for channel '" + channel + "', which the graph does not have; ignored");
          continue;
        }
        List<XmlElement> tokenSizes = channelProperties.children("tokenSize");
        if (tokenSizes.isEmpty()) {
          continue;
        }
        if (tokenSizes.size() > 1) {
          diagnostics.warn(tokenSizes.get(1).location(),
              "channel '" + channel + "' has several <tokenSize> elements; the first one is used");
        }
        long bits = nonNegativeInteger(tokenSizes.get(0), "sz", "tokenSize of channel '" + channel + "'");
        if (bits == 0) {
          throw tokenSizes.get(0).error("tokenSize of channel '" + channel + "' is 0; a token needs at least 1 bit");
        }
        sizes.put(channel, bits);
      }
    });

    List<String> defaulted = new ArrayList<>();
    fifosByChannel.forEach((channel, fifo) -> {
      Long bits = sizes.get(channel);
      if (bits == null) {
        defaulted.add(channel);
        fifo.setTokenBits(DEFAULT_TOKEN_BITS);
      } else {
        fifo.setTokenBits(bits);
      }
    });
    if (!defaulted.isEmpty()) {
      diagnostics.warn(applicationGraph.location(), defaulted.size() + " channel(s) have no <tokenSize> ("
          + summarize(defaulted) + "); assuming " + DEFAULT_TOKEN_BITS + " bits per token");
    }
  }

  private void warnAboutUnconnectedPorts() {
    for (Actor actor : actorsByName.values()) {
      for (Port port : actor.getPorts()) {
        if (port.getFifo() == null) {
          diagnostics.warn(location(port), "port '" + actor.getName() + "." + port.getName()
              + "' is not connected to any channel");
        }
      }
    }
  }

  private static String summarize(List<String> names) {
    if (names.size() <= LISTED_CHANNELS_IN_WARNING) {
      return String.join(", ", names);
    }
    return String.join(", ", names.subList(0, LISTED_CHANNELS_IN_WARNING)) + ", ...";
  }

  private static Port findPort(Actor actor, String name) {
    for (Port port : actor.getPorts()) {
      if (port.getName().equals(name)) {
        return port;
      }
    }
    return null;
  }

  /**
   * An attribute that must be a non-negative integer. SDF3 declares rates and token counts as
   * {@code xs:decimal}, so integral decimals such as {@code 2.0} are accepted.
   */
  private static long nonNegativeInteger(XmlElement element, String key, String what) {
    String text = element.requireAttribute(key).trim();
    BigDecimal value;
    try {
      value = new BigDecimal(text);
    } catch (NumberFormatException e) {
      throw element.error(what + " is '" + text + "', not a number");
    }
    if (value.signum() < 0) {
      throw element.error(what + " is " + text + "; it must not be negative");
    }
    BigDecimal whole = value.stripTrailingZeros();
    if (whole.scale() > 0) {
      throw element.error(what + " is " + text + "; it must be a whole number");
    }
    try {
      return whole.longValueExact();
    } catch (ArithmeticException e) {
      throw element.error(what + " is " + text + ", which is too large");
    }
  }

  private static void locate(Located element, SourceLocation location) {
    element.setFile(location.file());
    element.setLine(location.line());
    element.setColumn(location.column());
  }

  private static SourceLocation location(Located element) {
    return new SourceLocation(element.getFile(), element.getLine(), element.getColumn());
  }
}
