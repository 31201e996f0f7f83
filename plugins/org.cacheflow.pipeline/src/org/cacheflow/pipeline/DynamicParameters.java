package org.cacheflow.pipeline;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.cacheflow.model.Actor;
import org.cacheflow.model.Dependency;
import org.cacheflow.model.Graph;
import org.cacheflow.model.Located;
import org.cacheflow.model.Parameter;
import org.cacheflow.model.ParameterKind;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * The dynamic parameters of a graph (PiSDF parameters a configuration actor sets at run time through a
 * {@code cfg_output} port) and the variants to plan: one per combination of their planned values.
 *
 * <p>A dynamic parameter's planned values come from its override text (the scenario's value set
 * {@code value="[1, 2]"}, or {@code --param NAME=1,2}, which wins), values separated by commas outside parentheses;
 * its own expression in the graph is never used for it, since a configuration actor replaces it. A dynamic parameter
 * without planned values is an error at its line naming the actor that sets it; so are a list of values for a
 * parameter that is not dynamic, and more than {@link #MAX_VARIANTS} combinations.
 */
public final class DynamicParameters {

  /** The most variants one graph is planned for. */
  public static final int MAX_VARIANTS = 64;

  /**
   * A dynamic parameter.
   *
   * @param key its override key, {@code graphPath/name} ({@code top/name} in the top graph)
   * @param parameter the parameter
   * @param setter the configuration actor whose config output port sets it, with that port ({@code Cfg.branch})
   */
  public record Dynamic(String key, Parameter parameter, String setter) {

    public String name() {
      return parameter.getName();
    }
  }

  /**
   * One combination of the dynamic parameters' values.
   *
   * @param values each dynamic parameter's value text, by name, in the graph's order
   * @param overrides the parameter overrides that plan it (the input's, each dynamic parameter's set replaced by
   *     its one value)
   */
  public record Variant(Map<String, String> values, Map<String, String> overrides) {

    public Variant {
      values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
      overrides = Collections.unmodifiableMap(new LinkedHashMap<>(overrides));
    }

    /** {@code branch=0, width=16}. */
    public String label() {
      List<String> parts = new ArrayList<>();
      values.forEach((name, value) -> parts.add(name + "=" + value));
      return String.join(", ", parts);
    }
  }

  private DynamicParameters() {
  }

  /** The dynamic parameters of the graph and of its sub-graphs, outermost first. */
  public static List<Dynamic> of(Graph top) {
    List<Dynamic> found = new ArrayList<>();
    String topName = top.getName() == null || top.getName().isBlank() ? "top" : top.getName();
    collect(top, topName, found, new LinkedHashSet<>());
    return found;
  }

  private static void collect(Graph graph, String graphPath, List<Dynamic> found, Set<Graph> visiting) {
    if (!visiting.add(graph)) {
      return;
    }
    for (Parameter parameter : graph.getParameters()) {
      if (parameter.getKind() == ParameterKind.DYNAMIC) {
        found.add(new Dynamic(graphPath + "/" + parameter.getName(), parameter, setter(graph, parameter)));
      }
    }
    for (Actor actor : graph.getActors()) {
      if (actor.getRefinement() != null && actor.getRefinement().getSubgraph() != null) {
        collect(actor.getRefinement().getSubgraph(), graphPath + "/" + actor.getName(), found, visiting);
      }
    }
    visiting.remove(graph);
  }

  private static String setter(Graph graph, Parameter parameter) {
    for (Dependency dependency : graph.getDependencies()) {
      if (dependency.getTargetParameter() == parameter && dependency.getSourcePort() != null) {
        Actor actor = dependency.getSourcePort().getActor();
        return (actor == null ? "?" : actor.getName()) + "." + dependency.getSourcePort().getName();
      }
    }
    return "?";
  }

  /**
   * The variants to plan: one per combination of the dynamic parameters' values, the first parameter's values
   * varying slowest; a single variant, the input's own overrides, for a graph without dynamic parameters.
   *
   * @throws InputException at a dynamic parameter without planned values, at the graph for too many combinations
   * @throws OptionException for several values given to a parameter that is not dynamic
   */
  public static List<Variant> variants(Graph top, Map<String, String> overrides) {
    return variants(top, overrides, true);
  }

  /** The dynamic parameters given no value: the graph's default expression would stand for what the actor sets. */
  public static List<Dynamic> unset(Graph top, Map<String, String> overrides) {
    return of(top).stream().filter(dynamic -> key(dynamic, overrides) == null).toList();
  }

  private static String key(Dynamic dynamic, Map<String, String> overrides) {
    return overrides.containsKey(dynamic.key()) ? dynamic.key()
        : overrides.containsKey(dynamic.name()) ? dynamic.name() : null;
  }

  /**
   * As {@link #variants(Graph, Map)}; without {@code required}, a dynamic parameter given no value keeps its
   * expression (for a look at the graph, not a program).
   */
  static List<Variant> variants(Graph top, Map<String, String> overrides, boolean required) {
    List<Dynamic> dynamics = of(top);
    Map<String, List<String>> sets = new LinkedHashMap<>();
    Set<String> dynamicKeys = new LinkedHashSet<>();
    for (Dynamic dynamic : dynamics) {
      String key = key(dynamic, overrides);
      if (key == null && !required) {
        continue;
      }
      if (key == null) {
        throw new InputException(location(dynamic.parameter()), "dynamic parameter '" + dynamic.name()
            + "' is set at run time by configuration actor " + dynamic.setter() + ": give the values it may take,"
            + " each is planned (--param " + dynamic.name() + "=V1,V2,... or a value set in the scenario, value=\"[V1,"
            + " V2]\"); one value generates a program for that value alone");
      }
      dynamicKeys.add(key);
      List<String> values = new ArrayList<>(new LinkedHashSet<>(split(overrides.get(key))));
      if (values.isEmpty()) {
        throw new OptionException("--param " + key + " has no value");
      }
      sets.put(key, values);
    }
    overrides.forEach((key, text) -> {
      if (!dynamicKeys.contains(key) && split(text).size() > 1) {
        throw new OptionException("parameter '" + key + "' is given several values (" + text + "), but no "
            + "configuration actor sets it: only a dynamic parameter takes a list of values");
      }
    });
    long count = 1;
    for (List<String> values : sets.values()) {
      count *= values.size();
    }
    if (count > MAX_VARIANTS) {
      List<String> counts = new ArrayList<>();
      sets.forEach((key, values) -> counts.add(key + " (" + values.size() + " values)"));
      throw new InputException(location(top), "too many combinations of dynamic parameter values: "
          + String.join(" x ", counts) + " = " + count + " variants to plan, at most " + MAX_VARIANTS
          + ": give fewer values with --param NAME=V1,V2,...");
    }
    List<Variant> variants = new ArrayList<>();
    combine(new ArrayList<>(sets.keySet()), sets, 0, new LinkedHashMap<>(), overrides, variants);
    return variants;
  }

  private static void combine(List<String> keys, Map<String, List<String>> sets, int at, Map<String, String> chosen,
      Map<String, String> overrides, List<Variant> into) {
    if (at == keys.size()) {
      Map<String, String> variantOverrides = new LinkedHashMap<>(overrides);
      Map<String, String> values = new LinkedHashMap<>();
      chosen.forEach((key, value) -> {
        variantOverrides.put(key, value);
        values.put(key.substring(key.lastIndexOf('/') + 1), value);
      });
      into.add(new Variant(values, variantOverrides));
      return;
    }
    String key = keys.get(at);
    for (String value : sets.get(key)) {
      chosen.put(key, value);
      combine(keys, sets, at + 1, chosen, overrides, into);
    }
    chosen.remove(key);
  }

  /** {@code 2 combinations given: branch=0; branch=1}. */
  static String given(List<Variant> variants) {
    return variants.size() + " combinations given: " + String.join("; ", variants.stream().map(Variant::label)
        .toList());
  }

  /** The values of a list {@code 1, 2, max(3,4)}: split at the commas outside parentheses, trimmed. */
  static List<String> split(String text) {
    List<String> values = new ArrayList<>();
    int depth = 0;
    int start = 0;
    String body = text.strip();
    if (body.startsWith("[") && body.endsWith("]")) {
      body = body.substring(1, body.length() - 1);
    }
    for (int i = 0; i < body.length(); i++) {
      char c = body.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == ',' && depth == 0) {
        add(values, body.substring(start, i));
        start = i + 1;
      }
    }
    add(values, body.substring(start));
    return values;
  }

  private static void add(List<String> values, String value) {
    if (!value.isBlank()) {
      values.add(value.strip());
    }
  }

  static SourceLocation location(Located element) {
    return new SourceLocation(element.getFile() == null ? "<unknown>" : element.getFile(), element.getLine(), 0);
  }
}
