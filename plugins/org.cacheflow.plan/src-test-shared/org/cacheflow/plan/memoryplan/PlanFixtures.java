package org.cacheflow.plan.memoryplan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.cacheflow.model.MappingConstraint;
import org.cacheflow.model.MemoryAnnotation;
import org.cacheflow.model.ModelFactory;
import org.cacheflow.model.Port;
import org.cacheflow.model.Scenario;
import org.cacheflow.model.Timing;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.analysis.FlatGraph;
import org.cacheflow.analysis.GraphAnalysis;
import org.cacheflow.analysis.TestGraph;
import org.cacheflow.plan.classify.MemoryFacts;
import org.cacheflow.plan.mapping.MappingInputs;
import org.cacheflow.plan.mapping.Platform;
import org.cacheflow.analysis.srdag.SingleRateExpansion;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.plan.strategy.MeasuredCosts;
import org.cacheflow.plan.strategy.TargetCache;
import org.cacheflow.scripts.FifoMark;

/**
 * Small graphs, scenarios and targets for planning tests. Tokens are bytes (8-bit), so a rate is a byte
 * count; every actor takes 100 time units unless given a timing.
 */
public final class PlanFixtures {

  private static final ModelFactory FACTORY = ModelFactory.eINSTANCE;

  private PlanFixtures() {
  }

  /** Analyses and expands a test graph. */
  public static Srdag expand(TestGraph graph) {
    FlatGraph flat = GraphAnalysis.analyse(graph.graph(), Map.of(), new Diagnostics()).flatGraph();
    return SingleRateExpansion.expand(flat);
  }

  /** A byte FIFO {@code source.out(production) -> target.in(consumption)}. */
  public static Port connect(TestGraph graph, org.cacheflow.model.Actor source, String out, long production,
      org.cacheflow.model.Actor target, String in, long consumption) {
    return graph.fifo(TestGraph.out(source, out, Long.toString(production)),
        TestGraph.in(target, in, Long.toString(consumption)), "char", 8).getTarget();
  }

  /** As {@link #connect}, with an annotation on the consumer's port. */
  public static Port connect(TestGraph graph, org.cacheflow.model.Actor source, String out, long production,
      org.cacheflow.model.Actor target, String in, long consumption, MemoryAnnotation annotation) {
    Port port = connect(graph, source, out, production, target, in, consumption);
    port.setAnnotation(annotation);
    return port;
  }

  /** A scenario built in code: pin actors to cores and give them timings. */
  public static final class ScenarioBuilder {

    private final Scenario scenario = FACTORY.createScenario();
    private final Map<String, MappingConstraint> byCore = new HashMap<>();

    public ScenarioBuilder() {
      scenario.setFile("test.scenario");
      scenario.setLine(1);
      scenario.setColumn(1);
    }

    /** Allows the actors (paths relative to the top graph) on the core. */
    public ScenarioBuilder allow(String core, String... actors) {
      MappingConstraint constraint = byCore.computeIfAbsent(core, name -> {
        MappingConstraint c = FACTORY.createMappingConstraint();
        c.setCoreName(name);
        c.setFile("test.scenario");
        c.setLine(10 + byCore.size());
        c.setColumn(5);
        scenario.getConstraints().add(c);
        return c;
      });
      constraint.getActorPaths().addAll(Arrays.asList(actors));
      return this;
    }

    public ScenarioBuilder time(String actor, String coreType, String expression) {
      Timing timing = FACTORY.createTiming();
      timing.setActorPath(actor);
      timing.setCoreType(coreType);
      timing.setExpression(expression);
      timing.setFile("test.scenario");
      timing.setLine(100 + scenario.getTimings().size());
      timing.setColumn(9);
      scenario.getTimings().add(timing);
      return this;
    }

    public Scenario build() {
      return scenario;
    }
  }

  /** Mapping inputs for {@code cores} generic cores from a scenario (null: defaults). */
  public static MappingInputs inputs(Srdag srdag, int cores, Scenario scenario) {
    return MappingInputs.fromScenario(srdag.flatGraph(), Platform.generic(cores), scenario, List.of(),
        new Diagnostics());
  }

  /** Default mapping inputs on a platform (several nodes, say). */
  public static MappingInputs inputs(Srdag srdag, Platform platform) {
    return MappingInputs.fromScenario(srdag.flatGraph(), platform, null, List.of(), new Diagnostics());
  }

  /** A target with the given L2 and LLC (L1 8 KiB, 64-byte lines, 4 KiB pages) and the measured break-evens. */
  public static TargetCache target(long l2, long llc) {
    return new TargetCache("test", 8 << 10, l2, llc, 64, 4096, 2, MeasuredCosts.MEASURED);
  }

  /** Memory facts written by hand: merge roots and marks by edge. */
  public static final class HandFacts implements MemoryFacts {

    private final Map<Integer, Integer> roots = new HashMap<>();
    private final Map<Integer, Set<FifoMark>> marks = new HashMap<>();
    private final List<String> log = new ArrayList<>();

    public HandFacts merge(int guest, int root) {
      roots.put(guest, root);
      roots.put(root, root);
      return this;
    }

    public HandFacts mark(int edge, FifoMark... values) {
      marks.put(edge, Set.of(values));
      return this;
    }

    @Override
    public int mergeRoot(int edge) {
      return roots.getOrDefault(edge, -1);
    }

    @Override
    public Set<FifoMark> marks(int edge) {
      return marks.getOrDefault(edge, Set.of());
    }

    @Override
    public String describeMarks(int edge) {
      log.add("marks " + edge);
      return "set by hand";
    }
  }

  /** The vertex with that name. */
  public static int vertex(Srdag srdag, String name) {
    for (int v = 0; v < srdag.vertexCount(); v++) {
      if (srdag.vertexName(v).equals(name)) {
        return v;
      }
    }
    throw new AssertionError("no vertex " + name);
  }

  /** The first edge whose producer and consumer vertex names are those given. */
  public static int edge(Srdag srdag, String producer, String consumer) {
    for (int e = 0; e < srdag.edgeCount(); e++) {
      if (srdag.vertexName(srdag.edgeSource(e)).equals(producer)
          && srdag.vertexName(srdag.edgeTarget(e)).equals(consumer)) {
        return e;
      }
    }
    List<String> all = new ArrayList<>();
    for (int e = 0; e < srdag.edgeCount(); e++) {
      all.add(srdag.vertexName(srdag.edgeSource(e)) + " -> " + srdag.vertexName(srdag.edgeTarget(e)));
    }
    throw new AssertionError("no edge " + producer + " -> " + consumer + " among " + all);
  }
}
