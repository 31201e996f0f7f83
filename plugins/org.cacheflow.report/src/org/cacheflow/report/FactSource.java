package org.cacheflow.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A fact a plan was made from and where it came from: an annotation declared in the graph or measured by a profile, a
 * timing from the scenario or from a profile. {@code plan --report} lists them when a profile was given.
 *
 * @param subject the actor's path, or {@code actor.port}
 * @param value the annotation or time used
 * @param source {@code declared}, {@code measured}, {@code measured (declared X contradicted)}
 */
public record FactSource(String subject, String value, String source) {

  /** The section of {@code plan.md}. */
  static String markdown(List<FactSource> facts) {
    StringBuilder md = new StringBuilder("\n## Facts and their sources\n\nThe annotations and timings the plan was "
        + "made from: declared in the graph or scenario, or measured by the profile given (`--profile`).\n\n"
        + "| actor or port | value | source |\n|---|---|---|\n");
    for (FactSource fact : facts) {
      md.append("| ").append(fact.subject()).append(" | ").append(fact.value()).append(" | ").append(fact.source())
          .append(" |\n");
    }
    return md.toString();
  }

  /** The {@code facts} array of {@code plan.json}. */
  static List<Map<String, Object>> json(List<FactSource> facts) {
    List<Map<String, Object>> list = new ArrayList<>();
    for (FactSource fact : facts) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("subject", fact.subject());
      entry.put("value", fact.value());
      entry.put("source", fact.source());
      list.add(entry);
    }
    return list;
  }
}
