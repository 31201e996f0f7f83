package org.cacheflow.workflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.cacheflow.plan.mapping.MappingPolicy;
import org.cacheflow.plan.schedule.RunSchedule;
import org.cacheflow.plan.strategy.StrategyPreset;
import org.cacheflow.plan.strategy.TargetCache;
import org.cacheflow.workflow.descriptor.AllowedValue;
import org.cacheflow.workflow.descriptor.TaskParameter;
import org.cacheflow.workflow.descriptor.ValueKind;
import org.junit.jupiter.api.Test;

/** The task descriptor is complete and agrees with what the task does with each value. */
class CodegenTaskTest {

  @Test
  void declaresItsParametersInEditorOrder() {
    // the generation's parameters, with Nodes beside Cores, the mapping policy and the run-time schedule after them,
    // then the actors' code
    assertEquals(List.of("Memory strategy", "Cores", "Nodes", "Mapping policy", "Schedule", "Variable actors",
        "Cost spread", "Profile", "Target", "Overrides", "Synthetic actors", "Output directory", "Actor sources",
        "Include directories", "Compile definitions", "Libraries"),
        CodegenTask.DESCRIPTOR.parameters().stream().map(TaskParameter::name).toList());
    assertEquals("org.cacheflow.workflow.codegen", CodegenTask.DESCRIPTOR.pluginId());
  }

  @Test
  void everyMemoryStrategyValueSelectsADistinctPlanStrategyAndAllAreReachable() {
    TaskParameter parameter = CodegenTask.DESCRIPTOR.parameter(CodegenTask.MEMORY_STRATEGY).orElseThrow();
    Set<StrategyPreset> reached = EnumSet.noneOf(StrategyPreset.class);
    for (AllowedValue value : parameter.values()) {
      StrategyPreset strategy = CodegenTask.strategy(value.name()).orElseThrow();
      assertTrue(reached.add(strategy), value.name() + " selects " + strategy + " twice");
      assertTrue(parameter.problem(value.name()).isEmpty(), value.name());
      assertTrue(parameter.problem(value.name().toUpperCase()).isEmpty(), "case-insensitive: " + value.name());
    }
    assertEquals(EnumSet.copyOf(StrategyPreset.plannerModes()), reached);
    assertEquals("Auto", parameter.defaultValue());
    assertEquals(StrategyPreset.AUTO, CodegenTask.strategy(parameter.defaultValue()).orElseThrow());
  }

  /** The mapping policies by their command-line labels, case-insensitive, load by default. */
  @Test
  void mappingPolicyValuesAreThePlannersPolicies() {
    TaskParameter parameter = CodegenTask.DESCRIPTOR.parameter(CodegenTask.MAPPING_POLICY).orElseThrow();
    assertEquals(ValueKind.CHOICE, parameter.kind());
    assertEquals(List.of("load", "locality"), parameter.values().stream().map(AllowedValue::name).toList());
    for (MappingPolicy policy : MappingPolicy.values()) {
      assertEquals(policy, MappingPolicy.parse(policy.label).orElseThrow());
      assertEquals(policy, MappingPolicy.parse(" " + policy.label.toUpperCase() + " ").orElseThrow());
      assertTrue(parameter.problem(policy.label.toUpperCase()).isEmpty(), policy.label);
    }
    assertEquals(MappingPolicy.LOAD_BALANCE, MappingPolicy.parse(parameter.defaultValue()).orElseThrow());
    assertTrue(MappingPolicy.parse("nearest").isEmpty());
    assertEquals("'nearest' is not a value of 'Mapping policy'; expected load or locality",
        parameter.problem("nearest").orElseThrow());
    assertEquals("load, locality", MappingPolicy.labels());
  }

  /** The schedule's values are the run-time schedules; cost spreads are checked entry by entry. */
  @Test
  void scheduleValuesAreTheRunSchedulesAndSpreadsAreChecked() {
    TaskParameter parameter = CodegenTask.DESCRIPTOR.parameter(CodegenTask.SCHEDULE).orElseThrow();
    assertEquals(ValueKind.CHOICE, parameter.kind());
    assertEquals(List.of("static", "dynamic", "hybrid"), parameter.values().stream().map(AllowedValue::name)
        .toList());
    for (RunSchedule.Kind kind : RunSchedule.Kind.values()) {
      assertEquals(kind, RunSchedule.Kind.parse(" " + kind.label().toUpperCase() + " ").orElseThrow());
      assertTrue(parameter.problem(kind.label()).isEmpty(), kind.label());
    }
    assertEquals(RunSchedule.Kind.STATIC, RunSchedule.Kind.parse(parameter.defaultValue()).orElseThrow());
    TaskParameter spread = CodegenTask.DESCRIPTOR.parameter(CodegenTask.COST_SPREAD).orElseThrow();
    assertTrue(spread.problem("Tile=0.8; Sink = 0").isEmpty());
    assertEquals(Map.of("Tile", 0.8, "Sink", 0.0), CodegenTask.spreads("Tile=0.8; Sink = 0"));
    for (String bad : List.of("Tile", "Tile=", "=0.5", "Tile=-0.1", "Tile=NaN", "Tile=high")) {
      assertTrue(spread.problem("Sink=0.1; " + bad).orElseThrow().startsWith("'Cost spread': cost spread '" + bad
          + "' is not ACTOR=CV"), bad);
    }
  }

