package org.cacheflow.analysis;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.cacheflow.analysis.FlatGraphBuilder.ActorBuilder;
import org.cacheflow.analysis.FlatGraphBuilder.FifoBuilder;
import org.cacheflow.analysis.FlatGraphBuilder.PortBuilder;
import org.cacheflow.model.Actor;
import org.cacheflow.model.ActorKind;
import org.cacheflow.model.Delay;
import org.cacheflow.model.Dependency;
import org.cacheflow.model.Fifo;
import org.cacheflow.model.Graph;
import org.cacheflow.model.MemoryAnnotation;
import org.cacheflow.model.PersistenceLevel;
import org.cacheflow.model.Port;
import org.cacheflow.model.PortDirection;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
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
 * per firing (outer rate at most the delay's size for the setter, as a broadcast repeats tokens). A delay may have just
 * a setter (its final tokens are dropped) or just a getter (its initial tokens
 * come from the init refinement or are zeros at every run); PREESM accepts that asymmetry only at the top.
 * A delay actor with FIFOs that belongs to no delayed FIFO is left out with a warning, as are
 * CONFIG_OUTPUT_INTERFACE actors, which carry no data.
 *
 * <h2>Parts</h2> This class walks the hierarchy level by level (nodes, FIFOs, interface actors, delayed FIFOs);
 * {@link ParameterValues} evaluates parameters, rates and delay sizes, {@link DelayEnds} recognises and checks
 * delay setters and getters, {@link LevelRepetitions} solves a level's repetition vector and
 * {@link FlatGraphBuilder} collects the flat actors and FIFOs and builds the {@link FlatGraph}.
 */
public final class Flattener {

  private final ParameterValues parameterValues;
  private final Diagnostics warnings;
  private final ProgressListener progress;
  private final FlatGraphBuilder flat;

  private Flattener(Map<String, String> overrides, Diagnostics warnings, ProgressListener progress) {
    this.warnings = warnings == null ? new Diagnostics() : warnings;
    this.progress = progress == null ? ProgressListener.NONE : progress;
    this.parameterValues = new ParameterValues(overrides, this.warnings);
    this.flat = new FlatGraphBuilder(this.warnings);
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
    parameterValues.warnUnused(top);
    flat.removeIdentityInterfaces();
    FlatGraph result = flat.build(topName, Locations.of(top));
    progress.done();
    return result;
  }

  // ---------------------------------------------------------------------------------------------------
  // One hierarchy level

  /** Where a FIFO of the parent level attaches to what replaced a hierarchical actor's port. */
  private record Endpoint(int actor, String port, long rate) {
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
    Level level = new Level(graph, graphPath, firings, parentFirings, interfaceRates,
        parameterValues.resolve(graph, graphPath, configInputs));
    level.readDependencies();
    level.classifyActors();
    level.evaluateRates();
    level.collectFifos();
    level.solveRepetitions();
    Map<String, Endpoint> result = level.addActors();
    level.addFifos();
    progress.worked(1);
    return result;
  }

  /** One hierarchy level being flattened: what each step below finds, for the steps after it. */
  private final class Level {
    final Graph graph;
    final String graphPath;
    final long firings;
    final long parentFirings;
    /** For a sub-graph, the rate of each data port of the hierarchical actor; null at the top. */
    final Map<String, Long> interfaceRates;
    final boolean isTop;
    /** The level's parameter values, by name. */
    final Map<String, Long> parameters;

    /** The value each config input port receives through a dependency. */
    final Map<Port, Long> dependencyValues = new IdentityHashMap<>();
    /** Nodes of the balance equations: every actor except interfaces and delay actors. */
    final List<Actor> nodes = new ArrayList<>();
    final Map<Actor, Integer> nodeIndex = new IdentityHashMap<>();
    final Map<String, Actor> interfaces = new LinkedHashMap<>();
    /** Rates of every data port of the nodes, and each node's config input values. */
    final Map<Port, Long> rates = new IdentityHashMap<>();
    final Map<Actor, Map<String, Long>> configValues = new IdentityHashMap<>();
    /** The FIFOs of this level; the delay ends among them; the FIFO of each interface. */
    final List<LevelFifo> levelFifos = new ArrayList<>();
    final Map<Fifo, DelayEnds> delayEnds = new IdentityHashMap<>();
    final Set<LevelFifo> delayEndFifos = Collections.newSetFromMap(new IdentityHashMap<>());
    final Map<Actor, LevelFifo> interfaceFifo = new IdentityHashMap<>();
    long[] levelRepetitions;
    long[] flatRepetitions;
    /** Each flat actor's index; what each hierarchical actor's interfaces became. */
    final Map<Actor, Integer> flatIndex = new IdentityHashMap<>();
    final Map<Actor, Map<String, Endpoint>> hierarchicalEndpoints = new IdentityHashMap<>();

    Level(Graph graph, String graphPath, long firings, long parentFirings, Map<String, Long> interfaceRates,
        Map<String, Long> parameters) {
      this.graph = graph;
      this.graphPath = graphPath;
      this.firings = firings;
      this.parentFirings = parentFirings;
      this.interfaceRates = interfaceRates;
      this.isTop = interfaceRates == null;
      this.parameters = parameters;
    }

    void readDependencies() {
      for (Dependency dependency : graph.getDependencies()) {
        if (dependency.getTargetPort() != null && dependency.getSource() != null) {
          Long value = parameters.get(dependency.getSource().getName());
          if (value != null) {
            dependencyValues.put(dependency.getTargetPort(), value);
          }
        }
      }
    }

    void classifyActors() {
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
    }

    void evaluateRates() {
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
            rates.put(port, parameterValues.evaluateRate(port, actor, graphPath, environment, parameters));
          }
        }
      }
    }

    void collectFifos() {
      // the delayed FIFO of each delay actor, to recognise setter and getter FIFOs
      Map<Actor, Fifo> delayedFifoOf = new IdentityHashMap<>();
      for (Fifo fifo : graph.getFifos()) {
        if (fifo.getDelay() != null && fifo.getDelay().getActor() != null) {
          delayedFifoOf.put(fifo.getDelay().getActor(), fifo);
        }
      }
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
          LevelFifo end = DelayEnds.delayEndFifo(fifo, source, target, graphPath, parameters, rates,
              interfaceRates, delayedFifoOf, delayEnds, nodes, nodeIndex, warnings);
          if (end != null) {
            levelFifos.add(end);
            delayEndFifos.add(end);
            attachInterface(kindOf(target) == ActorKind.DELAY ? source : target, end);
          }
          continue;
        }
        long production = isInterface(source) ? LevelFifo.interfaceRate(source, graphPath, interfaceRates)
            : LevelFifo.rateOf(rates, sourcePort, source, graphPath);
        long consumption = isInterface(target) ? LevelFifo.interfaceRate(target, graphPath, interfaceRates)
            : LevelFifo.rateOf(rates, targetPort, target, graphPath);
        LevelFifo levelFifo = new LevelFifo(fifo, source, target, production, consumption);
        levelFifos.add(levelFifo);
        attachInterface(source, levelFifo);
        attachInterface(target, levelFifo);
      }
    }

    /** Records {@code levelFifo} as the FIFO of {@code end} when it is an interface (one FIFO each). */
    private void attachInterface(Actor end, LevelFifo levelFifo) {
      if (isInterface(end) && interfaceFifo.put(end, levelFifo) != null) {
        throw new InputException(Locations.of(end), "interface '" + end.getName() + "' of graph '"
            + graphPath + "' is connected to more than one FIFO");
      }
    }

    void solveRepetitions() {
      levelRepetitions = LevelRepetitions.solve(graph, graphPath, nodes, nodeIndex, levelFifos, interfaceFifo,
          interfaces, isTop, warnings);
      for (DelayEnds ends : delayEnds.values()) {
        DelayEnds.checkDelayEnds(ends, graphPath, levelRepetitions, nodeIndex);
      }
      flatRepetitions = new long[nodes.size()];
      for (int n = 0; n < nodes.size(); n++) {
        try {
          flatRepetitions[n] = Math.multiplyExact(levelRepetitions[n], firings);
        } catch (ArithmeticException overflow) {
          throw new InputException(Locations.of(nodes.get(n)), "actor '" + graphPath + "/"
              + nodes.get(n).getName() + "' would fire more than 2^63 times per iteration ("
              + levelRepetitions[n] + " x " + firings + ")");
        }
      }
    }

    /**
     * The flat actors, in declaration order; hierarchical ones are replaced by their sub-graph (flattened here).
     *
     * @return what each interface became, by interface name
     */
    Map<String, Endpoint> addActors() {
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
          flatIndex.put(actor, flat.actors.size() - 1);
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
          configOutputs(actor, builder.configOutputs);
          for (Port port : actor.getPorts()) {
            if (isData(port)) {
              builder.ports.add(new PortBuilder(port.getName(), port.getDirection(), rates.get(port),
                  port.getAnnotation(), Locations.of(port)));
            }
          }
          flatIndex.put(actor, flat.actors.size());
          flat.actors.add(builder);
        }
      }
      return result;
    }

    /** The value of the dynamic parameter each config output port of {@code actor} sets, by port name. */
    private void configOutputs(Actor actor, Map<String, Long> into) {
      for (Dependency dependency : graph.getDependencies()) {
        Port port = dependency.getSourcePort();
        if (port != null && port.getActor() == actor && dependency.getTargetParameter() != null) {
          Long value = parameters.get(dependency.getTargetParameter().getName());
          if (value != null) {
            into.put(port.getName(), value);
          }
        }
      }
    }

    /** The level's FIFOs between the flat actors (a delay's setter and getter ends with their FIFO). */
    void addFifos() {
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
    }
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
    flat.actors.add(builder);
    return new Endpoint(flat.actors.size() - 1, iface.getName(), outerRate);
  }

  private Endpoint endpoint(Actor actor, Port port, boolean isSource, Map<Actor, Integer> flatIndex,
      Map<Actor, Map<String, Endpoint>> hierarchicalEndpoints, String graphPath) {
    if (isInterface(actor)) {
      int index = flatIndex.get(actor);
      PortBuilder inner = flat.actors.get(index).port("if_" + actor.getName());
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
    return new Endpoint(index, port.getName(), flat.actors.get(index).port(port.getName()).rate);
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
      String fifoName = flat.actors.get(from.actor()).path + "." + from.port() + " -> "
          + flat.actors.get(to.actor()).path + "." + to.port();
      long tokens = ends != null ? ends.tokens : ParameterValues.delayTokens(delay, "FIFO " + fifoName, parameters);
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
        DelayEnds.checkSetterTokens(ends.setter.fifo(), fifo, fifoName);
      }
      if (ends != null && ends.getter != null) {
        DelayEnds.checkSetterTokens(ends.getter.fifo(), fifo, fifoName);
      }
      builder.delay = tokens;
      builder.persistence = persistence;
      builder.delayConfig = ParameterValues.delayConfig(delay, graph, parameters);
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
    flat.add(builder);
  }

  // ---------------------------------------------------------------------------------------------------
  // Helpers (also for the level's parts: parameters, delays, repetitions, the flat graph)

  static ActorKind kindOf(Actor actor) {
    return actor.getKind() == null ? ActorKind.NORMAL : actor.getKind();
  }

  static boolean isInterface(Actor actor) {
    ActorKind kind = kindOf(actor);
    return kind == ActorKind.SOURCE_INTERFACE || kind == ActorKind.SINK_INTERFACE;
  }

  static boolean isData(Port port) {
    return port.getDirection() == PortDirection.INPUT || port.getDirection() == PortDirection.OUTPUT;
  }
}
