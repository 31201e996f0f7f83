package org.cacheflow.analysis;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.cacheflow.model.Actor;
import org.cacheflow.model.ActorKind;
import org.cacheflow.model.Delay;
import org.cacheflow.model.Dependency;
import org.cacheflow.model.Fifo;
import org.cacheflow.model.Graph;
import org.cacheflow.model.MemoryAnnotation;
import org.cacheflow.model.Parameter;
import org.cacheflow.model.PersistenceLevel;
import org.cacheflow.model.Port;
import org.cacheflow.model.PortDirection;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.model.expression.Expression;
import org.cacheflow.model.expression.ParameterResolver;

/**
 * Flattens a hierarchical PiSDF / SDF graph into a {@link FlatGraph}, resolving parameters level by level,
 * evaluating every rate and delay, and computing the repetition vector as PREESM does.
 *
 * <h2>Parameters</h2> Each level's parameters are resolved by {@link ParameterResolver}; a sub-graph's
 * config input parameters take the values that reach the hierarchical actor's config input ports through
 * dependencies. Overrides (a scenario's parameter values, command-line {@code -P}) are keyed either
 * {@code graphPath/parameter} (e.g. {@code stereo_top/costParallel/nbIterations}, the graph path being the
 * top graph's name followed by the hierarchical actor names) or by the plain parameter name, which applies
 * at every level declaring a parameter of that name unless a qualified key names that level. An override
 * that matches no parameter is reported as a warning. A port rate is evaluated with the values of the
 * actor's config input ports; a name that is not one falls back to the level's parameter of that name,
 * with a warning (PREESM would reject it).
 *
 * <h2>Repetition vector</h2> Per level, as PREESM's {@code LCMBasedBRV}: the balance equations of each
 * connected component (interfaces left out) are solved exactly ({@link BalanceEquations}); then, as
 * PREESM's {@code PiBRV.updateRVWithInterfaces}, a component of a sub-graph is scaled up until, per firing
 * of the sub-graph, every source interface's tokens are all read and every sink interface gets at least its
 * tokens. An actor's flat repetition count is its level count times the firings of its enclosing
 * hierarchical actors (PREESM's {@code getHierarchichalRV}). Consistency errors name the failing FIFOs.
 *
 * <h2>Interfaces</h2> As PREESM's {@code PiSDFFlattener} and {@code BroadcastRoundBufferOptimization}: a
 * source interface becomes a BROADCAST actor (input: the interface rate; output, named {@code if_NAME}:
 * everything the inner consumer reads per sub-graph firing, so the parent's tokens are repeated when the
 * sub-graph reads more), a sink interface a ROUNDBUFFER actor (input {@code if_NAME}: everything the inner
 * producer writes per sub-graph firing; output: the interface rate, so only the last tokens leave). Both
 * fire once per sub-graph firing. When input and output rates are equal and the inner FIFO has no delay
 * the special actor does nothing and is removed, the two FIFOs joined into one (PREESM's
 * {@code PiSDFToSingleRate} inserts them only when {@code prod != cons x rv} or the inner FIFO has a
 * delay).
 *
 * <h2>Delays</h2> As PREESM's {@code PiMMHelper.removePersistence}: a PERMANENT delay keeps its tokens
 * across iterations of the top graph, as does a LOCAL delay of the top graph. A LOCAL delay of a sub-graph
 * keeps its tokens from one firing of the sub-graph to the next within one firing of its parent graph and
 * starts afresh at each parent firing (PREESM moves it one level up with persistence NONE). A NONE delay
 * starts afresh at every firing of its graph. This is recorded as {@link FlatFifo#delaySegments()} and
 * {@link FlatFifo#delayPersistent()}.
 *
 * <h2>Delay setters and getters</h2> As PREESM: a FIFO from an actor into a delay's own actor (the delay
 * node's input port) makes that actor the delay's setter, a FIFO out of the delay's actor makes its target
 * the getter. For the repetition vector the delay's actor is a node whose ports carry the delay's size (as
 * in PREESM's {@code PiBRV}, which counts a delay actor only when it has a setter or getter), and it must
 * fire exactly once per firing of its graph: the setter's firings per graph firing times its rate, and the
 * getter's firings times its rate, must both equal the delay's size, else a located error. The setter's
 * firings then stand where the init vertex would be (their output is the first tokens the consumer reads)
 * and the getter's where the end vertex would be ({@link FlatFifo#setter()}, {@link FlatFifo#getter()}).
 * Persistence: a setter gives fresh tokens at every run of the delay, so such a delay never carries tokens
 * across iterations. At the top graph every level is accepted and means one run per iteration; in a
 * sub-graph only NONE is (one run per sub-graph firing), LOCAL and PERMANENT are rejected as PREESM rejects
 * them. In a sub-graph the setter may be a source interface and the getter a sink interface (the form PREESM's
 * {@code removePersistence} gives a lifted delay, and the quasi single-rate flattening PREESM applies to graphs
 * with NONE delays): at each firing of the sub-graph the delay's initial tokens are what the hierarchical actor
 * receives on that port (the interface's broadcast is the setter) and its final tokens leave through the
 * output port (the interface's round buffer is the getter); the interface rate must let the delay run once
 * per firing (outer rate at most the delay's size for the setter, as a broadcast repeats tokens). A delay may have just a setter (its final tokens are dropped) or just a getter (its initial tokens
 * come from the init refinement or are zeros at every run); PREESM accepts that asymmetry only at the top.
 * A delay actor with FIFOs that belongs to no delayed FIFO is left out with a warning, as are
 * CONFIG_OUTPUT_INTERFACE actors, which carry no data.
 */
public final class Flattener {

  private final Map<String, String> overrides;
  private final Set<String> usedOverrides = new HashSet<>();
  private final Diagnostics warnings;
  private final ProgressListener progress;
  private final List<ActorBuilder> actors = new ArrayList<>();
  private final List<FifoBuilder> fifos = new ArrayList<>();

  private Flattener(Map<String, String> overrides, Diagnostics warnings, ProgressListener progress) {
    this.overrides = overrides == null ? Map.of() : overrides;
    this.warnings = warnings == null ? new Diagnostics() : warnings;
    this.progress = progress == null ? ProgressListener.NONE : progress;
  }