  @Test
  void unknownStrategyListsTheValuesAndTranslatesCommandLineNames() {
    TaskParameter parameter = CodegenTask.DESCRIPTOR.parameter(CodegenTask.MEMORY_STRATEGY).orElseThrow();
    assertEquals("'Fastest' is not a value of 'Memory strategy'; expected Baseline, Preesm, CopyOnWrite, "
        + "NonTemporal, PreStore, HomeForward or Auto", parameter.problem("Fastest").orElseThrow());
    assertTrue(parameter.problem("cow").orElseThrow().endsWith("('cow' on the command line is 'CopyOnWrite' here)"),
        parameter.problem("cow").orElseThrow());
  }

  @Test
  void defaultsPassTheirOwnChecksAndChoicesDefaultToAListedValue() {
    for (TaskParameter parameter : CodegenTask.DESCRIPTOR.parameters()) {
      assertTrue(parameter.problem(parameter.defaultValue()).isEmpty(), parameter.name());
      assertFalse(parameter.description().isBlank(), parameter.name());
      assertFalse(parameter.defaultMeaning().isBlank(), parameter.name());
      if (parameter.kind() == ValueKind.CHOICE || parameter.kind() == ValueKind.BOOLEAN) {
        assertTrue(parameter.value(parameter.defaultValue()).isPresent(), parameter.name());
        for (AllowedValue value : parameter.values()) {
          assertFalse(value.effect().isBlank(), parameter.name() + "=" + value.name());
        }
      } else if (parameter.kind() != ValueKind.NAME_OR_FILE) {
        assertFalse(parameter.syntax().isBlank(), parameter.name() + " needs a syntax");
      }
    }
  }

  @Test
  void targetValuesAreTheBuiltInProfiles() {
    TaskParameter target = CodegenTask.DESCRIPTOR.parameter(CodegenTask.TARGET).orElseThrow();
    assertEquals(List.copyOf(TargetCache.BUILT_IN.keySet()), target.values().stream().map(AllowedValue::name).toList());
    assertTrue(target.values().stream().anyMatch(value -> value.name().equals(target.defaultValue())));
  }

  @Test
  void coresAcceptsOnlyPositiveIntegers() {
    TaskParameter cores = CodegenTask.DESCRIPTOR.parameter(CodegenTask.CORES).orElseThrow();
    assertTrue(cores.problem("4").isEmpty());
    assertTrue(cores.problem(" 12 ").isEmpty());
    for (String bad : List.of("0", "-2", "four", "2.5", "99999999999")) {
      assertEquals("'Cores' must be a positive integer, got '" + bad + "'", cores.problem(bad).orElseThrow());
    }
  }

  @Test
  void nodesAcceptsOnlyPositiveIntegers() {
    TaskParameter nodes = CodegenTask.DESCRIPTOR.parameter(CodegenTask.NODES).orElseThrow();
    assertEquals(ValueKind.POSITIVE_INTEGER, nodes.kind());
    assertTrue(nodes.problem("2").isEmpty());
    assertTrue(nodes.problem("").isEmpty(), "blank: the architecture's");
    for (String bad : List.of("0", "-1", "two", "1.5")) {
      assertEquals("'Nodes' must be a positive integer, got '" + bad + "'", nodes.problem(bad).orElseThrow());
    }
  }

  @Test
  void overridesAreCheckedEntryByEntry() {
    TaskParameter overrides = CodegenTask.DESCRIPTOR.parameter(CodegenTask.OVERRIDES).orElseThrow();
    assertTrue(overrides.problem("Blur.in=cow; Sharpen/*.out=channel:4").isEmpty());
    assertEquals(List.of("Blur.in=cow", "Sharpen/*.out=channel:4"),
        CodegenTask.overrideEntries("Blur.in=cow; ;Sharpen/*.out=channel:4;"));
    String problem = overrides.problem("Blur.in=cow; Edges.out=teleport").orElseThrow();
    assertTrue(problem.contains("unknown strategy 'teleport'"), problem);
    assertTrue(overrides.problem("Blur=cow").orElseThrow().contains("names no port"));
  }

  @Test
  void defaultsMapHasEveryParameter() {
    assertEquals(CodegenTask.DESCRIPTOR.parameters().size(), CodegenTask.DESCRIPTOR.defaults().size());
    assertEquals("false", CodegenTask.DESCRIPTOR.defaults().get(CodegenTask.SYNTHETIC_ACTORS));
    assertEquals("", CodegenTask.DESCRIPTOR.defaults().get(CodegenTask.CORES));
  }
}
