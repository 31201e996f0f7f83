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
import org.cacheflow.model.MemoryAnnotation;
import org.cacheflow.model.Prototype;
import org.cacheflow.model.PrototypeDirection;
import org.cacheflow.model.PrototypeParameter;
import org.cacheflow.model.Refinement;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.analysis.FlatActor;
import org.cacheflow.analysis.FlatPort;

/**
 * The calls of actors' loop and init prototypes (checked against the actors' ports and config values), or of
 * their synthetic bodies (declared once per actor: what they read, scribble on, copy and fill). Used by
 * {@link CoreSchedules}.
 */
final class ActorCalls {

  private final BuildContext c;
  /** Per actor, its firings (made when synthetic bodies first need them). */
  private Map<Integer, List<Integer>> firingsOfActor;

  /** Where an edge's buffer is on a core ({@link CoreSchedules} decides). */
  interface EdgeAddress {
    BufferRef of(int edge, int core);
  }

  private final EdgeAddress address;

  ActorCalls(BuildContext context, EdgeAddress address) {
    this.c = context;
    this.address = address;
  }

  Statement.ActorCall call(int vertex, FlatActor actor, int core) {
    if (c.synthetic) {
      return syntheticCall(vertex, actor, core);
    }
    Refinement refinement = actor.origin().getRefinement();
    if (refinement == null || refinement.getLoopPrototype() == null) {
      throw new InputException(actor.location(), "actor '" + c.relative(actor.path())
          + "' has no loop prototype to call (a refinement header with a <loop> prototype in the .pi); "
          + "generate with --synthetic-actors to run the graph without actor code");
    }
    return realCall(vertex, actor, core, refinement.getLoopPrototype());
  }

  Statement.ActorCall realCall(int vertex, FlatActor actor, int core, Prototype prototype) {
    Refinement refinement = actor.origin().getRefinement();
    if (refinement.getHeaderPath() != null && !refinement.getHeaderPath().isBlank()) {
      String header = refinement.getHeaderPath().replace('\\', '/');
      c.headers.add(header.substring(header.lastIndexOf('/') + 1));
    }
    List<Argument> arguments = new ArrayList<>();
    for (PrototypeParameter parameter : prototype.getParameters()) {
      SourceLocation at = BuildContext.location(parameter);
      if (parameter.isConfig()) {
        Long value = actor.configValues().get(parameter.getName());
        if (value == null) {
          throw new InputException(at, "configuration parameter '" + parameter.getName() + "' of prototype '"
              + prototype.getName() + "' (actor '" + c.relative(actor.path())
              + "') has no value: the actor has no config input port of that name");
        }
        arguments.add(new Argument.Constant(parameter.getName(), parameter.getType(), value));
        continue;
      }
      FlatPort port = actor.port(parameter.getName());
      if (port == null) {
        throw new InputException(at, "parameter '" + parameter.getName() + "' of prototype '" + prototype.getName()
            + "' (actor '" + c.relative(actor.path()) + "') matches no data port of the actor");
      }
      boolean input = port.isInput();
      if (input != (parameter.getDirection() == PrototypeDirection.IN)) {
        throw new InputException(at, "parameter '" + parameter.getName() + "' of prototype '" + prototype.getName()
            + "' is " + parameter.getDirection() + " but port '" + port.name() + "' of actor '"
            + c.relative(actor.path()) + "' is an " + (input ? "input" : "output"));
      }
      int e = c.consumerPortEdge(vertex, port.name(), input);
      arguments.add(new Argument.Data(parameter.getName(), parameter.getType(), e < 0 ? null : address.of(e, core),
          e < 0 ? 0 : c.srdag.edgeBytes(e), input));
    }
    return new Statement.ActorCall(c.name(vertex), BuildContext.origin(actor), prototype.getName(),
        arguments, c.srdag.vertexFiring(vertex));
  }

