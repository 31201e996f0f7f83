package org.cacheflow.io.scenario;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.cacheflow.model.Scenario;

/**
 * A scenario as read, with what the model's {@link Scenario} does not hold: where each file reference
 * was written and the simulation settings code generation uses.
 *
 * @param file the {@code .scenario} file
 * @param scenario the model scenario (paths as written, e.g. {@code /project/Algo/top.pi})
 * @param algorithm {@code <files><algorithm url>}, if present and not empty
 * @param architecture {@code <files><architecture url>}, if present and not empty
 * @param codegenDirectory {@code <files><codegenDirectory url>}, if present and not empty
 * @param mainCore {@code <simuParams><mainCore>}: the core that runs the main thread, if set
 * @param specialVertexOperators {@code <simuParams><specialVertexOperators>}: cores allowed to run
 *     broadcasts, forks, joins and round buffers (empty means all cores, as in PREESM)
 */
public record ScenarioFile(Path file, Scenario scenario, Optional<ScenarioSetting> algorithm,
    Optional<ScenarioSetting> architecture, Optional<ScenarioSetting> codegenDirectory,
    Optional<ScenarioSetting> mainCore, List<String> specialVertexOperators) {

  public ScenarioFile {
    specialVertexOperators = List.copyOf(specialVertexOperators);
  }
}
