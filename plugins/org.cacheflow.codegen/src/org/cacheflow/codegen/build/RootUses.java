package org.cacheflow.codegen.build;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.cacheflow.model.Prototype;
import org.cacheflow.model.PrototypeParameter;
import org.cacheflow.model.Refinement;
import org.cacheflow.analysis.FlatActor;
import org.cacheflow.analysis.FlatPort;

/**
 * Which roots each vertex reads and writes: an actor firing its edges' roots, a special vertex those of the copies
 * it still makes ({@link SpecialCopies}).
 */
final class RootUses {

  /** The roots a vertex reads and writes, each in first-touch order. */
  record Uses(List<BufferId> reads, List<BufferId> writes) {

    /** The reads, then the writes (a root both read and written comes twice). */
    List<BufferId> both() {
      List<BufferId> both = new ArrayList<>(reads);
      both.addAll(writes);
      return both;
    }
  }

  private final BuildInput in;
  private final Roots roots;
  private final List<List<Move>> moves;

  RootUses(BuildInput in, Roots roots, List<List<Move>> moves) {
    this.in = in;
    this.roots = roots;
    this.moves = moves;
  }

  /** The copies and zero-fills of a vertex ({@link SpecialCopies}). */
  List<Move> moves(int vertex) {
    return moves.get(vertex);
  }

  Uses of(int vertex) {
    Set<BufferId> reads = new LinkedHashSet<>();
    Set<BufferId> writes = new LinkedHashSet<>();
    if (in.isSpecial(vertex)) {
      for (Move move : moves.get(vertex)) {
        if (!move.fillsZeros()) {
          reads.add(roots.root(move.source()));
        }
        writes.add(roots.root(move.destination()));
      }
    } else {
      for (int e : in.inputs(vertex)) {
        reads.add(roots.root(e));
      }
      for (int e : in.outputs(vertex)) {
        writes.add(roots.root(e));
      }
    }
    return new Uses(List.copyOf(reads), List.copyOf(writes));
  }

  /** Roots that init prototypes get as arguments: they are used before the loop. */
  Set<BufferId> ofInitCalls() {
    Set<BufferId> result = new HashSet<>();
    if (in.synthetic) {
      return result;
    }
    for (int v = 0; v < in.srdag.vertexCount(); v++) {
      if (in.isSpecial(v)) {
        continue;
      }
      FlatActor actor = in.graph.actor(in.srdag.vertexActor(v));
      Refinement refinement = actor.origin().getRefinement();
      Prototype prototype = refinement == null ? null : refinement.getInitPrototype();
      if (prototype == null) {
        continue;
      }
      for (PrototypeParameter parameter : prototype.getParameters()) {
        FlatPort port = parameter.isConfig() ? null : actor.port(parameter.getName());
        int e = port == null ? -1 : in.consumerPortEdge(v, port.name(), port.isInput());
        if (e >= 0) {
          result.add(roots.root(e));
        }
      }
    }
    return result;
  }
}