  /**
   * Flattens {@code top}.
   *
   * @param top the top-level graph; hierarchical actors carry their sub-graph in their refinement
   * @param overrides parameter values by {@code graphPath/name} or plain {@code name}; may be null
   * @param warnings collects warnings; may be null
   * @param progress told of each level done; may be null
   * @throws InputException for an inconsistent graph, a negative rate or delay, an evaluation error, a
   *     repetition count beyond 64 bits, or a malformed hierarchy
   */
  public static FlatGraph flatten(Graph top, Map<String, String> overrides, Diagnostics warnings,
      ProgressListener progress) {
    return new Flattener(overrides, warnings, progress).run(top);
  }

  private FlatGraph run(Graph top) {
    if (top == null) {
      throw new IllegalArgumentException("no graph");
    }
    String topName = top.getName() == null || top.getName().isBlank() ? "top" : top.getName();
    progress.begin("flattening " + topName, 0);
    level(top, topName, Map.of(), 1, 1, null);
    for (String key : overrides.keySet()) {
      if (!usedOverrides.contains(key)) {
        warnings.warn(Locations.of(top), "parameter value given for '" + key + "', which no graph level has");
      }
    }
    removeIdentityInterfaces();
    FlatGraph flat = build(topName, Locations.of(top));
    progress.done();
    return flat;
  }

  // ---------------------------------------------------------------------------------------------------
  // One hierarchy level

  /** Where a FIFO of the parent level attaches to what replaced a hierarchical actor's port. */
  private record Endpoint(int actor, String port, long rate) {
  }

  /** A FIFO of the level being flattened, with its ends classified and rates evaluated. */
  private record LevelFifo(Fifo fifo, Actor source, Actor target, long production, long consumption) {
  }

  /** The setter and getter FIFOs of one delay of the level being flattened (either may be null). */
  private static final class DelayEnds {
    final Delay delay;
    final Fifo delayed;
    final long tokens;
    LevelFifo setter;
    LevelFifo getter;

    DelayEnds(Delay delay, Fifo delayed, long tokens) {
      this.delay = delay;
      this.delayed = delayed;
      this.tokens = tokens;
    }
  }

