package org.cacheflow.io.scenario;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import org.cacheflow.model.Actor;
import org.cacheflow.model.Fifo;
import org.cacheflow.model.Graph;
import org.cacheflow.model.Parameter;

/**
 * Finds what a scenario's paths name. A path is a {@code /}-separated list of actor names, one per level
 * of hierarchy, optionally preceded by the top graph's name: {@code stereo_top/Cost_Parallel_Work/rgbL}
 * and {@code Cost_Parallel_Work/rgbL} name the same actor, and {@code stereo_top} names the graph itself
 * (PREESM's VertexPath rules; older scenarios omit the graph name). Repeated, leading and trailing slashes
 * are ignored. A hierarchical actor is descended into through its refinement's sub-graph.
 */
public final class ActorPaths {

  private ActorPaths() {
  }

  /** Whether {@code path} names {@code top} itself rather than one of its actors. */
  public static boolean namesGraph(Graph top, String path) {
    List<String> segments = segments(path);
    return segments.isEmpty() || (segments.size() == 1 && segments.get(0).equals(top.getName()));
  }

  /** The actor {@code path} names, if any. */
  public static Optional<Actor> findActor(Graph top, String path) {
    List<String> segments = withoutGraphName(top, segments(path));
    if (segments.isEmpty()) {
      return Optional.empty();
    }
    Graph graph = top;
    Actor actor = null;
    for (String name : segments) {
      if (graph == null) {
        return Optional.empty();
      }
      actor = actorNamed(graph, name);
      if (actor == null) {
        return Optional.empty();
      }
      graph = actor.getRefinement() == null ? null : actor.getRefinement().getSubgraph();
    }
    return Optional.ofNullable(actor);
  }

  /**
   * The graph {@code path} names: the top graph for its own name (or an empty path), else the sub-graph
   * refining the hierarchical actor the path names. Used for parameter overrides' {@code parent}.
   */
  public static Optional<Graph> findGraph(Graph top, String path) {
    if (namesGraph(top, path)) {
      return Optional.of(top);
    }
    return findActor(top, path)
        .map(actor -> actor.getRefinement() == null ? null : actor.getRefinement().getSubgraph());
  }

  /**
   * The FIFO whose delay {@code path} names: PREESM's delay actors ({@code kind="delay"} nodes, e.g.
   * {@code top/sub/delay_A_out__B_in}), which scenarios map and time, are named by the path of their graph and the
   * delay's id.
   */
  public static Optional<Fifo> findDelay(Graph top, String path) {
    List<String> segments = segments(path);
    if (segments.isEmpty()) {
      return Optional.empty();
    }
    String name = segments.get(segments.size() - 1);
    String parent = String.join("/", segments.subList(0, segments.size() - 1));
    return findGraph(top, parent).flatMap(graph -> graph.getFifos().stream()
        .filter(fifo -> fifo.getDelay() != null && name.equals(fifo.getDelay().getName())).findFirst());
  }

  /** The parameter {@code name} of the graph {@code parentPath} names, if any. */
  public static Optional<Parameter> findParameter(Graph top, String parentPath, String name) {
    return findGraph(top, parentPath).flatMap(graph -> graph.getParameters().stream()
        .filter(parameter -> name.equals(parameter.getName())).findFirst());
  }

  private static List<String> segments(String path) {
    List<String> segments = new ArrayList<>();
    if (path != null) {
      Arrays.stream(path.trim().split("/")).filter(segment -> !segment.isEmpty()).forEach(segments::add);
    }
    return segments;
  }

  private static List<String> withoutGraphName(Graph top, List<String> segments) {
    if (segments.size() > 1 && segments.get(0).equals(top.getName())) {
      return segments.subList(1, segments.size());
    }
    return segments;
  }

  private static Actor actorNamed(Graph graph, String name) {
    for (Actor actor : graph.getActors()) {
      if (name.equals(actor.getName())) {
        return actor;
      }
    }
    return null;
  }
}
