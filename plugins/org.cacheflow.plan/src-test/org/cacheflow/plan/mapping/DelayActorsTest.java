package org.cacheflow.plan.mapping;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;

import org.cacheflow.analysis.GraphAnalysis;
import org.cacheflow.analysis.srdag.SingleRateExpansion;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.io.pisdf.PiReader;
import org.cacheflow.io.project.PreesmProject;
import org.cacheflow.io.project.ScenarioRun;
import org.cacheflow.model.ActorKind;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.plan.schedule.ListScheduler;
import org.cacheflow.plan.schedule.Schedule;
import org.junit.jupiter.api.Test;

/**
 * PREESM's delay actors in a scenario (src-test/resources/delay-mapping): a persistent delay's actor
 * ({@code accumulate/delay_Acc_next__Acc_prev}) mapped to Core1 and timed 500. The scenario check takes the name for
 * what it is, and the delay's init and end vertices run on Core1 for 500 time units, where the scenario's special
 * vertex operator (Core0) puts them otherwise.
 */
class DelayActorsTest {

  private static final Path PROJECT = Path.of("src-test/resources/delay-mapping");

  private static ScenarioRun load(Diagnostics diagnostics) {
    return PreesmProject.open(PROJECT, diagnostics).load(PROJECT.resolve("Scenarios/2core.scenario"), PiReader::read,
        diagnostics);
  }

  private static Schedule schedule(ScenarioRun run, Srdag srdag, Diagnostics diagnostics) {
    MappingInputs inputs = MappingInputs.fromScenario(srdag.flatGraph(), Platform.generic(2),
        run.scenario().scenario(), run.scenario().specialVertexOperators(), diagnostics);
    return ListScheduler.schedule(srdag, inputs, MappingPolicy.LOAD_BALANCE, 1 << 15);
  }

  private static Srdag expand(ScenarioRun run, Diagnostics diagnostics) {
    return SingleRateExpansion.expand(GraphAnalysis.analyse(run.graph(), run.scenario().parameterOverrides(Map.of()),
        diagnostics).flatGraph());
  }

  /** The delay's init and end vertices: each is checked to run on {@code core} for {@code time}; how many. */
  private static int checkDelayVertices(Srdag srdag, Schedule schedule, int core, long time) {
    int count = 0;
    for (int v = 0; v < srdag.vertexCount(); v++) {
      ActorKind kind = srdag.vertexKind(v);
      if (srdag.isInserted(v) && (kind == ActorKind.INIT || kind == ActorKind.END)) {
        count++;
        assertEquals(core, schedule.coreOf(v), srdag.vertexName(v));
        assertEquals(time, schedule.end(v) - schedule.start(v), srdag.vertexName(v));
      }
    }
    return count;
  }

  @Test
  void theDelaysInitAndEndRunWhereAndAsLongAsTheScenarioSays() {
    Diagnostics diagnostics = new Diagnostics();
    ScenarioRun run = load(diagnostics);
    assertTrue(diagnostics.warnings().stream().noneMatch(w -> w.message().contains("delay_Acc")),
        diagnostics.warnings().toString());
    Srdag srdag = expand(run, diagnostics);
    Schedule schedule = schedule(run, srdag, diagnostics);
    assertEquals(2, checkDelayVertices(srdag, schedule, 1, 500), "the persistent delay's init and end");
    for (int v = 0; v < srdag.vertexCount(); v++) {
      if (srdag.vertexActor(v) >= 0) {
        assertEquals(0, schedule.coreOf(v), srdag.vertexName(v));
      }
    }
  }

  @Test
  void withoutTheDelaysSettingsItsVerticesFollowTheSpecialVertexOperator() {
    Diagnostics diagnostics = new Diagnostics();
    ScenarioRun run = load(diagnostics);
    run.scenario().scenario().getConstraints().forEach(group -> group.getActorPaths()
        .removeIf(path -> path.contains("delay_")));
    run.scenario().scenario().getTimings().clear();
    Srdag srdag = expand(run, diagnostics);
    Schedule schedule = schedule(run, srdag, diagnostics);
    assertEquals(2, checkDelayVertices(srdag, schedule, 0, MappingInputs.SPECIAL_TIME));
  }
}
