package org.cacheflow.codegen.build;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.cacheflow.codegen.model.Argument;
import org.cacheflow.codegen.model.BufferRef;
import org.cacheflow.codegen.model.Statement;
import org.cacheflow.codegen.model.SyntheticActor;
import org.cacheflow.model.ActorKind;
import org.cacheflow.model.Dependency;
import org.cacheflow.model.Graph;
import org.cacheflow.model.MemoryAnnotation;
import org.cacheflow.model.Prototype;
import org.cacheflow.model.PrototypeDirection;
import org.cacheflow.model.PrototypeParameter;
import org.cacheflow.model.Refinement;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.analysis.FlatActor;
import org.cacheflow.analysis.FlatFifo;
import org.cacheflow.analysis.FlatPort;

/**
 * The calls of actors' loop and init prototypes (checked against the actors' ports and config values), or of
 * their synthetic bodies (declared once per actor: what they read, scribble on, copy and fill). Used by
 * {@link CoreSchedules}.
 */
final class ActorCalls {

  private final BuildInput in;
  private final Roots roots;
  private final Addresses addresses;
  /** Refinement headers to include (file names), in first-use order. */
  private final Set<String> headers = new LinkedHashSet<>();
  /** Per actor, its synthetic body's declaration (made at its first firing). */
  private final Map<Integer, SyntheticActor> syntheticActors = new HashMap<>();
  /** Per actor, its firings (made when synthetic bodies first need them). */
  private Map<Integer, List<Integer>> firingsOfActor;

  ActorCalls(BuildInput in, Roots roots, Addresses addresses) {
    this.in = in;
    this.roots = roots;
    this.addresses = addresses;
  }

  /** The headers the calls made so far need, in first-use order. */
  List<String> headers() {
    return List.copyOf(headers);
  }

  /** The synthetic bodies the calls made so far need, by actor. */
  List<SyntheticActor> declarations() {
    List<SyntheticActor> declarations = new ArrayList<>();
    syntheticActors.keySet().stream().sorted().forEach(a -> declarations.add(syntheticActors.get(a)));
    return declarations;
  }

  Statement.ActorCall call(int vertex, FlatActor actor, int core) {
    if (in.synthetic) {
      return syntheticCall(vertex, actor, core);
    }
    Refinement refinement = actor.origin().getRefinement();
    if (refinement == null || refinement.getLoopPrototype() == null) {
      throw new InputException(actor.location(), "actor '" + in.relative(actor.path())
          + "' has no loop prototype to call (a refinement header with a <loop> prototype in the .pi); "
          + "generate with --synthetic-actors to run the graph without actor code");
    }
    return realCall(vertex, actor, core, refinement.getLoopPrototype());
  }

  Statement.ActorCall realCall(int vertex, FlatActor actor, int core, Prototype prototype) {
    include(actor.origin().getRefinement());
    List<Argument> arguments = new ArrayList<>();
    for (PrototypeParameter parameter : prototype.getParameters()) {
      SourceLocation at = BuildInput.location(parameter);
      if (parameter.isConfig() && parameter.getDirection() == PrototypeDirection.OUT) {
        arguments.add(configOutput(actor, prototype, parameter, at));
        continue;
      }
      if (parameter.isConfig()) {
        Long value = actor.configValues().get(parameter.getName());
        if (value == null) {
          throw new InputException(at, "configuration parameter '" + parameter.getName() + "' of prototype '"
              + prototype.getName() + "' (actor '" + in.relative(actor.path())
              + "') has no value: the actor has no config input port of that name");
        }
        arguments.add(new Argument.Constant(parameter.getName(), parameter.getType(), value));
        continue;
      }
      FlatPort port = actor.port(parameter.getName());
      if (port == null) {
        throw new InputException(at, "parameter '" + parameter.getName() + "' of prototype '" + prototype.getName()
            + "' (actor '" + in.relative(actor.path()) + "') matches no data port of the actor");
      }
      boolean input = port.isInput();
      if (input != (parameter.getDirection() == PrototypeDirection.IN)) {
        throw new InputException(at, "parameter '" + parameter.getName() + "' of prototype '" + prototype.getName()
            + "' is " + parameter.getDirection() + " but port '" + port.name() + "' of actor '"
            + in.relative(actor.path()) + "' is an " + (input ? "input" : "output"));
      }
      int e = in.consumerPortEdge(vertex, port.name(), input);
      arguments.add(new Argument.Data(parameter.getName(), parameter.getType(), e < 0 ? null : addresses.of(e, core),
          e < 0 ? 0 : in.srdag.edgeBytes(e), input, readOnly(port)));
    }
    return new Statement.ActorCall(in.name(vertex), BuildInput.origin(actor), prototype.getName(),
        arguments, in.srdag.vertexFiring(vertex));
  }