  private Statement.ActorCall syntheticCall(int vertex, FlatActor actor, int core) {
    SyntheticActor declaration = c.syntheticActors.computeIfAbsent(actor.index(),
        a -> syntheticDeclaration(actor, vertex));
    List<Argument> arguments = new ArrayList<>();
    for (SyntheticActor.Parameter parameter : declaration.parameters()) {
      if (parameter.use() == SyntheticActor.Use.CONFIG) {
        arguments.add(new Argument.Constant(parameter.name(), "long", actor.configValues().get(parameter.name())));
        continue;
      }
      FlatPort port = actor.port(parameter.name());
      int e = c.consumerPortEdge(vertex, port.name(), port.isInput());
      arguments.add(new Argument.Data(parameter.name(), null, e < 0 ? null : address.of(e, core), e < 0 ? 0
          : c.srdag.edgeBytes(e), port.isInput()));
    }
    return new Statement.ActorCall(c.name(vertex), BuildContext.origin(actor),
        declaration.function(), arguments, c.srdag.vertexFiring(vertex));
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
    Map<String, List<long[]>> covered = new HashMap<>();
    for (org.cacheflow.plan.classify.ScriptCopy copy : c.plan.scriptCopies(vertex)) {
      SyntheticActor.Parameter output = parameters.stream().filter(p -> p.name().equals(copy.outputPort())
          && p.use() == SyntheticActor.Use.WRITE).findFirst().orElse(null);
      boolean input = parameters.stream().anyMatch(p -> p.name().equals(copy.inputPort())
          && p.use() != SyntheticActor.Use.WRITE && p.use() != SyntheticActor.Use.CONFIG && p.bytes() > 0);
      if (output == null || !input || copy.outputByte() + copy.bytes() > output.bytes()) {
        continue;
      }
      copies.add(new SyntheticActor.Copy(copy.outputPort(), copy.outputByte(), copy.inputPort(), copy.inputByte(),
          copy.bytes()));
      covered.computeIfAbsent(copy.outputPort(), k -> new ArrayList<>()).add(new long[] {copy.outputByte(),
          copy.outputByte() + copy.bytes()});
    }
    List<SyntheticActor.Fill> fills = new ArrayList<>();
    for (int i = 0; i < parameters.size(); i++) {
      SyntheticActor.Parameter p = parameters.get(i);
      if (p.use() != SyntheticActor.Use.WRITE) {
        continue;
      }
      for (long[] gap : ByteRanges.gaps(covered.getOrDefault(p.name(), List.of()), p.bytes())) {
        fills.add(new SyntheticActor.Fill(p.name(), gap[0], gap[1] - gap[0], i));
      }
    }
    return new SyntheticActor("synth_" + CNames.identifier(c.relative(actor.path())), c.relative(actor.path()),
        actor.index() + 1, parameters, copies, fills);
  }

  /**
   * What a synthetic body does with a port. An input that the actor's own memory script placed under one of
   * its outputs (they share a merge root in some firing) is not scribbled on: the actor overwrites it with that
   * output anyway, and scribbling after the output is written would destroy it.
   */
  private SyntheticActor.Parameter dataParameter(FlatActor actor, FlatPort port, int vertex) {
    long bytes = port.fifo() < 0 || port.rate() == 0 ? 0 : c.graph.fifo(port.fifo()).bytesFor(port.rate());
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
      for (int v = 0; v < c.srdag.vertexCount(); v++) {
        if (!c.isSpecial(v)) {
          firingsOfActor.computeIfAbsent(c.srdag.vertexActor(v), a -> new ArrayList<>()).add(v);
        }
      }
    }
    for (int firing : firingsOfActor.getOrDefault(c.srdag.vertexActor(vertex), List.of())) {
      int input = c.consumerPortEdge(firing, port.name(), true);
      if (input < 0 || c.host[input] < 0 && c.groupBytes[input] == 0) {
        continue;
      }
      for (int output : c.srdag.outgoingEdges(firing)) {
        if (c.root(output) == c.root(input)) {
          return true;
        }
      }
    }
    return false;
  }
}
