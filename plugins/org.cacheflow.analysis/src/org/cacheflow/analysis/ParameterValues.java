package org.cacheflow.analysis;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.cacheflow.model.Actor;
import org.cacheflow.model.Delay;
import org.cacheflow.model.Dependency;
import org.cacheflow.model.Graph;
import org.cacheflow.model.Parameter;
import org.cacheflow.model.Port;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.model.expression.Expression;
import org.cacheflow.model.expression.ParameterResolver;

/**
 * Parameter and rate evaluation for {@link Flattener}: each level's parameter values with the overrides that apply
 * to it (and a warning for an override no level has), port rates in their actor's config values, delay sizes, and
 * the values a delay's init refinement is given.
 */
final class ParameterValues {

  private final Map<String, String> overrides;
  private final Set<String> usedOverrides = new HashSet<>();
  private final Diagnostics warnings;

  ParameterValues(Map<String, String> overrides, Diagnostics warnings) {
    this.overrides = overrides == null ? Map.of() : overrides;
    this.warnings = warnings;
  }

  /** The parameter values of one level, given its config input values and the overrides naming it. */
  Map<String, Long> resolve(Graph graph, String graphPath, Map<String, Long> configInputs) {
    return ParameterResolver.resolve(graph, configInputs, levelOverrides(graph, graphPath));
  }

  /** Warns of each override that matched no parameter of any level resolved so far. */
  void warnUnused(Graph top) {
    for (String key : overrides.keySet()) {
      if (!usedOverrides.contains(key)) {
        warnings.warn(Locations.of(top), "parameter value given for '" + key + "', which no graph level has");
      }
    }
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

  long evaluateRate(Port port, Actor actor, String graphPath, Map<String, Long> environment,
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

  static long delayTokens(Delay delay, String fifoName, Map<String, Long> parameters) {
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

  /** The values reaching the config input ports of a delay's own actor (what its init refinement is given). */
  static Map<String, Long> delayConfig(Delay delay, Graph graph, Map<String, Long> parameters) {
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
}