  /** Whether the actor only reads the port: an input annotated {@code READ_ONLY} or {@code UNUSED}. */
  private static boolean readOnly(FlatPort port) {
    return port.isInput() && (port.annotation() == MemoryAnnotation.READ_ONLY
        || port.annotation() == MemoryAnnotation.UNUSED);
  }

  /** A config output parameter of a configuration actor's prototype: where it writes its dynamic parameter. */
  private Argument configOutput(FlatActor actor, Prototype prototype, PrototypeParameter parameter, SourceLocation at) {
    Long value = actor.configOutputs().get(parameter.getName());
    if (value == null) {
      throw new InputException(at, "configuration output '" + parameter.getName() + "' of prototype '"
          + prototype.getName() + "' (actor '" + in.relative(actor.path()) + "') sets no parameter: the actor has no "
          + "config output port of that name feeding a parameter");
    }
    String set = parameter.getName();
    if (actor.origin().eContainer() instanceof Graph graph) {
      for (Dependency dependency : graph.getDependencies()) {
        if (dependency.getSourcePort() != null && dependency.getSourcePort().getActor() == actor.origin()
            && dependency.getSourcePort().getName().equals(parameter.getName())
            && dependency.getTargetParameter() != null) {
          set = dependency.getTargetParameter().getName();
        }
      }
    }
    String type = parameter.getType() == null || parameter.getType().isBlank() ? "long" : parameter.getType();
    return new Argument.ParamOut(parameter.getName(), type, set, in.relative(actor.path()), List.of(value));
  }

  private Statement.ActorCall syntheticCall(int vertex, FlatActor actor, int core) {
    SyntheticActor declaration = syntheticActors.computeIfAbsent(actor.index(),
        a -> syntheticDeclaration(actor, vertex));
    List<Argument> arguments = new ArrayList<>();
    for (SyntheticActor.Parameter parameter : declaration.parameters()) {
      if (parameter.use() == SyntheticActor.Use.CONFIG) {
        arguments.add(new Argument.Constant(parameter.name(), "long", actor.configValues().get(parameter.name())));
        continue;
      }
      FlatPort port = actor.port(parameter.name());
      int e = in.consumerPortEdge(vertex, port.name(), port.isInput());
      arguments.add(new Argument.Data(parameter.name(), null, e < 0 ? null : addresses.of(e, core), e < 0 ? 0
          : in.srdag.edgeBytes(e), port.isInput(), readOnly(port)));
    }
    return new Statement.ActorCall(in.name(vertex), BuildInput.origin(actor),
        declaration.function(), arguments, in.srdag.vertexFiring(vertex));
  }