  /**
   * Flattens one level and everything below it.
   *
   * @param graph the level
   * @param graphPath its path ({@code top/hier/...})
   * @param configInputs values of its config input parameters
   * @param firings firings of this graph per top-level iteration
   * @param parentFirings firings of the parent graph per top-level iteration (1 at the top)
   * @param interfaceRates for a sub-graph, the rate of each data port of the hierarchical actor, by name;
   *     null at the top
   * @return for a sub-graph, what each interface became, by interface name
   */
  private Map<String, Endpoint> level(Graph graph, String graphPath, Map<String, Long> configInputs,
      long firings, long parentFirings, Map<String, Long> interfaceRates) {
    boolean isTop = interfaceRates == null;
    Map<String, Long> parameters = ParameterResolver.resolve(graph, configInputs, levelOverrides(graph,
        graphPath));

    Map<Port, Long> dependencyValues = new IdentityHashMap<>();
    for (Dependency dependency : graph.getDependencies()) {
      if (dependency.getTargetPort() != null && dependency.getSource() != null) {
        Long value = parameters.get(dependency.getSource().getName());
        if (value != null) {
          dependencyValues.put(dependency.getTargetPort(), value);
        }
      }
    }

    // nodes of the balance equations: every actor except interfaces and delay actors
    List<Actor> nodes = new ArrayList<>();
    Map<Actor, Integer> nodeIndex = new IdentityHashMap<>();
    Map<String, Actor> interfaces = new LinkedHashMap<>();
    for (Actor actor : graph.getActors()) {
      ActorKind kind = kindOf(actor);
      if (kind == ActorKind.SOURCE_INTERFACE || kind == ActorKind.SINK_INTERFACE) {
        if (isTop) {
          throw new InputException(Locations.of(actor), "top-level graph '" + graph.getName()
              + "' has interface '" + actor.getName() + "'; only sub-graphs have interfaces");
        }
        interfaces.put(actor.getName(), actor);
      } else if (kind == ActorKind.DELAY) {
        warnings.warn(Locations.of(actor), "delay actor '" + actor.getName()
            + "' is not modelled; its FIFOs are ignored");
      } else if (kind == ActorKind.CONFIG_OUTPUT_INTERFACE) {
        // carries a parameter value out of the sub-graph, no data: nothing to schedule
        continue;
      } else {
        nodeIndex.put(actor, nodes.size());
        nodes.add(actor);
      }
    }

    // rates of every data port of the nodes, and each node's config input values
    Map<Port, Long> rates = new IdentityHashMap<>();
    Map<Actor, Map<String, Long>> configValues = new IdentityHashMap<>();
    for (Actor actor : nodes) {
      Map<String, Long> environment = new LinkedHashMap<>();
      for (Port port : actor.getPorts()) {
        if (port.getDirection() == PortDirection.CONFIG_INPUT) {
          Long value = dependencyValues.get(port);
          if (value == null) {
            warnings.warn(Locations.of(port), "config input port '" + port.getName() + "' of actor '"
                + graphPath + "/" + actor.getName() + "' receives no parameter");
          } else {
            environment.put(port.getName(), value);
          }
        }
      }
      configValues.put(actor, environment);
      for (Port port : actor.getPorts()) {
        if (isData(port)) {
          rates.put(port, evaluateRate(port, actor, graphPath, environment, parameters));
        }
      }
    }

    // the delayed FIFO of each delay actor, to recognise setter and getter FIFOs
    Map<Actor, Fifo> delayedFifoOf = new IdentityHashMap<>();
    for (Fifo fifo : graph.getFifos()) {
      if (fifo.getDelay() != null && fifo.getDelay().getActor() != null) {
        delayedFifoOf.put(fifo.getDelay().getActor(), fifo);
      }
    }
    Map<Fifo, DelayEnds> delayEnds = new IdentityHashMap<>();
    Set<LevelFifo> delayEndFifos = java.util.Collections.newSetFromMap(new IdentityHashMap<>());

    // the FIFOs of this level
    List<LevelFifo> levelFifos = new ArrayList<>();
    Map<Actor, LevelFifo> interfaceFifo = new IdentityHashMap<>();
    for (Fifo fifo : graph.getFifos()) {
      Port sourcePort = fifo.getSource();
      Port targetPort = fifo.getTarget();
      if (sourcePort == null || targetPort == null || sourcePort.getActor() == null
          || targetPort.getActor() == null) {
        throw new InputException(Locations.of(fifo), "FIFO in graph '" + graphPath + "' has no "
            + (sourcePort == null || sourcePort.getActor() == null ? "source" : "target") + " port");
      }
      Actor source = sourcePort.getActor();
      Actor target = targetPort.getActor();
      if (kindOf(source) == ActorKind.DELAY || kindOf(target) == ActorKind.DELAY) {
        LevelFifo end = delayEndFifo(fifo, source, target, graphPath, parameters, rates, interfaceRates,
            delayedFifoOf, delayEnds, nodes, nodeIndex);
        if (end != null) {
          levelFifos.add(end);
          delayEndFifos.add(end);
          Actor other = kindOf(target) == ActorKind.DELAY ? source : target;
          if (isInterface(other) && interfaceFifo.put(other, end) != null) {
            throw new InputException(Locations.of(other), "interface '" + other.getName() + "' of graph '"
                + graphPath + "' is connected to more than one FIFO");
          }
        }
        continue;
      }
      long production = isInterface(source) ? interfaceRate(source, graphPath, interfaceRates)
          : rateOf(rates, sourcePort, source, graphPath);
      long consumption = isInterface(target) ? interfaceRate(target, graphPath, interfaceRates)
          : rateOf(rates, targetPort, target, graphPath);
      LevelFifo levelFifo = new LevelFifo(fifo, source, target, production, consumption);
      levelFifos.add(levelFifo);
      for (Actor end : new Actor[] {source, target}) {
        if (isInterface(end) && interfaceFifo.put(end, levelFifo) != null) {
          throw new InputException(Locations.of(end), "interface '" + end.getName() + "' of graph '"
              + graphPath + "' is connected to more than one FIFO");
        }
      }
    }

    long[] levelRepetitions = solveLevel(graph, graphPath, nodes, nodeIndex, levelFifos, interfaceFifo,
        interfaces, isTop);
    for (DelayEnds ends : delayEnds.values()) {
      checkDelayEnds(ends, graphPath, levelRepetitions, nodeIndex);
    }

    long[] flatRepetitions = new long[nodes.size()];
    for (int n = 0; n < nodes.size(); n++) {
      try {
        flatRepetitions[n] = Math.multiplyExact(levelRepetitions[n], firings);
      } catch (ArithmeticException overflow) {
        throw new InputException(Locations.of(nodes.get(n)), "actor '" + graphPath + "/"
            + nodes.get(n).getName() + "' would fire more than 2^63 times per iteration ("
            + levelRepetitions[n] + " x " + firings + ")");
      }
    }

    // actors in declaration order; hierarchical ones are replaced by their sub-graph
    Map<Actor, Integer> flatIndex = new IdentityHashMap<>();
    Map<Actor, Map<String, Endpoint>> hierarchicalEndpoints = new IdentityHashMap<>();
    Map<String, Endpoint> result = new LinkedHashMap<>();
    for (Actor actor : graph.getActors()) {
      ActorKind kind = kindOf(actor);
      if (kind == ActorKind.DELAY || kind == ActorKind.CONFIG_OUTPUT_INTERFACE) {
        continue;
      }
      String path = graphPath + "/" + actor.getName();
      if (kind == ActorKind.SOURCE_INTERFACE || kind == ActorKind.SINK_INTERFACE) {
        result.put(actor.getName(), addInterfaceActor(actor, path, kind, firings, interfaceRates,
            interfaceFifo.get(actor), nodeIndex, levelRepetitions));
        flatIndex.put(actor, actors.size() - 1);
        continue;
      }
      int n = nodeIndex.get(actor);
      Graph subgraph = actor.getRefinement() == null ? null : actor.getRefinement().getSubgraph();
      if (subgraph != null) {
        Map<String, Long> portRates = new HashMap<>();
        Map<String, Long> subConfig = new LinkedHashMap<>();
        for (Port port : actor.getPorts()) {
          if (isData(port)) {
            portRates.put(port.getName(), rates.get(port));
          } else if (port.getDirection() == PortDirection.CONFIG_INPUT && dependencyValues.containsKey(port)) {
            subConfig.put(port.getName(), dependencyValues.get(port));
          }
        }
        hierarchicalEndpoints.put(actor, level(subgraph, path, subConfig, flatRepetitions[n], firings,
            portRates));
      } else {
        ActorBuilder builder = new ActorBuilder(path, kind, flatRepetitions[n], Locations.of(actor), actor,
            false);
        builder.configValues.putAll(configValues.get(actor));
        for (Port port : actor.getPorts()) {
          if (isData(port)) {
            builder.ports.add(new PortBuilder(port.getName(), port.getDirection(), rates.get(port),
                port.getAnnotation(), Locations.of(port)));
          }
        }
        flatIndex.put(actor, actors.size());
        actors.add(builder);
      }
    }

    for (LevelFifo levelFifo : levelFifos) {
      if (delayEndFifos.contains(levelFifo)) {
        continue;
      }
      Endpoint from = endpoint(levelFifo.source(), levelFifo.fifo().getSource(), true, flatIndex,
          hierarchicalEndpoints, graphPath);
      Endpoint to = endpoint(levelFifo.target(), levelFifo.fifo().getTarget(), false, flatIndex,
          hierarchicalEndpoints, graphPath);
      DelayEnds ends = delayEnds.get(levelFifo.fifo());
      Endpoint setter = ends == null || ends.setter == null ? null : endpoint(ends.setter.source(),
          ends.setter.fifo().getSource(), true, flatIndex, hierarchicalEndpoints, graphPath);
      Endpoint getter = ends == null || ends.getter == null ? null : endpoint(ends.getter.target(),
          ends.getter.fifo().getTarget(), false, flatIndex, hierarchicalEndpoints, graphPath);
      addFifo(levelFifo.fifo(), from, to, graph, graphPath, parameters, firings, parentFirings, isTop, ends,
          setter, getter);
    }
    progress.worked(1);
    return result;
  }

