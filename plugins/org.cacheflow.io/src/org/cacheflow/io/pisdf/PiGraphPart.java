package org.cacheflow.io.pisdf;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.cacheflow.io.project.PreesmProject;
import org.cacheflow.io.xml.XmlElement;
import org.cacheflow.model.Actor;
import org.cacheflow.model.Delay;
import org.cacheflow.model.Fifo;
import org.cacheflow.model.Graph;
import org.cacheflow.model.Located;
import org.cacheflow.model.ModelFactory;
import org.cacheflow.model.Parameter;
import org.cacheflow.model.Port;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.model.expression.Expression;

/**
 * What the readers of one {@code .pi} file's parts share: the graph being built, its elements by name (PREESM's
 * vertex names share one namespace), and where things are in the file, for locating model elements and for
 * errors and warnings that name file, line and column. {@link PiGraphReader} makes the state; the part readers
 * ({@link PiVertexReader}, {@link PiRefinementReader}, {@link PiFifoReader}, {@link PiDependencyReader}) share it.
 */
abstract class PiGraphPart {

  static final ModelFactory FACTORY = ModelFactory.eINSTANCE;

  /** The reader of the whole hierarchy (for sub-graphs), its project and diagnostics. */
  final PiReader reader;
  final PreesmProject project;
  final Diagnostics diagnostics;
  final Path file;
  final SourceText source;
  final Graph graph;
  /** Every node by name (parameters, actors, delay nodes): PREESM's vertex names share one namespace. */
  final Map<String, XmlElement> nodes;
  final Map<String, Parameter> parameters;
  final Map<String, Actor> actors;
  final Map<String, Delay> delays;
  final Map<Delay, XmlElement> delayElements;
  final Map<String, Fifo> fifosById;
  final Set<Delay> usedDelays;
  final List<DelayEnds> pendingDelayEnds;

  /** The first part of a file: a new, empty graph. */
  PiGraphPart(PiReader reader, Path file, SourceText source) {
    this.reader = reader;
    this.project = reader.project;
    this.diagnostics = reader.diagnostics;
    this.file = file;
    this.source = source;
    this.graph = FACTORY.createGraph();
    this.nodes = new HashMap<>();
    this.parameters = new HashMap<>();
    this.actors = new HashMap<>();
    this.delays = new HashMap<>();
    this.delayElements = new LinkedHashMap<>();
    this.fifosById = new HashMap<>();
    this.usedDelays = new HashSet<>();
    this.pendingDelayEnds = new ArrayList<>();
  }

  /** Another part of the same file: shares its state. */
  PiGraphPart(PiGraphPart same) {
    this.reader = same.reader;
    this.project = same.project;
    this.diagnostics = same.diagnostics;
    this.file = same.file;
    this.source = same.source;
    this.graph = same.graph;
    this.nodes = same.nodes;
    this.parameters = same.parameters;
    this.actors = same.actors;
    this.delays = same.delays;
    this.delayElements = same.delayElements;
    this.fifosById = same.fifosById;
    this.usedDelays = same.usedDelays;
    this.pendingDelayEnds = same.pendingDelayEnds;
  }

  Optional<XmlElement> data(XmlElement element, String key) {
    for (XmlElement data : element.children("data")) {
      if (key.equals(data.attribute("key").orElse(null))) {
        return Optional.of(data);
      }
    }
    return Optional.empty();
  }

  Expression parse(String text, Located holder) {
    return Expression.parse(text, location(holder));
  }

  void rejectNegativeLiteral(Expression expression, String what) {
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

  void locate(Located element, XmlElement xml) {
    SourceLocation at = start(xml);
    element.setFile(at.file());
    element.setLine(at.line());
    element.setColumn(at.column());
  }

  /** For expression holders: the position of the expression's first character, else line only. */
  void locateExpression(Located element, XmlElement xml, String attribute, boolean present) {
    SourceLocation at = present ? source.attributeValue(xml, attribute) : start(xml);
    element.setFile(at.file());
    element.setLine(at.line());
    element.setColumn(present ? at.column() : 0);
  }

  SourceLocation start(XmlElement element) {
    return source.elementStart(element);
  }

  SourceLocation content(XmlElement element) {
    return source.content(element);
  }

  InputException error(XmlElement element, String message) {
    return new InputException(start(element), message);
  }

  /** A delay node's setter and getter actor names, resolved once every node is read. */
  record DelayEnds(Delay delay, XmlElement node, String setter, String getter) {
  }

  static SourceLocation location(Located element) {
    return new SourceLocation(element.getFile(), element.getLine(), element.getColumn());
  }

  static Actor owner(Port port) {
    return port.getActor();
  }

  static String describe(Actor actor) {
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