  /** Parameters in the loop prototype's order when there is one (config values and ports), else the ports. */
  private SyntheticActor syntheticDeclaration(FlatActor actor, int vertex) {
    List<SyntheticActor.Parameter> parameters = new ArrayList<>();
    Refinement refinement = actor.origin().getRefinement();
    Prototype prototype = refinement == null ? null : refinement.getLoopPrototype();
    Set<String> seen = new LinkedHashSet<>();
    if (prototype != null) {
      for (PrototypeParameter parameter : prototype.getParameters()) {
        if (parameter.isConfig() && actor.configValues().containsKey(parameter.getName())) {
          parameters.add(new SyntheticActor.Parameter(parameter.getName(), SyntheticActor.Use.CONFIG, 0));
          seen.add(parameter.getName());
        } else if (!parameter.isConfig() && actor.port(parameter.getName()) != null) {
          parameters.add(dataParameter(actor, actor.port(parameter.getName()), vertex));
          seen.add(parameter.getName());
        }
      }
    }
    for (FlatPort port : actor.ports()) {
      if (!seen.contains(port.name())) {
        parameters.add(dataParameter(actor, port, vertex));
      }
    }
    // what the actor's memory script says its outputs repeat from its inputs: merging relies on it, so every
    // strategy must compute it (judged on the firing met first, as the script treats every firing alike)
    List<SyntheticActor.Copy> copies = new ArrayList<>();
    Map<String, List<ByteRange>> covered = new HashMap<>();
    for (org.cacheflow.plan.classify.ScriptCopy copy : in.plan.scriptCopies(vertex)) {
      SyntheticActor.Parameter output = parameters.stream().filter(p -> p.name().equals(copy.outputPort())
          && p.use() == SyntheticActor.Use.WRITE).findFirst().orElse(null);
      boolean input = parameters.stream().anyMatch(p -> p.name().equals(copy.inputPort())
          && p.use() != SyntheticActor.Use.WRITE && p.use() != SyntheticActor.Use.CONFIG && p.bytes() > 0);
      if (output == null || !input || copy.outputByte() + copy.bytes() > output.bytes()) {
        continue;
      }
      copies.add(new SyntheticActor.Copy(copy.outputPort(), copy.outputByte(), copy.inputPort(), copy.inputByte(),
          copy.bytes()));
      covered.computeIfAbsent(copy.outputPort(), k -> new ArrayList<>()).add(new ByteRange(copy.outputByte(),
          copy.outputByte() + copy.bytes()));
    }
    List<SyntheticActor.Fill> fills = new ArrayList<>();
    for (int i = 0; i < parameters.size(); i++) {
      SyntheticActor.Parameter p = parameters.get(i);
      if (p.use() != SyntheticActor.Use.WRITE) {
        continue;
      }
      for (ByteRange gap : ByteRanges.gaps(covered.getOrDefault(p.name(), List.of()), p.bytes())) {
        fills.add(new SyntheticActor.Fill(p.name(), gap.first(), gap.bytes(), i));
      }
    }
    return new SyntheticActor("synth_" + CNames.identifier(in.relative(actor.path())), in.relative(actor.path()),
        actor.index() + 1, parameters, copies, fills);
  }

  /**
   * What a synthetic body does with a port. An input that the actor's own memory script placed under one of
   * its outputs (they share a merge root in some firing) is not scribbled on: the actor overwrites it with that
   * output anyway, and scribbling after the output is written would destroy it.
   */
  private SyntheticActor.Parameter dataParameter(FlatActor actor, FlatPort port, int vertex) {
    long bytes = port.fifo() < 0 || port.rate() == 0 ? 0 : in.graph.fifo(port.fifo()).bytesFor(port.rate());
    MemoryAnnotation annotation = port.annotation() == null ? MemoryAnnotation.NONE : port.annotation();
    SyntheticActor.Use use;
    if (bytes == 0) {
      use = SyntheticActor.Use.IGNORE;
    } else if (!port.isInput()) {
      use = SyntheticActor.Use.WRITE;
    } else {
      use = switch (annotation) {
        case READ_ONLY -> SyntheticActor.Use.READ;
        case UNUSED -> SyntheticActor.Use.IGNORE;
        case WRITE_ONLY -> underAnOutput(vertex, port) ? SyntheticActor.Use.IGNORE : SyntheticActor.Use.SCRIBBLE;
        default -> underAnOutput(vertex, port) ? SyntheticActor.Use.READ : SyntheticActor.Use.READ_SCRIBBLE;
      };
    }
    return new SyntheticActor.Parameter(port.name(), use, bytes);
  }

  /**
   * Whether, in some firing of the actor, the input through {@code port} shares its merge root with one of the
   * firing's outputs (firings may differ: the first of a chain may read a delay's own buffer).
   */
  private boolean underAnOutput(int vertex, FlatPort port) {
    if (firingsOfActor == null) {
      firingsOfActor = new HashMap<>();
      for (int v = 0; v < in.srdag.vertexCount(); v++) {
        if (!in.isSpecial(v)) {
          firingsOfActor.computeIfAbsent(in.srdag.vertexActor(v), a -> new ArrayList<>()).add(v);
        }
      }
    }
    for (int firing : firingsOfActor.getOrDefault(in.srdag.vertexActor(vertex), List.of())) {
      int input = in.consumerPortEdge(firing, port.name(), true);
      if (input < 0 || !roots.isGrouped(input)) {
        continue;
      }
      for (int output : in.srdag.outgoingEdges(firing)) {
        if (roots.root(output).equals(roots.root(input))) {
          return true;
        }
      }
    }
    return false;
  }

  /** Includes the refinement's header, when it names one (by its file name). */
  private void include(Refinement refinement) {
    if (refinement.getHeaderPath() != null && !refinement.getHeaderPath().isBlank()) {
      String header = refinement.getHeaderPath().replace('\\', '/');
      headers.add(header.substring(header.lastIndexOf('/') + 1));
    }
  }

