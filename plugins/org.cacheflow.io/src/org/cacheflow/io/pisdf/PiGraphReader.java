package org.cacheflow.io.pisdf;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.cacheflow.io.xml.LocatedXmlReader;
import org.cacheflow.io.xml.XmlElement;
import org.cacheflow.model.ActorKind;
import org.cacheflow.model.Delay;
import org.cacheflow.model.Graph;

/**
 * Reads one {@code .pi} file into a {@link Graph}: checks the GraphML frame, names the graph, reads the nodes
 * (dispatched by kind to {@link PiVertexReader}), then the FIFOs and their delays ({@link PiFifoReader}), then
 * the dependencies and the final connection checks ({@link PiDependencyReader}). Nodes come first so that edges
 * may name nodes written after them. Sub-graphs get their own reader (through {@link PiReader}).
 */
final class PiGraphReader extends PiGraphPart {

  private static final Map<String, ActorKind> ACTOR_KINDS = Map.of(
      "actor", ActorKind.NORMAL,
      "broadcast", ActorKind.BROADCAST,
      "fork", ActorKind.FORK,
      "join", ActorKind.JOIN,
      "roundbuffer", ActorKind.ROUNDBUFFER,
      "init", ActorKind.INIT,
      "end", ActorKind.END,
      "src", ActorKind.SOURCE_INTERFACE,
      "snk", ActorKind.SINK_INTERFACE,
      "cfg_out_iface", ActorKind.CONFIG_OUTPUT_INTERFACE);

  private static final Set<String> PARAMETER_KINDS = Set.of("param", "cfg_in_iface", "malleable_param");

  private final XmlElement root;
  private final PiVertexReader vertices;
  private final PiFifoReader fifos;
  private final PiDependencyReader dependencies;

  PiGraphReader(PiReader reader, Path file) {
    // the XML first: a malformed file is reported as such
    this(reader, file, LocatedXmlReader.read(file));
  }

  private PiGraphReader(PiReader reader, Path file, XmlElement root) {
    super(reader, file, SourceText.read(file));
    this.root = root;
    this.vertices = new PiVertexReader(this, new PiRefinementReader(this));
    this.fifos = new PiFifoReader(this);
    this.dependencies = new PiDependencyReader(this);
  }

  Graph parse() {
    if (!root.name().equals("graphml")) {
      throw error(root, "not a PiSDF graph: the root element is <" + root.name() + ">, expected <graphml>");
    }
    List<XmlElement> graphs = root.children("graph");
    if (graphs.isEmpty()) {
      throw error(root, "no <graph> element in this .pi file");
    }
    if (graphs.size() > 1) {
      throw error(graphs.get(1), "more than one <graph> in this .pi file");
    }
    XmlElement graphElement = graphs.get(0);
    locate(graph, graphElement);
    graph.setName(graphName(graphElement));

    // nodes first, so edges may name nodes written after them
    for (XmlElement node : graphElement.children("node")) {
      readNode(node);
    }
    fifos.resolveDelayEnds();
    for (XmlElement edge : graphElement.children("edge")) {
      String kind = edge.attribute("kind").orElse("");
      if (kind.equals("fifo")) {
        fifos.readFifo(edge);
      }
    }
    for (Map.Entry<Delay, XmlElement> delay : delayElements.entrySet()) {
      fifos.linkDelayEnd(delay.getKey(), delay.getValue(), true);
      fifos.linkDelayEnd(delay.getKey(), delay.getValue(), false);
    }
    for (XmlElement edge : graphElement.children("edge")) {
      String kind = edge.attribute("kind").orElse("");
      switch (kind) {
        case "fifo" -> {
          // read above
        }
        case "dependency" -> dependencies.readDependency(edge);
        case "" -> throw error(edge, "<edge> has no 'kind' attribute (expected fifo or dependency)");
        default -> throw error(edge, "unknown edge kind '" + kind + "' (expected fifo or dependency)");
      }
    }
    for (Map.Entry<Delay, XmlElement> delay : delayElements.entrySet()) {
      if (!usedDelays.contains(delay.getKey())) {
        diagnostics.warn(start(delay.getValue()), "delay node '" + delay.getKey().getName()
            + "' is on no FIFO; ignored");
      }
    }
    dependencies.checkConnections();
    return graph;
  }

  private String graphName(XmlElement graphElement) {
    for (XmlElement data : graphElement.children("data")) {
      if ("name".equals(data.attribute("key").orElse(null)) && !data.text().isEmpty()) {
        return data.text();
      }
    }
    String fileName = file.getFileName().toString();
    String name = fileName.endsWith(".pi") ? fileName.substring(0, fileName.length() - 3) : fileName;
    diagnostics.warn(start(graphElement), "graph has no <data key=\"name\">; named '" + name + "' after its file");
    return name;
  }

  private void readNode(XmlElement node) {
    String kind = node.attribute("kind").orElse("");
    String name = node.requireAttribute("id").trim();
    XmlElement previous = nodes.putIfAbsent(name, node);
    if (previous != null) {
      throw error(node, "duplicate node name '" + name + "' (first used at line " + start(previous).line() + ")");
    }
    if (PARAMETER_KINDS.contains(kind)) {
      vertices.readParameter(node, name, kind);
    } else if (ACTOR_KINDS.containsKey(kind)) {
      vertices.readActor(node, name, ACTOR_KINDS.get(kind));
    } else if (kind.equals("delay")) {
      vertices.readDelayNode(node, name);
    } else if (kind.isEmpty()) {
      throw error(node, "node '" + name + "' has no 'kind' attribute");
    } else {
      throw error(node, "unknown node kind '" + kind + "' for node '" + name + "' (expected one of "
          + knownNodeKinds() + ")");
    }
  }

  private String knownNodeKinds() {
    List<String> kinds = new ArrayList<>(PARAMETER_KINDS);
    kinds.addAll(ACTOR_KINDS.keySet());
    kinds.add("delay");
    return kinds.stream().sorted().collect(Collectors.joining(", "));
  }
}