  /**
   * Classifies a FIFO with a delay actor at one end: the setter FIFO (into the delay actor) or the getter FIFO
   * (out of it) of the delay on {@code delayedFifoOf}'s FIFO. Makes the delay actor a balance-equation node
   * whose ports carry the delay's size. Returns null (with a warning) for a delay actor of no delayed FIFO.
   */
  private LevelFifo delayEndFifo(Fifo fifo, Actor source, Actor target, String graphPath,
      Map<String, Long> parameters, Map<Port, Long> rates, Map<String, Long> interfaceRates,
      Map<Actor, Fifo> delayedFifoOf,
      Map<Fifo, DelayEnds> delayEnds, List<Actor> nodes, Map<Actor, Integer> nodeIndex) {
    boolean isSetter = kindOf(target) == ActorKind.DELAY;
    Actor delayActor = isSetter ? target : source;
    Actor other = isSetter ? source : target;
    Fifo delayed = delayedFifoOf.get(delayActor);
    if (delayed == null) {
      warnings.warn(Locations.of(fifo), "FIFO " + (isSetter ? "into" : "out of") + " delay actor '"
          + delayActor.getName() + "', which is the delay of no FIFO of graph '" + graphPath + "'; ignored");
      return null;
    }
    Delay delay = delayed.getDelay();
    String role = isSetter ? "setter" : "getter";
    String delayName = "delay '" + delayActor.getName() + "' of graph '" + graphPath + "'";
    // in a sub-graph, the enclosing graph may give the initial tokens through a source interface and take the
    // final ones through a sink interface (PREESM's removePersistence writes delays so)
    boolean fromParent = interfaceRates != null
        && kindOf(other) == (isSetter ? ActorKind.SOURCE_INTERFACE : ActorKind.SINK_INTERFACE);
    if (!fromParent && (kindOf(other) == ActorKind.DELAY || isInterface(other)
        || kindOf(other) == ActorKind.CONFIG_OUTPUT_INTERFACE)) {
      throw new InputException(Locations.of(fifo), "the " + role + " of " + delayName + " must be an actor of"
          + " the graph" + (interfaceRates == null ? "" : " or a " + (isSetter ? "source" : "sink") + " interface")
          + ", not " + (kindOf(other) == ActorKind.DELAY ? "a delay" : "interface '" + other.getName() + "'"));
    }
    Actor own = isSetter ? delayed.getSource().getActor() : delayed.getTarget().getActor();
    if (other == own) {
      // its firings would be both the delay's end and the FIFO's own producer / consumer
      throw new InputException(Locations.of(fifo), "the " + role + " of " + delayName + " is '" + other.getName()
          + "', the " + (isSetter ? "producer" : "consumer") + " of the delayed FIFO itself; a " + role
          + " must be another actor");
    }
    Actor named = isSetter ? delay.getSetter() : delay.getGetter();
    if (named != null && named != other) {
      throw new InputException(Locations.of(fifo), delayName + " names '" + named.getName() + "' as its " + role
          + " but this FIFO connects it to '" + other.getName() + "'");
    }
    DelayEnds ends = delayEnds.get(delayed);
    if (ends == null) {
      ends = new DelayEnds(delay, delayed, delayTokens(delay, "FIFO " + describe(delayed, graphPath),
          parameters));
      delayEnds.put(delayed, ends);
    }
    if ((isSetter ? ends.setter : ends.getter) != null) {
      throw new InputException(Locations.of(fifo), delayName + " has a second " + role + " FIFO (the first is at"
          + " line " + (isSetter ? ends.setter : ends.getter).fifo().getLine() + ")");
    }
    if (!nodeIndex.containsKey(delayActor)) {
      nodeIndex.put(delayActor, nodes.size());
      nodes.add(delayActor);
    }
    Port otherPort = isSetter ? fifo.getSource() : fifo.getTarget();
    long otherRate = fromParent ? interfaceRate(other, graphPath, interfaceRates)
        : rateOf(rates, otherPort, other, graphPath);
    LevelFifo levelFifo = isSetter ? new LevelFifo(fifo, source, target, otherRate, ends.tokens)
        : new LevelFifo(fifo, source, target, ends.tokens, otherRate);
    if (isSetter) {
      ends.setter = levelFifo;
    } else {
      ends.getter = levelFifo;
    }
    return levelFifo;
  }

  /** The delay's actor fires once per graph firing exactly when setter and getter give and take its size. */
  private static void checkDelayEnds(DelayEnds ends, String graphPath, long[] levelRepetitions,
      Map<Actor, Integer> nodeIndex) {
    for (LevelFifo end : new LevelFifo[] {ends.setter, ends.getter}) {
      if (end == null) {
        continue;
      }
      boolean isSetter = end == ends.setter;
      Actor actor = isSetter ? end.source() : end.target();
      long rate = isSetter ? end.production() : end.consumption();
      // an interface setter or getter passes the hierarchical actor's tokens once per firing of the graph
      long fires = isInterface(actor) ? 1 : levelRepetitions[nodeIndex.get(actor)];
      long delayFires = levelRepetitions[nodeIndex.get(ends.delay.getActor())];
      if (delayFires != 1) {
        Port port = isSetter ? end.fifo().getSource() : end.fifo().getTarget();
        throw new InputException(Locations.of(end.fifo()), (isSetter ? "setter" : "getter") + " '"
            + actor.getName() + "' of delay '" + ends.delay.getActor().getName() + "' (graph '" + graphPath + "') "
            + (isSetter ? "produces " : "consumes ") + rate + " tokens per firing on port '" + port.getName()
            + "' and fires " + fires + " times per firing of the graph (" + rate + " x " + fires + " = "
            + multiplySaturated(rate, fires) + " tokens), but the delay holds " + ends.tokens + " tokens per"
            + " firing of the graph; the rates must give exactly the delay's size");
      }
    }
  }

  private static long multiplySaturated(long a, long b) {
    try {
      return Math.multiplyExact(a, b);
    } catch (ArithmeticException overflow) {
      return Long.MAX_VALUE;
    }
  }

  private static String describe(Fifo fifo, String graphPath) {
    return graphPath + "/" + fifo.getSource().getActor().getName() + "." + fifo.getSource().getName() + " -> "
        + graphPath + "/" + fifo.getTarget().getActor().getName() + "." + fifo.getTarget().getName();
  }

