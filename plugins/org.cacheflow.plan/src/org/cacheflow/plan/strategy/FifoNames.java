package org.cacheflow.plan.strategy;

import org.cacheflow.analysis.FlatActor;
import org.cacheflow.analysis.FlatFifo;
import org.cacheflow.analysis.FlatGraph;

/**
 * Names as {@code cacheflow inspect} prints them: actor paths relative to the top graph (hierarchy joined
 * with {@code /}), FIFO ends {@code actor.port}.
 */
public final class FifoNames {

  private final FlatGraph graph;
  private final String top;

  public FifoNames(FlatGraph graph) {
    this.graph = graph;
    String first = graph.actors().isEmpty() ? graph.name() : graph.actors().get(0).path();
    int slash = first.indexOf('/');
    this.top = slash < 0 ? first : first.substring(0, slash);
  }

  /** The actor's path without the top graph's name. */
  public String actor(FlatActor actor) {
    return relative(actor.path());
  }

  /** A path without the top graph's name. */
  public String relative(String path) {
    return path.startsWith(top + "/") ? path.substring(top.length() + 1) : path;
  }

  /** {@code actor.port} of the FIFO's producer. */
  public String source(FlatFifo fifo) {
    return actor(graph.actor(fifo.source())) + "." + fifo.sourcePort();
  }

  /** {@code actor.port} of the FIFO's consumer. */
  public String target(FlatFifo fifo) {
    return actor(graph.actor(fifo.target())) + "." + fifo.targetPort();
  }

  /** {@code source -> target}. */
  public String fifo(FlatFifo fifo) {
    return source(fifo) + " -> " + target(fifo);
  }
}
