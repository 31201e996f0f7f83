package org.cacheflow.analysis;

import org.cacheflow.model.Actor;
import org.cacheflow.model.ActorKind;
import org.cacheflow.model.Delay;
import org.cacheflow.model.Dependency;
import org.cacheflow.model.Fifo;
import org.cacheflow.model.Graph;
import org.cacheflow.model.Located;
import org.cacheflow.model.ModelFactory;
import org.cacheflow.model.Parameter;
import org.cacheflow.model.ParameterKind;
import org.cacheflow.model.PersistenceLevel;
import org.cacheflow.model.Port;
import org.cacheflow.model.PortDirection;
import org.cacheflow.model.Refinement;

/**
 * Builds small model graphs in tests. Every element gets its own line in a pretend file
 * {@code test.pi}, so messages can be checked for the right location.
 */
public final class TestGraph {

  public static final String FILE = "test.pi";
  private static final ModelFactory FACTORY = ModelFactory.eINSTANCE;
  private static int nextLine = 1;

  private final Graph graph;

  private TestGraph(String name) {
    graph = locate(FACTORY.createGraph());
    graph.setName(name);
  }

  public static TestGraph named(String name) {
    return new TestGraph(name);
  }

  public Graph graph() {
    return graph;
  }

  private static <T extends Located> T locate(T element) {
    element.setFile(FILE);
    element.setLine(nextLine++);
    element.setColumn(3);
    return element;
  }

  /** A normal actor. */
  public Actor actor(String name) {
    return actor(name, ActorKind.NORMAL);
  }

  public Actor actor(String name, ActorKind kind) {
    Actor actor = locate(FACTORY.createActor());
    actor.setName(name);
    actor.setKind(kind);
    graph.getActors().add(actor);
    return actor;
  }

  /** Adds a data port with a rate expression to an actor of this graph. */
  public static Port port(Actor actor, String name, PortDirection direction, String rate) {
    Port port = locate(FACTORY.createPort());
    port.setName(name);
    port.setDirection(direction);
    port.setRate(rate);
    actor.getPorts().add(port);
    return port;
  }

  public static Port in(Actor actor, String name, String rate) {
    return port(actor, name, PortDirection.INPUT, rate);
  }

  public static Port out(Actor actor, String name, String rate) {
    return port(actor, name, PortDirection.OUTPUT, rate);
  }

  /** A FIFO between an output and an input port, without a token size (tokenBits 0). */
  public Fifo fifo(Port source, Port target) {
    return fifo(source, target, null, 0);
  }

  public Fifo fifo(Port source, Port target, String type, long tokenBits) {
    Fifo fifo = locate(FACTORY.createFifo());
    fifo.setSource(source);
    fifo.setTarget(target);
    fifo.setType(type);
    fifo.setTokenBits(tokenBits);
    source.setFifo(fifo);
    target.setFifo(fifo);
    graph.getFifos().add(fifo);
    return fifo;
  }

  /** Creates {@code source.out(production) -> target.in(consumption)} and returns the FIFO. */
  public Fifo connect(Actor source, String outName, String production, Actor target, String inName,
      String consumption) {
    return fifo(out(source, outName, production), in(target, inName, consumption));
  }

  public static Delay delay(Fifo fifo, String expression, PersistenceLevel persistence) {
    Delay delay = locate(FACTORY.createDelay());
    delay.setExpression(expression);
    delay.setPersistence(persistence);
    fifo.setDelay(delay);
    return delay;
  }

  /** The delay's own actor (created on first use, named {@code d_<line>}) as the .pi's delay node gives it. */
  public static Actor delayActor(Delay delay) {
    if (delay.getActor() == null) {
      Actor actor = locate(FACTORY.createActor());
      actor.setName("d_" + delay.getLine());
      actor.setKind(ActorKind.DELAY);
      delay.setActor(actor);
    }
    return delay.getActor();
  }

  /** Makes {@code setter.port} the delay's setter: a FIFO into the delay node's input port {@code set}. */
  public Fifo setter(Delay delay, Actor setter, String port, String rate) {
    delay.setSetter(setter);
    return fifo(out(setter, port, rate), in(delayActor(delay), "set", delay.getExpression()));
  }

  /** Makes {@code getter.port} the delay's getter: a FIFO from the delay node's output port {@code get}. */
  public Fifo getter(Delay delay, Actor getter, String port, String rate) {
    delay.setGetter(getter);
    return fifo(out(delayActor(delay), "get", delay.getExpression()), in(getter, port, rate));
  }

  public Parameter parameter(String name, String expression) {
    Parameter parameter = locate(FACTORY.createParameter());
    parameter.setName(name);
    parameter.setExpression(expression);
    parameter.setKind(ParameterKind.STATIC);
    graph.getParameters().add(parameter);
    return parameter;
  }

  /** A config input parameter, valued by the hierarchical actor's config port of the same name. */
  public Parameter configInput(String name) {
    Parameter parameter = locate(FACTORY.createParameter());
    parameter.setName(name);
    parameter.setKind(ParameterKind.CONFIG_INPUT);
    graph.getParameters().add(parameter);
    return parameter;
  }

  /** Connects a parameter to a new config input port of the actor, named like the parameter. */
  public Port dependency(Parameter parameter, Actor actor) {
    Port port = port(actor, parameter.getName(), PortDirection.CONFIG_INPUT, null);
    Dependency dependency = locate(FACTORY.createDependency());
    dependency.setSource(parameter);
    dependency.setTargetPort(port);
    graph.getDependencies().add(dependency);
    return port;
  }

  /** A hierarchical actor refined by {@code subgraph}; its data ports must be added to match interfaces. */
  public Actor hierarchical(String name, TestGraph subgraph) {
    Actor actor = actor(name);
    Refinement refinement = locate(FACTORY.createRefinement());
    refinement.setSubgraph(subgraph.graph());
    actor.setRefinement(refinement);
    return actor;
  }

  /** A source interface, with its output port, named {@code name}. */
  public Port sourceInterface(String name, String rate) {
    return out(actor(name, ActorKind.SOURCE_INTERFACE), name, rate);
  }

  /** A sink interface, with its input port, named {@code name}. */
  public Port sinkInterface(String name, String rate) {
    return in(actor(name, ActorKind.SINK_INTERFACE), name, rate);
  }
}