  private static long delayTokens(Delay delay, String fifoName, Map<String, Long> parameters) {
    SourceLocation location = Locations.of(delay);
    if (delay.getExpression() == null || delay.getExpression().isBlank()) {
      throw new InputException(location, "delay on " + fifoName + " has no size");
    }
    long tokens = Expression.parse(delay.getExpression(), location).evaluate(parameters);
    if (tokens < 0) {
      throw new InputException(location, "delay on " + fifoName + " is negative: " + delay.getExpression()
          + " = " + tokens);
    }
    return tokens;
  }

  private Map<String, String> levelOverrides(Graph graph, String graphPath) {
    Map<String, String> result = new LinkedHashMap<>();
    for (Parameter parameter : graph.getParameters()) {
      String name = parameter.getName();
      String qualified = graphPath + "/" + name;
      if (overrides.containsKey(qualified)) {
        result.put(name, overrides.get(qualified));
        usedOverrides.add(qualified);
      } else if (overrides.containsKey(name)) {
        result.put(name, overrides.get(name));
        usedOverrides.add(name);
      }
    }
    return result;
  }

  private long evaluateRate(Port port, Actor actor, String graphPath, Map<String, Long> environment,
      Map<String, Long> parameters) {
    SourceLocation location = Locations.of(port);
    String portPath = graphPath + "/" + actor.getName() + "." + port.getName();
    if (port.getRate() == null || port.getRate().isBlank()) {
      throw new InputException(location, "port " + portPath + " has no rate");
    }
    Expression expression = Expression.parse(port.getRate(), location);
    Map<String, Long> values = environment;
    for (String variable : expression.variables()) {
      if (!environment.containsKey(variable) && parameters.containsKey(variable)) {
        if (values == environment) {
          values = new HashMap<>(environment);
        }
        values.put(variable, parameters.get(variable));
        warnings.warn(location, "rate of port " + portPath + " reads parameter '" + variable
            + "', which is not a config input of actor '" + actor.getName() + "'; using the graph's value");
      }
    }
    long rate = expression.evaluate(values);
    if (rate < 0) {
      throw new InputException(location, "port " + portPath + " has a negative rate: " + port.getRate()
          + " = " + rate);
    }
    return rate;
  }

  private static long rateOf(Map<Port, Long> rates, Port port, Actor actor, String graphPath) {
    Long rate = rates.get(port);
    if (rate == null) {
      throw new InputException(Locations.of(port), "port " + graphPath + "/" + actor.getName() + "."
          + port.getName() + " is not a data port of its actor but a FIFO is connected to it");
    }
    return rate;
  }

  private long interfaceRate(Actor iface, String graphPath, Map<String, Long> interfaceRates) {
    Long rate = interfaceRates.get(iface.getName());
    if (rate == null) {
      throw new InputException(Locations.of(iface), "interface '" + iface.getName() + "' of graph '"
          + graphPath + "' matches no data port of its hierarchical actor");
    }
    return rate;
  }

  /**
   * Solves the level's balance equations and scales sub-graph components to their interfaces.
   */
  private long[] solveLevel(Graph graph, String graphPath, List<Actor> nodes, Map<Actor, Integer> nodeIndex,
      List<LevelFifo> levelFifos, Map<Actor, LevelFifo> interfaceFifo, Map<String, Actor> interfaces,
      boolean isTop) {
    List<LevelFifo> internal = new ArrayList<>();
    for (LevelFifo levelFifo : levelFifos) {
      if (!isInterface(levelFifo.source()) && !isInterface(levelFifo.target())) {
        internal.add(levelFifo);
      }
    }
    int edgeCount = internal.size();
    int[] source = new int[edgeCount];
    int[] target = new int[edgeCount];
    long[] production = new long[edgeCount];
    long[] consumption = new long[edgeCount];
    for (int e = 0; e < edgeCount; e++) {
      LevelFifo levelFifo = internal.get(e);
      source[e] = nodeIndex.get(levelFifo.source());
      target[e] = nodeIndex.get(levelFifo.target());
      production[e] = levelFifo.production();
      consumption[e] = levelFifo.consumption();
    }
    BalanceEquations.Solution solution = BalanceEquations.solve(graphPath, Locations.of(graph), nodes.size(),
        source, target, production, consumption, new BalanceEquations.Naming() {
          @Override
          public String node(int node) {
            return graphPath + "/" + nodes.get(node).getName();
          }

          @Override
          public String edge(int edge) {
            LevelFifo levelFifo = internal.get(edge);
            return node(source[edge]) + "." + levelFifo.fifo().getSource().getName() + " -> "
                + node(target[edge]) + "." + levelFifo.fifo().getTarget().getName();
          }

          @Override
          public SourceLocation location(int edge) {
            return Locations.of(internal.get(edge).fifo());
          }
        });
    long[] repetitions = solution.repetitions();
    if (isTop) {
      return repetitions;
    }
    // PREESM's updateRVWithInterfaces: source interfaces first, then sink interfaces, in order
    long[] scale = new long[solution.componentCount()];
    java.util.Arrays.fill(scale, 1);
    for (boolean sources : new boolean[] {true, false}) {
      for (Actor iface : interfaces.values()) {
        boolean isSource = kindOf(iface) == ActorKind.SOURCE_INTERFACE;
        if (isSource != sources) {
          continue;
        }
        LevelFifo levelFifo = interfaceFifo.get(iface);
        if (levelFifo == null) {
          warnings.warn(Locations.of(iface), "interface '" + iface.getName() + "' of graph '" + graphPath
              + "' is connected to nothing inside");
          continue;
        }
        Actor inner = isSource ? levelFifo.target() : levelFifo.source();
        if (isInterface(inner)) {
          continue;
        }
        int node = nodeIndex.get(inner);
        int component = solution.component()[node];
        long innerRate = isSource ? levelFifo.consumption() : levelFifo.production();
        long interfaceRate = isSource ? levelFifo.production() : levelFifo.consumption();
        try {
          long perFiring = Math.multiplyExact(Math.multiplyExact(scale[component], innerRate),
              repetitions[node]);
          if (perFiring > 0 && perFiring < interfaceRate) {
            scale[component] = Math.multiplyExact(scale[component],
                (interfaceRate + perFiring - 1) / perFiring);
          }
        } catch (ArithmeticException overflow) {
          throw new InputException(Locations.of(iface), "repetitions in graph '" + graphPath
              + "' do not fit 64-bit integers when scaled to interface '" + iface.getName() + "'");
        }
      }
    }
    for (int n = 0; n < repetitions.length; n++) {
      try {
        repetitions[n] = Math.multiplyExact(repetitions[n], scale[solution.component()[n]]);
      } catch (ArithmeticException overflow) {
        throw new InputException(Locations.of(nodes.get(n)), "repetitions in graph '" + graphPath
            + "' do not fit 64-bit integers");
      }
    }
    return repetitions;
  }

