package org.cacheflow.ui.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.plan.strategy.GlobalStrategy;
import org.cacheflow.workflow.run.ActorCode;
import org.cacheflow.workflow.run.GenerationRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommandLineTest {

  @TempDir
  Path directory;

  @Test
  void aFailingCommandBecomesAnInputExceptionAtTheLocationItPrints() throws IOException {
    Path graph = directory.resolve("broken.pi");
    Files.writeString(graph, "<?xml version=\"1.0\"?>\n<graphml>\n  <graph>\n</graphml>\n");
    InputException error = assertThrows(InputException.class,
        () -> CommandLine.run(List.of("plan", graph.toString()), directory.resolve("w.workflow")));
    assertEquals(graph.toString(), error.location().file());
    assertEquals(4, error.location().line(), error.describe());
    assertTrue(error.location().column() > 0, error.describe());
  }

  @Test
  void anErrorNamingNoLineIsReportedAtTheFileItNames() {
    Path missing = directory.resolve("missing.pi");
    InputException error = assertThrows(InputException.class,
        () -> CommandLine.run(List.of("plan", missing.toString()), directory.resolve("w.workflow")));
    assertEquals(missing.toString(), error.location().file(), error.describe());
    assertEquals(0, error.location().line());
  }

  @Test
  void requestsBecomeTheCommandLinesOfGenerateAndPlan() {
    GenerationRequest request = new GenerationRequest(Path.of("p"), Path.of("p/Scenarios/s.scenario"),
        GlobalStrategy.HOMEFORWARD, 4, 2, "generic", List.of("A.out=cow", "B.*=ntm"), true, Path.of("p/out"),
        Map.of());
    // a built-in target other than generate's default must reach it (issue 13: it was dropped); the workflow's
    // Nodes reaches both commands (issue 16)
    assertEquals(List.of("generate", "p", "--out", "p/out", "--scenario", "p/Scenarios/s.scenario", "--strategy",
        "homeforward", "--cores", "4", "--nodes", "2", "--target", "generic", "--override", "A.out=cow",
        "--override", "B.*=ntm", "--synthetic-actors"), CommandLineGenerator.arguments(request));
    assertEquals(List.of("plan", "p", "--scenario", "p/Scenarios/s.scenario", "--strategy", "homeforward",
        "--cores", "4", "--nodes", "2", "--target", "generic", "--override", "A.out=cow", "--override", "B.*=ntm",
        "--report", "p/out-plan"), PlanReports.arguments(request, Path.of("p/out-plan")));
    GenerationRequest real = new GenerationRequest(Path.of("p"), null, GlobalStrategy.AUTO, null, null, "zen4-vm",
        List.of(), false, Path.of("p/out"), new ActorCode("/p/Code/src", List.of("/usr/include/SDL2"),
            List.of("FRAMES=4"), List.of("sdl2", "m")), Map.of());
    assertEquals(List.of("generate", "p", "--out", "p/out", "--strategy", "auto", "--target", "zen4-vm",
        "--sources", "/p/Code/src", "--include", "/usr/include/SDL2", "--define", "FRAMES=4", "--link", "sdl2",
        "--link", "m"), CommandLineGenerator.arguments(real));
    assertEquals(Path.of("p/out-plan").toAbsolutePath(), PlanReports.reportDirectory(Path.of("p/out")));
  }
}
