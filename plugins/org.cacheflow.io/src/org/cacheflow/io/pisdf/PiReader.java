package org.cacheflow.io.pisdf;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import org.cacheflow.io.project.PreesmProject;
import org.cacheflow.io.xml.LocatedXmlReader;
import org.cacheflow.io.xml.XmlElement;
import org.cacheflow.model.Actor;
import org.cacheflow.model.ActorKind;
import org.cacheflow.model.Delay;
import org.cacheflow.model.Dependency;
import org.cacheflow.model.Fifo;
import org.cacheflow.model.Graph;
import org.cacheflow.model.Located;
import org.cacheflow.model.MemoryAnnotation;
import org.cacheflow.model.ModelFactory;
import org.cacheflow.model.Parameter;
import org.cacheflow.model.ParameterKind;
import org.cacheflow.model.PersistenceLevel;
import org.cacheflow.model.Port;
import org.cacheflow.model.PortDirection;
import org.cacheflow.model.Prototype;
import org.cacheflow.model.PrototypeDirection;
import org.cacheflow.model.PrototypeParameter;
import org.cacheflow.model.Refinement;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.model.expression.Expression;

/**
 * Reads a PREESM PiSDF graph ({@code .pi}, PREESM's GraphML dialect, as PREESM's {@code PiParser} reads
 * it) into the model, loading hierarchical actors' sub-graphs recursively.
 *
 * <h2>What becomes what</h2>
 * <ul>
 * <li>{@code <node kind="param">} a STATIC {@link Parameter} (DYNAMIC when an actor's config output port
 * sets it); {@code cfg_in_iface} a CONFIG_INPUT parameter whose expression is its {@code defaultValue}, if
 * any; {@code malleable_param} a STATIC parameter with its current {@code expr} (warned about).</li>
 * <li>{@code actor}, {@code broadcast}, {@code fork}, {@code join}, {@code roundbuffer}, {@code init},
 * {@code end} actors of the matching {@link ActorKind}; {@code src}/{@code snk} SOURCE/SINK_INTERFACE actors
 * and {@code cfg_out_iface} a CONFIG_OUTPUT_INTERFACE actor, each with one data port named after the
 * interface (as PREESM names it, whatever the {@code <port>} says).</li>
 * <li>{@code <data key="memoryScript">} the actor's memory script path, as written (warned about when
 * the file is absent).</li>
 * <li>{@code <port kind="input|output|cfg_input|cfg_output" name expr annotation>} ports; {@code expr} is
 * the rate, kept as text (and parsed here so syntax errors are reported at read time).</li>
 * <li>{@code <data key="graph_desc">}: a {@code .h} header (prototypes from the {@code <loop>} and
 * {@code <init>} children; the header itself is only looked for, to warn when absent) or a {@code .pi}
 * sub-graph, read recursively into {@link Refinement#getSubgraph()}. Paths are project-relative
 * ({@code Algo/x.pi}, {@code /Algo/x.pi}) or workspace paths ({@code /project/Algo/x.pi}), resolved
 * against the project of the top file as {@link PreesmProject#resolve(String)} does.</li>
 * <li>{@code <edge kind="fifo">} a {@link Fifo} ({@code type} defaults to {@code void}, as in PREESM;
 * {@code tokenBits} stays 0: sizes come from the scenario); its delay is either a {@code kind="delay"}
 * node named by {@code <data key="delay">ID</data>} (expression, {@code level} persistence, setter,
 * getter, init refinement — the node becomes {@link Delay#getActor()}, not a member of the graph's
 * actors), or, in old files, an empty {@code <data key="delay"/>} or a {@code delay} attribute with the
 * edge's expression. A FIFO into the delay node's input port ({@code set}) comes from the delay's setter
 * actor, one out of its output port ({@code get}) goes to its getter: these FIFOs stay in the graph and make
 * {@link Delay#getSetter()} / {@link Delay#getGetter()} (as PREESM derives them). In a sub-graph the setter may
 * be a source interface and the getter a sink interface (a delay fed by the enclosing graph). A {@code setter} /
 * {@code getter} attribute naming another actor, or an actor no such FIFO connects, is an error. The delay
 * node's port rates are optional (PREESM ignores them): they default to the delay's expression.</li>
 * <li>{@code <edge kind="dependency">} a {@link Dependency}: from a parameter (or an actor's config output
 * port) to a parameter, an actor's config input port, a delay (by delay node id or by PREESM's FIFO id
 * {@code src.port-tgt.port}), or an interface (which then gets a config input port named after the
 * parameter, since PREESM evaluates interface rates with parameter names).</li>
 * </ul>
 *
 * <p>Every element is {@link Located}: the line and column of its start tag; for a Parameter, a Port and a
 * Delay those of its expression's first character (see the model's documentation), so that expression
 * errors point at the offending character.
 *
 * <p>Bad input is an {@link InputException} at the offending line: malformed or truncated XML, an unknown
 * node, port, edge or annotation kind, an edge naming an unknown node or port, a duplicate name, a missing
 * or recursive sub-graph, an expression with a syntax error, a negative literal rate. Defects PREESM
 * projects live with (an absent refinement header, an actor without refinement, an unconnected port) are
 * warnings.
 */
