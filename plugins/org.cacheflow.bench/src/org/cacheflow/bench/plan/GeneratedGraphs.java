package org.cacheflow.bench.plan;

import org.cacheflow.model.Actor;
import org.cacheflow.model.ActorKind;
import org.cacheflow.model.Delay;
import org.cacheflow.model.Dependency;
import org.cacheflow.model.Fifo;
import org.cacheflow.model.Graph;
import org.cacheflow.model.ModelFactory;
import org.cacheflow.model.Parameter;
import org.cacheflow.model.ParameterKind;
import org.cacheflow.model.PersistenceLevel;
import org.cacheflow.model.Port;
import org.cacheflow.model.PortDirection;
import org.cacheflow.model.Refinement;

/**
 * Parameterised graphs whose single-rate graph has a chosen size, for {@link ExpansionBenchmark}. The
 * graphs are small; a parameter {@code N} sets the rates, so the flattener evaluates real expressions and
 * the SRDAG grows linearly with N.
 */
public final class GeneratedGraphs {

  private static final ModelFactory FACTORY = ModelFactory.eINSTANCE;

  /** A generated graph family. */
  public enum Family {
    /**
     * {@code src -4N-> 2- a -3-> 2- b -1-> 3N- snk}: r = (1, 2N, 3N, 1). SRDAG: 5N + 2 firings, src's fork,
     * 2 forks and 1 join per 6 tokens of a -> b, snk's join: 8N + 4 vertices, 12N + 2 edges.
     */
    MULTIRATE_CHAIN,
    /**
     * {@code src -N-> 1- H -1-> N- snk}, H holding {@code in -> p -2-> 1- q -1-> 2- r -> out} and a feedback
     * {@code r -> p} with one NONE-persistent initial token: r(H) = N, r = (1, 2, 1) inside. SRDAG: 4N + 2
     * firings, a fork, N forks (p -> q), N joins (q -> r), a join into snk and an INIT / END pair per H
     * firing: 8N + 4 vertices, 10N + 2 edges (for N >= 2; with N = 1 nothing forks into H or joins into snk).
     */
    HIERARCHICAL_CYCLE;

    /** The N that gives about {@code vertices} SRDAG vertices (both families have 8N + 4). */
    public long parameterFor(long vertices) {
      return Math.max(2, (vertices - 4) / 8);
    }

    /** The SRDAG vertex count for parameter N. */
    public long verticesFor(long n) {
      return 8 * n + 4;
    }

    /** The SRDAG edge count for parameter N. */
    public long edgesFor(long n) {
      return this == MULTIRATE_CHAIN ? 12 * n + 2 : 10 * n + 2;
    }

    /** Builds the graph with parameter N. */
    public Graph build(long n) {
      return this == MULTIRATE_CHAIN ? multirateChain(n) : hierarchicalCycle(n);
    }
  }

  private GeneratedGraphs() {
  }

  static Graph multirateChain(long n) {
    Graph graph = graph("chain");
    Parameter size = parameter(graph, "N", Long.toString(n));
    Actor src = actor(graph, "src", ActorKind.NORMAL);
    Actor a = actor(graph, "a", ActorKind.NORMAL);
    Actor b = actor(graph, "b", ActorKind.NORMAL);
    Actor snk = actor(graph, "snk", ActorKind.NORMAL);
    dependency(graph, size, src);
    dependency(graph, size, snk);
    fifo(graph, port(src, "o", PortDirection.OUTPUT, "4*N"), port(a, "i", PortDirection.INPUT, "2"));
    fifo(graph, port(a, "o", PortDirection.OUTPUT, "3"), port(b, "i", PortDirection.INPUT, "2"));
    fifo(graph, port(b, "o", PortDirection.OUTPUT, "1"), port(snk, "i", PortDirection.INPUT, "3*N"));
    return graph;
  }