  private Endpoint addInterfaceActor(Actor iface, String path, ActorKind kind, long firings,
      Map<String, Long> interfaceRates, LevelFifo levelFifo, Map<Actor, Integer> nodeIndex,
      long[] levelRepetitions) {
    long outerRate = interfaceRates.get(iface.getName()) == null ? 0 : interfaceRates.get(iface.getName());
    boolean isSource = kind == ActorKind.SOURCE_INTERFACE;
    ActorBuilder builder = new ActorBuilder(path, isSource ? ActorKind.BROADCAST : ActorKind.ROUNDBUFFER,
        firings, Locations.of(iface), iface, true);
    String innerPort = "if_" + iface.getName();
    if (levelFifo != null) {
      Actor inner = isSource ? levelFifo.target() : levelFifo.source();
      long innerRate;
      if (isInterface(inner)) {
        // interface wired straight to interface: the broadcast adapts to the sink interface's rate
        innerRate = levelFifo.consumption();
      } else {
        long perFiring = isSource ? levelFifo.consumption() : levelFifo.production();
        try {
          innerRate = Math.multiplyExact(perFiring, levelRepetitions[nodeIndex.get(inner)]);
        } catch (ArithmeticException overflow) {
          throw new InputException(Locations.of(iface), "tokens through interface '" + iface.getName()
              + "' do not fit 64-bit integers");
        }
      }
      if (isSource) {
        builder.ports.add(new PortBuilder(iface.getName(), PortDirection.INPUT, outerRate,
            MemoryAnnotation.READ_ONLY, Locations.of(iface)));
        builder.ports.add(new PortBuilder(innerPort, PortDirection.OUTPUT, innerRate,
            MemoryAnnotation.WRITE_ONLY, Locations.of(iface)));
      } else {
        builder.ports.add(new PortBuilder(innerPort, PortDirection.INPUT, innerRate,
            MemoryAnnotation.READ_ONLY, Locations.of(iface)));
        builder.ports.add(new PortBuilder(iface.getName(), PortDirection.OUTPUT, outerRate,
            MemoryAnnotation.WRITE_ONLY, Locations.of(iface)));
      }
    } else {
      builder.ports.add(new PortBuilder(iface.getName(), isSource ? PortDirection.INPUT : PortDirection.OUTPUT,
          outerRate, isSource ? MemoryAnnotation.READ_ONLY : MemoryAnnotation.WRITE_ONLY, Locations.of(iface)));
    }
    actors.add(builder);
    return new Endpoint(actors.size() - 1, iface.getName(), outerRate);
  }

  private Endpoint endpoint(Actor actor, Port port, boolean isSource, Map<Actor, Integer> flatIndex,
      Map<Actor, Map<String, Endpoint>> hierarchicalEndpoints, String graphPath) {
    if (isInterface(actor)) {
      int index = flatIndex.get(actor);
      PortBuilder inner = actors.get(index).port("if_" + actor.getName());
      return new Endpoint(index, inner.name, inner.rate);
    }
    Map<String, Endpoint> subgraphEnds = hierarchicalEndpoints.get(actor);
    if (subgraphEnds != null) {
      Endpoint end = subgraphEnds.get(port.getName());
      if (end == null) {
        throw new InputException(Locations.of(port), "port '" + port.getName() + "' of hierarchical actor '"
            + graphPath + "/" + actor.getName() + "' has no " + (isSource ? "sink" : "source")
            + " interface of that name in its sub-graph");
      }
      return end;
    }
    int index = flatIndex.get(actor);
    return new Endpoint(index, port.getName(), actors.get(index).port(port.getName()).rate);
  }

  private void addFifo(Fifo fifo, Endpoint from, Endpoint to, Graph graph, String graphPath,
      Map<String, Long> parameters, long firings, long parentFirings, boolean isTop, DelayEnds ends,
      Endpoint setter, Endpoint getter) {
    FifoBuilder builder = new FifoBuilder();
    builder.source = from.actor();
    builder.sourcePort = from.port();
    builder.target = to.actor();
    builder.targetPort = to.port();
    builder.production = from.rate();
    builder.consumption = to.rate();
    builder.type = fifo.getType();
    builder.tokenBits = fifo.getTokenBits();
    builder.location = Locations.of(fifo);
    builder.origin = fifo;
    builder.delaySegments = 1;
    Delay delay = fifo.getDelay();
    if (delay != null) {
      SourceLocation location = Locations.of(delay);
      String fifoName = actors.get(from.actor()).path + "." + from.port() + " -> " + actors.get(to.actor()).path
          + "." + to.port();
      long tokens = ends != null ? ends.tokens : delayTokens(delay, "FIFO " + fifoName, parameters);
      PersistenceLevel persistence = delay.getPersistence() == null ? PersistenceLevel.PERMANENT
          : delay.getPersistence();
      if (ends == null && (delay.getSetter() != null || delay.getGetter() != null)) {
        Actor named = delay.getSetter() != null ? delay.getSetter() : delay.getGetter();
        throw new InputException(location, "delay on FIFO " + fifoName + " names '" + named.getName() + "' as its "
            + (delay.getSetter() != null ? "setter" : "getter") + " but no FIFO connects that actor to the delay");
      }
      if (ends != null && !isTop && persistence != PersistenceLevel.NONE) {
        throw new InputException(location, "delay on FIFO " + fifoName + " in sub-graph '" + graphPath + "' has a "
            + (ends.setter != null ? "setter" : "getter") + " actor and persistence " + persistence
            + "; in a sub-graph only persistence NONE allows a setter or getter (as in PREESM)");
      }
      if (ends != null && ends.setter != null) {
        checkSetterTokens(ends.setter.fifo(), fifo, fifoName);
      }
      if (ends != null && ends.getter != null) {
        checkSetterTokens(ends.getter.fifo(), fifo, fifoName);
      }
      builder.delay = tokens;
      builder.persistence = persistence;
      builder.delayConfig = delayConfig(delay, graph, parameters);
      switch (persistence) {
        case PERMANENT -> builder.delayPersistent = true;
        case LOCAL -> {
          builder.delayPersistent = isTop;
          builder.delaySegments = isTop ? 1 : parentFirings;
        }
        case NONE -> builder.delaySegments = firings;
        default -> throw new IllegalStateException("unknown persistence " + persistence);
      }
      if (ends != null) {
        // the setter gives fresh tokens at every run and the getter takes them: nothing carries over
        builder.delayPersistent = false;
        if (setter != null) {
          builder.setter = setter.actor();
          builder.setterPort = setter.port();
        }
        if (getter != null) {
          builder.getter = getter.actor();
          builder.getterPort = getter.port();
        }
      }
      if (tokens == 0) {
        builder.persistence = null;
        builder.delaySegments = 1;
        builder.delayPersistent = false;
      }
    }
    actors.get(builder.source).outputs.add(fifos.size());
    actors.get(builder.target).inputs.add(fifos.size());
    fifos.add(builder);
  }