public final class PiReader {

  private static final ModelFactory FACTORY = ModelFactory.eINSTANCE;

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

  private static final Map<String, PortDirection> PORT_KINDS = Map.of(
      "input", PortDirection.INPUT,
      "output", PortDirection.OUTPUT,
      "cfg_input", PortDirection.CONFIG_INPUT,
      "cfg_output", PortDirection.CONFIG_OUTPUT);

  private final PreesmProject project;
  private final Diagnostics diagnostics;
  /** The .pi files being read, outermost first, to detect a graph that contains itself. */
  private final Deque<Path> reading = new ArrayDeque<>();

  private PiReader(PreesmProject project, Diagnostics diagnostics) {
    this.project = project;
    this.diagnostics = diagnostics;
  }

  /**
   * Reads {@code file} and, recursively, the sub-graphs of its hierarchical actors. The project (for
   * project-relative refinement paths) is the one containing the file, or the file's directory when it is
   * in no PREESM project.
   *
   * @param diagnostics receives warnings
   * @throws InputException for bad input, naming file, line and column
   */
  public static Graph read(Path file, Diagnostics diagnostics) {
    return read(file, projectOf(file, diagnostics), diagnostics);
  }

  /** Like {@link #read(Path, Diagnostics)}, with refinement paths resolved in the given project. */
  public static Graph read(Path file, PreesmProject project, Diagnostics diagnostics) {
    return new PiReader(project, diagnostics == null ? new Diagnostics() : diagnostics).readGraph(file, null);
  }

  private static PreesmProject projectOf(Path file, Diagnostics diagnostics) {
    Path absolute = file.toAbsolutePath().normalize();
    boolean inProject = false;
    for (Path directory = absolute.getParent(); directory != null; directory = directory.getParent()) {
      Path name = directory.getFileName();
      if (Files.isRegularFile(directory.resolve(".project")) || (name != null && name.toString().equals("Algo"))) {
        inProject = true;
        break;
      }
    }
    Path directory = absolute.getParent() == null ? absolute : absolute.getParent();
    return inProject ? PreesmProject.containing(file, diagnostics) : PreesmProject.open(directory, diagnostics);
  }

  private Graph readGraph(Path file, SourceLocation referencedFrom) {
    Path key = file.toAbsolutePath().normalize();
    if (reading.contains(key)) {
      List<String> chain = new ArrayList<>();
      boolean inCycle = false;
      for (Path open : (Iterable<Path>) reading::descendingIterator) {
        inCycle |= open.equals(key);
        if (inCycle) {
          chain.add(open.getFileName().toString());
        }
      }
      chain.add(key.getFileName().toString());
      throw new InputException(referencedFrom, "recursive hierarchy: " + String.join(" -> ", chain));
    }
    reading.push(key);
    try {
      return new GraphParser(file).parse();
    } finally {
      reading.pop();
    }
  }

  /** Reads one .pi file; sub-graphs get their own parser. */
  private final class GraphParser {

    private final Path file;
    private final SourceText source;
    private final XmlElement root;
    private final Graph graph = FACTORY.createGraph();
    /** Every node by name (parameters, actors, delay nodes): PREESM's vertex names share one namespace. */
    private final Map<String, XmlElement> nodes = new HashMap<>();
    private final Map<String, Parameter> parameters = new HashMap<>();
    private final Map<String, Actor> actors = new HashMap<>();
    private final Map<String, Delay> delays = new HashMap<>();
    private final Map<Delay, XmlElement> delayElements = new LinkedHashMap<>();
    private final Map<String, Fifo> fifosById = new HashMap<>();
    private final Set<Delay> usedDelays = new HashSet<>();
    private final List<DelayEnds> pendingDelayEnds = new ArrayList<>();

