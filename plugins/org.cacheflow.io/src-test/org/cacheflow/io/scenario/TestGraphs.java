package org.cacheflow.io.scenario;

import org.cacheflow.model.Actor;
import org.cacheflow.model.DataType;
import org.cacheflow.model.Fifo;
import org.cacheflow.model.Graph;
import org.cacheflow.model.ModelFactory;
import org.cacheflow.model.Parameter;
import org.cacheflow.model.Port;
import org.cacheflow.model.PortDirection;
import org.cacheflow.model.Refinement;
import org.cacheflow.model.Scenario;

/** Builds small graphs and scenarios by hand for tests. */
final class TestGraphs {

  private static final ModelFactory FACTORY = ModelFactory.eINSTANCE;

  private TestGraphs() {
  }

  static Graph graph(String name) {
    Graph graph = FACTORY.createGraph();
    graph.setName(name);
    return graph;
  }

  static Actor actor(Graph graph, String name) {
    Actor actor = FACTORY.createActor();
    actor.setName(name);
    graph.getActors().add(actor);
    return actor;
  }

  /** Makes {@code actor} hierarchical, refined by a new sub-graph named {@code subgraphName}. */
  static Graph refine(Actor actor, String subgraphName) {
    Refinement refinement = FACTORY.createRefinement();
    Graph subgraph = graph(subgraphName);
    refinement.setSubgraph(subgraph);
    actor.setRefinement(refinement);
    return subgraph;
  }

  static Parameter parameter(Graph graph, String name) {
    Parameter parameter = FACTORY.createParameter();
    parameter.setName(name);
    graph.getParameters().add(parameter);
    return parameter;
  }

  /** A FIFO of {@code type} from a new output port of {@code source} to a new input port of {@code target}. */
  static Fifo fifo(Graph graph, Actor source, Actor target, String type) {
    Fifo fifo = FACTORY.createFifo();
    fifo.setType(type);
    fifo.setFile("g.pi");
    fifo.setLine(graph.getFifos().size() + 10);
    fifo.setSource(port(source, "out" + source.getPorts().size(), PortDirection.OUTPUT, fifo));
    fifo.setTarget(port(target, "in" + target.getPorts().size(), PortDirection.INPUT, fifo));
    graph.getFifos().add(fifo);
    return fifo;
  }

  private static Port port(Actor actor, String name, PortDirection direction, Fifo fifo) {
    Port port = FACTORY.createPort();
    port.setName(name);
    port.setDirection(direction);
    port.setFifo(fifo);
    actor.getPorts().add(port);
    return port;
  }

  static Scenario scenario(boolean sizesAreInBit, Object... namesAndSizes) {
    Scenario scenario = FACTORY.createScenario();
    scenario.setFile("s.scenario");
    scenario.setLine(1);
    scenario.setSizesAreInBit(sizesAreInBit);
    for (int i = 0; i < namesAndSizes.length; i += 2) {
      DataType type = FACTORY.createDataType();
      type.setName((String) namesAndSizes[i]);
      type.setSize(((Number) namesAndSizes[i + 1]).longValue());
      scenario.getDataTypes().add(type);
    }
    return scenario;
  }
}