  /** A setter's or getter's FIFO must carry tokens of the delayed FIFO's size when both sizes are known. */
  private static void checkSetterTokens(Fifo end, Fifo delayed, String fifoName) {
    if (end.getTokenBits() > 0 && delayed.getTokenBits() > 0 && end.getTokenBits() != delayed.getTokenBits()) {
      throw new InputException(Locations.of(end), "FIFO " + end.getSource().getActor().getName() + "."
          + end.getSource().getName() + " -> " + end.getTarget().getActor().getName() + "."
          + end.getTarget().getName() + " carries " + end.getTokenBits() + "-bit tokens but the delayed FIFO "
          + fifoName + " carries " + delayed.getTokenBits() + "-bit tokens");
    }
  }

  // ---------------------------------------------------------------------------------------------------
  // Interfaces that do nothing

  /**
   * Removes each interface broadcast / round buffer whose input and output rates are equal and whose
   * inner FIFO has no delay, joining its two FIFOs into one that keeps the outer FIFO's delay, type and
   * location.
   */
  private void removeIdentityInterfaces() {
    for (int a = actors.size() - 1; a >= 0; a--) {
      ActorBuilder actor = actors.get(a);
      if (!actor.fromInterface || actor.inputs.size() != 1 || actor.outputs.size() != 1) {
        continue;
      }
      FifoBuilder in = fifos.get(actor.inputs.get(0));
      FifoBuilder out = fifos.get(actor.outputs.get(0));
      boolean isBroadcast = actor.kind == ActorKind.BROADCAST;
      FifoBuilder outer = isBroadcast ? in : out;
      FifoBuilder inner = isBroadcast ? out : in;
      if (in.consumption != out.production || inner.delay > 0) {
        continue;
      }
      FifoBuilder merged = new FifoBuilder();
      merged.source = in.source;
      merged.sourcePort = in.sourcePort;
      merged.production = in.production;
      merged.target = out.target;
      merged.targetPort = out.targetPort;
      merged.consumption = out.consumption;
      merged.delay = outer.delay;
      merged.persistence = outer.persistence;
      merged.delaySegments = outer.delaySegments;
      merged.delayPersistent = outer.delayPersistent;
      merged.type = outer.type != null ? outer.type : inner.type;
      merged.tokenBits = outer.tokenBits > 0 ? outer.tokenBits : inner.tokenBits;
      merged.location = outer.location;
      merged.origin = outer.origin;
      merged.delayConfig = outer.delayConfig;
      merged.setter = outer.setter;
      merged.setterPort = outer.setterPort;
      merged.getter = outer.getter;
      merged.getterPort = outer.getterPort;
      int mergedIndex = fifos.size();
      fifos.add(merged);
      in.removed = true;
      out.removed = true;
      actor.removed = true;
      replace(actors.get(merged.source).outputs, actor.inputs.get(0), mergedIndex);
      replace(actors.get(merged.target).inputs, actor.outputs.get(0), mergedIndex);
    }
  }

  /** The values reaching the config input ports of a delay's own actor (what its init refinement is given). */
  private static Map<String, Long> delayConfig(Delay delay, Graph graph, Map<String, Long> parameters) {
    Actor actor = delay.getActor();
    Map<String, Long> values = new LinkedHashMap<>();
    for (Dependency dependency : graph.getDependencies()) {
      Port port = dependency.getTargetPort();
      Parameter source = dependency.getSource();
      if (source == null) {
        continue;
      }
      Long value = parameters.get(source.getName());
      if (value == null) {
        continue;
      }
      if (dependency.getTargetDelay() == delay) {
        // the reader keeps no port for a dependency into a delay: the parameter's own name stands for it
        values.put(source.getName(), value);
      } else if (port != null && actor != null && port.getActor() == actor) {
        values.put(port.getName(), value);
      }
    }
    return values;
  }

  private static void replace(List<Integer> list, int old, int replacement) {
    int at = list.indexOf(old);
    if (at >= 0) {
      list.set(at, replacement);
    }
  }

  // ---------------------------------------------------------------------------------------------------
  // Result