  /** The refinement of the delay an inserted init vertex starts, and the prototype it calls. */
  private record DelayInit(FlatFifo fifo, Refinement refinement, Prototype prototype) {

    String delayName(BuildInput in) {
      return "delay of " + in.label(fifo);
    }
  }

  /** Where the initial tokens of a delay go and how many bytes they are. */
  private record Tokens(BufferRef where, long bytes) {
  }

  /**
   * The call of the init refinement of the delay an inserted init vertex starts (null when it has none or
   * actors are synthetic): config parameters as constants, its one output the delay's tokens (the state
   * buffer of a persistent delay, else the vertex's only output edge).
   */
  Statement.ActorCall delayInitCall(int vertex, int core) {
    DelayInit init = delayInit(vertex);
    if (init == null) {
      return null;
    }
    Tokens tokens = delayTokens(vertex, core, init);
    include(init.refinement());
    List<Argument> arguments = new ArrayList<>();
    for (PrototypeParameter parameter : init.prototype().getParameters()) {
      arguments.add(delayInitArgument(parameter, init, tokens, arguments));
    }
    if (arguments.stream().noneMatch(argument -> argument instanceof Argument.Data)) {
      throw new InputException(BuildInput.location(init.prototype()), "init refinement '" + init.prototype().getName()
          + "' (" + init.delayName(in) + ") has no output parameter for the initial tokens");
    }
    return new Statement.ActorCall(in.name(vertex), init.delayName(in), init.prototype().getName(), arguments,
        in.srdag.vertexFiring(vertex));
  }

  /** The delay init refinement an inserted init vertex calls; null when there is none or actors are synthetic. */
  private DelayInit delayInit(int vertex) {
    if (in.synthetic || !in.srdag.isInserted(vertex) || in.srdag.vertexKind(vertex) != ActorKind.INIT) {
      return null;
    }
    FlatFifo fifo = in.graph.fifo(in.srdag.vertexFifo(vertex));
    if (fifo.origin() == null || fifo.origin().getDelay() == null || fifo.origin().getDelay().getActor() == null) {
      return null;
    }
    Refinement refinement = fifo.origin().getDelay().getActor().getRefinement();
    if (refinement == null) {
      return null;
    }
    Prototype prototype = refinement.getLoopPrototype() != null ? refinement.getLoopPrototype()
        : refinement.getInitPrototype();
    return prototype == null ? null : new DelayInit(fifo, refinement, prototype);
  }

  /** The initial tokens: a persistent delay's state, else the vertex's only output edge. */
  private Tokens delayTokens(int vertex, int core, DelayInit init) {
    BufferId state = in.stateStartedBy(vertex);
    if (state != null) {
      return new Tokens(addresses.base(state, core, false), roots.bytes(state));
    }
    int[] out = in.outputs(vertex);
    if (out.length != 1) {
      throw new InputException(BuildInput.location(init.prototype()), "init refinement '"
          + init.prototype().getName() + "' of the " + init.delayName(in) + ": its tokens go to " + out.length
          + " firings; only a delay read by one firing per start can be initialised by a refinement");
    }
    return new Tokens(addresses.of(out[0], core), in.srdag.edgeBytes(out[0]));
  }

  /**
   * A parameter of a delay's init refinement as an argument: a config value of the delay, or its one output.
   *
   * @param before the arguments of the parameters before it
   */
  private Argument delayInitArgument(PrototypeParameter parameter, DelayInit init, Tokens tokens,
      List<Argument> before) {
    SourceLocation at = BuildInput.location(parameter);
    String refinement = "init refinement '" + init.prototype().getName() + "' (" + init.delayName(in) + ")";
    if (parameter.isConfig()) {
      Long value = init.fifo().delayConfig().get(parameter.getName());
      if (value == null) {
        throw new InputException(at, "configuration parameter '" + parameter.getName() + "' of " + refinement
            + " has no value: the delay has no config input port of that name");
      }
      return new Argument.Constant(parameter.getName(), parameter.getType(), value);
    }
    if (parameter.getDirection() != PrototypeDirection.OUT
        || before.stream().anyMatch(argument -> argument instanceof Argument.Data)) {
      throw new InputException(at, "parameter '" + parameter.getName() + "' of " + refinement + ": a delay's init"
          + " refinement takes config parameters and exactly one output, the initial tokens");
    }
    return new Argument.Data(parameter.getName(), parameter.getType(), tokens.where(), tokens.bytes(), false);
  }
}