    GraphParser(Path file) {
      this.file = file;
      this.root = LocatedXmlReader.read(file);
      this.source = SourceText.read(file);
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
      resolveDelayEnds();
      for (XmlElement edge : graphElement.children("edge")) {
        String kind = edge.attribute("kind").orElse("");
        if (kind.equals("fifo")) {
          readFifo(edge);
        }
      }
      for (Map.Entry<Delay, XmlElement> delay : delayElements.entrySet()) {
        linkDelayEnd(delay.getKey(), delay.getValue(), true);
        linkDelayEnd(delay.getKey(), delay.getValue(), false);
      }
      for (XmlElement edge : graphElement.children("edge")) {
        String kind = edge.attribute("kind").orElse("");
        switch (kind) {
          case "fifo" -> {
            // read above
          }
          case "dependency" -> readDependency(edge);
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
      checkConnections();
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

    // ---------------------------------------------------------------- nodes

    private void readNode(XmlElement node) {
      String kind = node.attribute("kind").orElse("");
      String name = node.requireAttribute("id").trim();
      XmlElement previous = nodes.putIfAbsent(name, node);
      if (previous != null) {
        throw error(node, "duplicate node name '" + name + "' (first used at line " + start(previous).line() + ")");
      }
      if (PARAMETER_KINDS.contains(kind)) {
        readParameter(node, name, kind);
      } else if (ACTOR_KINDS.containsKey(kind)) {
        readActor(node, name, ACTOR_KINDS.get(kind));
      } else if (kind.equals("delay")) {
        readDelayNode(node, name);
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

    private void readParameter(XmlElement node, String name, String kind) {
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

    private void readActor(XmlElement node, String name, ActorKind kind) {
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
        readRefinement(node, actor, false);
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

    private void readDelayNode(XmlElement node, String name) {
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
        readRefinement(node, actor, true);
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

    // ---------------------------------------------------------------- refinements

    private void readRefinement(XmlElement node, Actor actor, boolean isDelay) {
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
        Graph subgraph = readGraph(subgraphFile.get(), content(data));
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

    // ---------------------------------------------------------------- edges

    private void readFifo(XmlElement edge) {
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
    private void linkDelayEnd(Delay delay, XmlElement node, boolean isSetter) {
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
    private void resolveDelayEnds() {
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

    private void readDependency(XmlElement edge) {
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
    private void checkConnections() {
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

    // ---------------------------------------------------------------- helpers

    private Optional<XmlElement> data(XmlElement element, String key) {
      for (XmlElement data : element.children("data")) {
        if (key.equals(data.attribute("key").orElse(null))) {
          return Optional.of(data);
        }
      }
      return Optional.empty();
    }

    private Expression parse(String text, Located holder) {
      return Expression.parse(text, location(holder));
    }

    private void rejectNegativeLiteral(Expression expression, String what) {
      if (!expression.variables().isEmpty()) {
        return;
      }
      double value;
      try {
        value = expression.evaluateDouble(Map.of());
      } catch (InputException e) {
        // e.g. 1/0: an evaluation error, which the analysis reports with its context
        return;
      }
      if (value < 0) {
        throw new InputException(expression.location(), "negative " + what + ": '" + expression.text() + "'");
      }
    }

    private void locate(Located element, XmlElement xml) {
      SourceLocation at = start(xml);
      element.setFile(at.file());
      element.setLine(at.line());
      element.setColumn(at.column());
    }

    /** For expression holders: the position of the expression's first character, else line only. */
    private void locateExpression(Located element, XmlElement xml, String attribute, boolean present) {
      SourceLocation at = present ? source.attributeValue(xml, attribute) : start(xml);
      element.setFile(at.file());
      element.setLine(at.line());
      element.setColumn(present ? at.column() : 0);
    }

    private SourceLocation start(XmlElement element) {
      return source.elementStart(element);
    }

    private SourceLocation content(XmlElement element) {
      return source.content(element);
    }

    private InputException error(XmlElement element, String message) {
      return new InputException(start(element), message);
    }
  }

  /** A delay node's setter and getter actor names, resolved once every node is read. */
  private record DelayEnds(Delay delay, XmlElement node, String setter, String getter) {
  }

  private static SourceLocation location(Located element) {
    return new SourceLocation(element.getFile(), element.getLine(), element.getColumn());
  }

  private static Actor owner(Port port) {
    return port.getActor();
  }

  private static String describe(Actor actor) {
    String kind = switch (actor.getKind()) {
      case NORMAL -> "actor";
      case SOURCE_INTERFACE -> "source interface";
      case SINK_INTERFACE -> "sink interface";
      case CONFIG_OUTPUT_INTERFACE -> "config output interface";
      default -> actor.getKind().getLiteral().toLowerCase(Locale.ROOT);
    };
    return kind + " '" + actor.getName() + "'";
  }
}
