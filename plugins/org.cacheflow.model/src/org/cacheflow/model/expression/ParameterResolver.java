package org.cacheflow.model.expression;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.cacheflow.model.Graph;
import org.cacheflow.model.Located;
import org.cacheflow.model.Parameter;
import org.cacheflow.model.ParameterKind;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * Gives every parameter of one graph level its value, each parameter after those its expression reads.
 *
 * <ul>
 * <li>A {@link ParameterKind#CONFIG_INPUT} parameter (PREESM {@code cfg_in_iface}) takes the value its
 * parent level gives through {@code configInputs}; a scenario override is used only when the parent gives
 * none (e.g. for the top graph).</li>
 * <li>A {@link ParameterKind#STATIC} or {@link ParameterKind#DYNAMIC} parameter takes its scenario
 * override if there is one, else its own expression. A dynamic parameter is set at run time in PREESM;
 * for a static analysis its expression (or the scenario's value) stands for it.</li>
 * </ul>
 *
 * Expressions are evaluated as {@link Expression#evaluate(Map)} does (doubles, result rounded like
 * PREESM), so a parameter read by another one has already been rounded, as in PREESM. A parameter's
 * expression is located at the parameter's file/line/column: readers set the column of a Parameter to
 * that of its expression's first character when they know it, else 0.
 */
public final class ParameterResolver {

  private final Graph graph;
  private final Map<String, Long> configInputs;
  private final Map<String, Expression> overrides;
  private final Map<String, Parameter> byName = new LinkedHashMap<>();
  private final Map<String, Long> values = new HashMap<>();
  /** Parameters being resolved, outermost first, to name a cycle when one closes. */
  private final List<String> inProgress = new ArrayList<>();

  private ParameterResolver(Graph graph, Map<String, Long> configInputs, Map<String, Expression> overrides) {
    this.graph = graph;
    this.configInputs = configInputs == null ? Map.of() : configInputs;
    this.overrides = overrides == null ? Map.of() : overrides;
  }

  /**
   * Resolves every parameter of {@code graph} (not of its sub-graphs).
   *
   * @param configInputs values of the graph's config input parameters, by name, from the parent level
   * @param overrides expression texts, by parameter name, that replace a parameter's own (a scenario's
   *     parameter values); errors in them are reported at the parameter's line
   * @return every parameter's value, by name, in the graph's declaration order
   * @throws InputException for an undefined parameter, a cyclic dependency, a config input without a
   *     value, an override naming no parameter, or an evaluation error
   */
  public static Map<String, Long> resolve(Graph graph, Map<String, Long> configInputs,
      Map<String, String> overrides) {
    Map<String, Expression> parsed = new LinkedHashMap<>();
    if (overrides != null) {
      Map<String, Parameter> parameters = parametersByName(graph);
      overrides.forEach((name, text) -> {
        Parameter parameter = parameters.get(name);
        SourceLocation where = parameter == null ? locationOf(graph, false) : locationOf(parameter, false);
        parsed.put(name, Expression.parse(text, where));
      });
    }
    return resolveParsed(graph, configInputs, parsed);
  }

  /**
   * Like {@link #resolve(Graph, Map, Map)}, with overrides already parsed, so errors in them point into
   * the file they came from (e.g. the scenario).
   */
  public static Map<String, Long> resolveParsed(Graph graph, Map<String, Long> configInputs,
      Map<String, Expression> overrides) {
    return new ParameterResolver(graph, configInputs, overrides).run();
  }

  private Map<String, Long> run() {
    byName.putAll(parametersByName(graph));
    for (Map.Entry<String, Expression> override : overrides.entrySet()) {
      if (!byName.containsKey(override.getKey())) {
        throw new InputException(override.getValue().location(), "value given for parameter '"
            + override.getKey() + "', which graph '" + graph.getName() + "' does not have");
      }
    }
    Map<String, Long> result = new LinkedHashMap<>();
    for (Parameter parameter : graph.getParameters()) {
      result.put(parameter.getName(), valueOf(parameter));
    }
    return result;
  }

  private long valueOf(Parameter parameter) {
    String name = parameter.getName();
    Long known = values.get(name);
    if (known != null) {
      return known;
    }
    int seen = inProgress.indexOf(name);
    if (seen >= 0) {
      List<String> cycle = new ArrayList<>(inProgress.subList(seen, inProgress.size()));
      cycle.add(name);
      Parameter first = byName.get(cycle.get(0));
      throw new InputException(locationOf(first, false), "cyclic parameter dependency: "
          + String.join(" -> ", cycle));
    }
    inProgress.add(name);
    long value = compute(parameter);
    inProgress.remove(inProgress.size() - 1);
    values.put(name, value);
    return value;
  }

  private long compute(Parameter parameter) {
    String name = parameter.getName();
    if (parameter.getKind() == ParameterKind.CONFIG_INPUT) {
      Long given = configInputs.get(name);
      if (given != null) {
        return given;
      }
      if (!overrides.containsKey(name)) {
        throw new InputException(locationOf(parameter, false), "config input parameter '" + name
            + "' of graph '" + graph.getName() + "' has no value from its parent graph (read the graph this one"
            + " refines an actor of, or give the parameter a value: a scenario parameter value, or --param "
            + name + "=VALUE on the command line)");
      }
    }
    Expression expression = overrides.get(name);
    if (expression == null) {
      String text = parameter.getExpression();
      if (text == null || text.isBlank()) {
        String kind = parameter.getKind() == ParameterKind.DYNAMIC ? "dynamic parameter '" : "parameter '";
        throw new InputException(locationOf(parameter, false), kind + name + "' has no value: give one in the"
            + " scenario");
      }
      expression = Expression.parse(text, locationOf(parameter, true));
    }
    Map<String, Long> inputs = new HashMap<>();
    for (String variable : expression.variables()) {
      Parameter dependency = byName.get(variable);
      if (dependency != null) {
        inputs.put(variable, valueOf(dependency));
      } else if (!Expression.isConstant(variable)) {
        throw expression.error(expression.firstUse(variable), "undefined parameter '" + variable + "' in the value '"
            + expression.text() + "' of parameter '" + name + "' (graph '" + graph.getName() + "')");
      }
    }
    return expression.evaluate(inputs);
  }

  private static Map<String, Parameter> parametersByName(Graph graph) {
    Map<String, Parameter> parameters = new LinkedHashMap<>();
    for (Parameter parameter : graph.getParameters()) {
      parameters.put(parameter.getName(), parameter);
    }
    return parameters;
  }

  /**
   * The element's location; with its column only when that column is the expression's (an override read
   * from elsewhere must not borrow the parameter's column).
   */
  private static SourceLocation locationOf(Located element, boolean withColumn) {
    String file = element.getFile() == null ? "<unknown>" : element.getFile();
    return new SourceLocation(file, element.getLine(), withColumn ? element.getColumn() : 0);
  }
}
