package org.cacheflow.io.scenario;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

import org.cacheflow.model.Actor;
import org.cacheflow.model.DataType;
import org.cacheflow.model.Fifo;
import org.cacheflow.model.Graph;
import org.cacheflow.model.Located;
import org.cacheflow.model.Port;
import org.cacheflow.model.Scenario;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * Sets every FIFO's {@code tokenBits} — in the graph and in the sub-graphs refining its hierarchical
 * actors — from its data type. In order of preference:
 * <ol>
 * <li>the scenario's {@code <dataType>} of that name (exactly as written, else after dropping qualifiers
 * and extra spaces), converted from bytes when the scenario's sizes are not in bits;</li>
 * <li>the LP64 size of a standard C type ({@link CTypeSizes}) — with a warning, once per type, when a
 * scenario was given but does not list the type;</li>
 * <li>for a FIFO without a type, the size its reader already set (SDF3 channels carry sizes, not types);</li>
 * <li>otherwise a guess of {@value #GUESSED_BITS} bits (one byte), with a warning naming the FIFO and
 * its type.</li>
 * </ol>
 */
public final class TokenSizeResolver {

  /** Bits assumed for a type whose size nothing gives: the smallest addressable C object. */
  public static final long GUESSED_BITS = 8;

  private final Scenario scenario;
  private final Diagnostics diagnostics;
  private final Map<String, Long> scenarioBits = new LinkedHashMap<>();
  private final Set<String> typesReportedMissing = new LinkedHashSet<>();

  private TokenSizeResolver(Scenario scenario, Diagnostics diagnostics) {
    this.scenario = scenario;
    this.diagnostics = diagnostics;
    if (scenario != null) {
      long factor = scenario.isSizesAreInBit() ? 1 : 8;
      for (DataType type : scenario.getDataTypes()) {
        scenarioBits.put(type.getName(), type.getSize() * factor);
      }
    }
  }

  /** Resolves the token sizes of {@code graph}'s FIFOs; {@code scenario} may be null. */
  public static void resolve(Graph graph, Scenario scenario, Diagnostics diagnostics) {
    new TokenSizeResolver(scenario, diagnostics).resolveGraph(graph);
  }

  private void resolveGraph(Graph graph) {
    for (Fifo fifo : graph.getFifos()) {
      fifo.setTokenBits(tokenBits(fifo));
    }
    for (Actor actor : graph.getActors()) {
      if (actor.getRefinement() != null && actor.getRefinement().getSubgraph() != null) {
        resolveGraph(actor.getRefinement().getSubgraph());
      }
    }
  }

  private long tokenBits(Fifo fifo) {
    String type = fifo.getType();
    if (type == null || type.isBlank()) {
      if (fifo.getTokenBits() > 0) {
        return fifo.getTokenBits();
      }
      diagnostics.warn(location(fifo), "FIFO " + describe(fifo) + " has no data type; assuming "
          + GUESSED_BITS + " bits per token");
      return GUESSED_BITS;
    }
    Long fromScenario = scenarioBits.get(type);
    if (fromScenario == null) {
      fromScenario = scenarioBits.get(CTypeSizes.normalize(type));
    }
    if (fromScenario != null) {
      return fromScenario;
    }
    OptionalLong standard = CTypeSizes.bits(type);
    if (standard.isPresent()) {
      if (scenario != null && typesReportedMissing.add(CTypeSizes.normalize(type))) {
        diagnostics.warn(location(scenario), "data type '" + type.trim() + "' is not among the scenario's data"
            + " types; using its LP64 size of " + standard.getAsLong() + " bits");
      }
      return standard.getAsLong();
    }
    String where = scenario == null ? "no scenario gives its size" : "the scenario does not list it";
    diagnostics.warn(location(fifo), "FIFO " + describe(fifo) + " has data type '" + type.trim()
        + "', whose size is unknown (" + where + " and it is not a standard C type); assuming "
        + GUESSED_BITS + " bits per token");
    return GUESSED_BITS;
  }

  /** A FIFO as users recognize it: {@code actor.port -> actor.port}. */
  public static String describe(Fifo fifo) {
    return endpoint(fifo.getSource()) + " -> " + endpoint(fifo.getTarget());
  }

  private static String endpoint(Port port) {
    if (port == null) {
      return "?";
    }
    String actor = port.getActor() == null ? "?" : port.getActor().getName();
    return actor + "." + port.getName();
  }

  private static SourceLocation location(Located element) {
    return element.getFile() == null ? null
        : new SourceLocation(element.getFile(), element.getLine(), element.getColumn());
  }
}