  private FlatGraph build(String name, SourceLocation location) {
    int[] newActorIndex = new int[actors.size()];
    int count = 0;
    for (int a = 0; a < actors.size(); a++) {
      newActorIndex[a] = actors.get(a).removed ? -1 : count++;
    }
    List<FlatFifo> flatFifos = new ArrayList<>();
    Map<String, Integer> fifoAtPort = new HashMap<>();
    Set<String> defaultedTypes = new LinkedHashSet<>();
    for (FifoBuilder fifo : fifos) {
      if (fifo.removed) {
        continue;
      }
      int index = flatFifos.size();
      int source = newActorIndex[fifo.source];
      int target = newActorIndex[fifo.target];
      boolean defaulted = fifo.tokenBits <= 0;
      if (defaulted) {
        String typeName = fifo.type == null || fifo.type.isBlank() ? null : fifo.type;
        if (defaultedTypes.add(typeName == null ? "" : typeName)) {
          warnings.warn(fifo.location, (typeName == null ? "FIFO " + actors.get(fifo.source).path + "."
              + fifo.sourcePort + " -> " + actors.get(fifo.target).path + "." + fifo.targetPort
              + " has no token size" : "data type '" + typeName + "' has no size") + "; assuming "
              + FlatFifo.DEFAULT_TOKEN_BITS + " bits per token");
        }
      }
      int setter = fifo.setter < 0 ? -1 : newActorIndex[fifo.setter];
      int getter = fifo.getter < 0 ? -1 : newActorIndex[fifo.getter];
      flatFifos.add(new FlatFifo(index, source, fifo.sourcePort, target, fifo.targetPort, fifo.production,
          fifo.consumption, fifo.delay, fifo.persistence, fifo.delaySegments, fifo.delayPersistent, fifo.type,
          defaulted ? FlatFifo.DEFAULT_TOKEN_BITS : fifo.tokenBits, defaulted, fifo.location, fifo.origin,
          fifo.delayConfig, setter, setter < 0 ? null : fifo.setterPort, getter, getter < 0 ? null : fifo.getterPort));
      fifoAtPort.put(source + "\u0000out\u0000" + fifo.sourcePort, index);
      fifoAtPort.put(target + "\u0000in\u0000" + fifo.targetPort, index);
      if (setter >= 0) {
        // the setter's port writes this FIFO's first tokens
        fifoAtPort.put(setter + "\u0000out\u0000" + fifo.setterPort, index);
      }
      if (getter >= 0) {
        fifoAtPort.put(getter + "\u0000in\u0000" + fifo.getterPort, index);
      }
    }
    List<FlatActor> flatActors = new ArrayList<>();
    for (int a = 0; a < actors.size(); a++) {
      ActorBuilder actor = actors.get(a);
      if (actor.removed) {
        continue;
      }
      int index = flatActors.size();
      List<FlatPort> ports = new ArrayList<>();
      for (PortBuilder port : actor.ports) {
        String key = index + (port.direction == PortDirection.INPUT ? "\u0000in\u0000" : "\u0000out\u0000")
            + port.name;
        Integer fifo = fifoAtPort.get(key);
        if (fifo == null && !actor.fromInterface) {
          warnings.warn(port.location, "port " + actor.path + "." + port.name + " is not connected to a FIFO");
        }
        ports.add(new FlatPort(port.name, port.direction, port.rate,
            port.annotation == null ? MemoryAnnotation.NONE : port.annotation, port.location,
            fifo == null ? -1 : fifo));
      }
      flatActors.add(new FlatActor(index, actor.path, actor.kind, actor.repetitions, ports, actor.configValues,
          actor.location, actor.origin, actor.fromInterface));
    }
    FlatGraph flat = new FlatGraph(name, location, flatActors, flatFifos);
    for (FlatFifo fifo : flatFifos) {
      long produced;
      long consumed;
      try {
        produced = Math.multiplyExact(fifo.production(), flatActors.get(fifo.source()).repetitions());
        consumed = Math.multiplyExact(fifo.consumption(), flatActors.get(fifo.target()).repetitions());
      } catch (ArithmeticException overflow) {
        throw new InputException(fifo.location(), "tokens per iteration on FIFO " + flat.describe(fifo)
            + " do not fit 64-bit integers");
      }
      if (produced != consumed) {
        // every level was solved and interfaces adapt rates, so this is a bug, not bad input
        throw new IllegalStateException("flattening broke the balance of " + flat.describe(fifo) + ": "
            + produced + " != " + consumed);
      }
    }
    return flat;
  }

  // ---------------------------------------------------------------------------------------------------
  // Helpers

  private static ActorKind kindOf(Actor actor) {
    return actor.getKind() == null ? ActorKind.NORMAL : actor.getKind();
  }

  private static boolean isInterface(Actor actor) {
    ActorKind kind = kindOf(actor);
    return kind == ActorKind.SOURCE_INTERFACE || kind == ActorKind.SINK_INTERFACE;
  }

  private static boolean isData(Port port) {
    return port.getDirection() == PortDirection.INPUT || port.getDirection() == PortDirection.OUTPUT;
  }

  private static final class ActorBuilder {
    final String path;
    final ActorKind kind;
    final long repetitions;
    final SourceLocation location;
    final Actor origin;
    final boolean fromInterface;
    final List<PortBuilder> ports = new ArrayList<>();
    final Map<String, Long> configValues = new LinkedHashMap<>();
    final List<Integer> inputs = new ArrayList<>();
    final List<Integer> outputs = new ArrayList<>();
    boolean removed;

    ActorBuilder(String path, ActorKind kind, long repetitions, SourceLocation location, Actor origin,
        boolean fromInterface) {
      this.path = path;
      this.kind = kind;
      this.repetitions = repetitions;
      this.location = location;
      this.origin = origin;
      this.fromInterface = fromInterface;
    }

    PortBuilder port(String name) {
      for (PortBuilder port : ports) {
        if (port.name.equals(name)) {
          return port;
        }
      }
      throw new IllegalStateException("no port " + name + " on " + path);
    }
  }

  private static final class PortBuilder {
    final String name;
    final PortDirection direction;
    final long rate;
    final MemoryAnnotation annotation;
    final SourceLocation location;

    PortBuilder(String name, PortDirection direction, long rate, MemoryAnnotation annotation,
        SourceLocation location) {
      this.name = name;
      this.direction = direction;
      this.rate = rate;
      this.annotation = annotation;
      this.location = location;
    }
  }

  private static final class FifoBuilder {
    int source;
    String sourcePort;
    int target;
    String targetPort;
    long production;
    long consumption;
    long delay;
    PersistenceLevel persistence;
    long delaySegments = 1;
    boolean delayPersistent;
    String type;
    long tokenBits;
    SourceLocation location;
    Fifo origin;
    Map<String, Long> delayConfig = Map.of();
    int setter = -1;
    String setterPort;
    int getter = -1;
    String getterPort;
    boolean removed;
  }
}