  static Graph hierarchicalCycle(long n) {
    Graph sub = graph("body");
    Actor in = actor(sub, "in", ActorKind.SOURCE_INTERFACE);
    Actor out = actor(sub, "out", ActorKind.SINK_INTERFACE);
    Actor p = actor(sub, "p", ActorKind.NORMAL);
    Actor q = actor(sub, "q", ActorKind.NORMAL);
    Actor r = actor(sub, "r", ActorKind.NORMAL);
    fifo(sub, port(in, "in", PortDirection.OUTPUT, "1"), port(p, "i", PortDirection.INPUT, "1"));
    fifo(sub, port(p, "o", PortDirection.OUTPUT, "2"), port(q, "i", PortDirection.INPUT, "1"));
    fifo(sub, port(q, "o", PortDirection.OUTPUT, "1"), port(r, "i", PortDirection.INPUT, "2"));
    fifo(sub, port(r, "o", PortDirection.OUTPUT, "1"), port(out, "out", PortDirection.INPUT, "1"));
    Fifo feedback = fifo(sub, port(r, "fb", PortDirection.OUTPUT, "1"), port(p, "fb", PortDirection.INPUT, "1"));
    Delay delay = FACTORY.createDelay();
    delay.setExpression("1");
    delay.setPersistence(PersistenceLevel.NONE);
    feedback.setDelay(delay);

    Graph top = graph("hier");
    Parameter size = parameter(top, "N", Long.toString(n));
    Actor src = actor(top, "src", ActorKind.NORMAL);
    Actor h = actor(top, "H", ActorKind.NORMAL);
    Refinement refinement = FACTORY.createRefinement();
    refinement.setSubgraph(sub);
    h.setRefinement(refinement);
    Actor snk = actor(top, "snk", ActorKind.NORMAL);
    dependency(top, size, src);
    dependency(top, size, snk);
    fifo(top, port(src, "o", PortDirection.OUTPUT, "N"), port(h, "in", PortDirection.INPUT, "1"));
    fifo(top, port(h, "out", PortDirection.OUTPUT, "1"), port(snk, "i", PortDirection.INPUT, "N"));
    return top;
  }

  private static Graph graph(String name) {
    Graph graph = FACTORY.createGraph();
    graph.setName(name);
    graph.setFile("<generated>");
    return graph;
  }

  private static Parameter parameter(Graph graph, String name, String expression) {
    Parameter parameter = FACTORY.createParameter();
    parameter.setName(name);
    parameter.setExpression(expression);
    parameter.setKind(ParameterKind.STATIC);
    parameter.setFile("<generated>");
    graph.getParameters().add(parameter);
    return parameter;
  }

  private static Actor actor(Graph graph, String name, ActorKind kind) {
    Actor actor = FACTORY.createActor();
    actor.setName(name);
    actor.setKind(kind);
    actor.setFile("<generated>");
    graph.getActors().add(actor);
    return actor;
  }

  private static Port port(Actor actor, String name, PortDirection direction, String rate) {
    Port port = FACTORY.createPort();
    port.setName(name);
    port.setDirection(direction);
    port.setRate(rate);
    port.setFile("<generated>");
    actor.getPorts().add(port);
    return port;
  }

  private static void dependency(Graph graph, Parameter parameter, Actor actor) {
    Port port = port(actor, parameter.getName(), PortDirection.CONFIG_INPUT, null);
    Dependency dependency = FACTORY.createDependency();
    dependency.setSource(parameter);
    dependency.setTargetPort(port);
    graph.getDependencies().add(dependency);
  }

  private static Fifo fifo(Graph graph, Port source, Port target) {
    Fifo fifo = FACTORY.createFifo();
    fifo.setSource(source);
    fifo.setTarget(target);
    fifo.setType("char");
    fifo.setTokenBits(8);
    fifo.setFile("<generated>");
    source.setFifo(fifo);
    target.setFifo(fifo);
    graph.getFifos().add(fifo);
    return fifo;
  }
}
