package org.cacheflow.pipeline;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.cacheflow.io.pisdf.PiReader;
import org.cacheflow.io.project.PreesmProject;
import org.cacheflow.io.project.ProjectFiles;
import org.cacheflow.io.project.ScenarioReferences;
import org.cacheflow.io.project.ScenarioRun;
import org.cacheflow.io.scenario.ScenarioFile;
import org.cacheflow.io.scenario.ScenarioReader;
import org.cacheflow.io.scenario.TokenSizeResolver;
import org.cacheflow.io.scenario.ValueSet;
import org.cacheflow.io.sdf3.Sdf3Reader;
import org.cacheflow.model.Graph;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * Turns what a user names on the command line — a {@code .pi} graph, an SDF3 {@code .xml} graph, or a
 * PREESM project directory — plus an optional scenario into a graph ready for analysis: token sizes
 * resolved, parameter overrides collected (the scenario's, then {@code --param}, which win).
 */
final class InputLoader {

  private InputLoader() {
  }

  /**
   * @param input       the path given by the user
   * @param scenario    the {@code --scenario} file, or a scenario's name or path in the project; null for none
   * @param params      {@code NAME=VALUE} texts from {@code --param}
   * @param diagnostics receives warnings, and notes such as which scenario was chosen
   */
  static LoadedInput load(Path input, Path scenario, Map<String, String> params, Diagnostics diagnostics) {
    return load(input, scenario, params, false, diagnostics);
  }

  /**
   * As {@link #load(Path, Path, Map, Diagnostics)}; with {@code coresGiven} ({@code --cores} or {@code --nodes})
   * the scenario's architecture is not needed, so one that is absent is a warning and the input has none.
   */
  static LoadedInput load(Path input, Path scenario, Map<String, String> commandLineParams, boolean coresGiven,
      Diagnostics diagnostics) {
    if (!Files.exists(input)) {
      throw new InputException(SourceLocation.file(input), "no such file or directory");
    }
    if (Files.isDirectory(input)) {
      return loadProject(input, scenario, commandLineParams, coresGiven, diagnostics);
    }
    String name = input.getFileName().toString();
    if (name.endsWith(".xml")) {
      if (scenario != null) {
        throw new OptionException("--scenario applies to PREESM graphs, not to SDF3 file " + input);
      }
      Graph graph = Sdf3Reader.read(input, diagnostics);
      return new LoadedInput(input, graph, null, null, null, commandLineParams, null, List.of());
    }
    if (name.endsWith(".pi")) {
      if (scenario != null) {
        return withScenario(PreesmProject.containing(input, diagnostics), scenario, input, commandLineParams,
            coresGiven, diagnostics);
      }
      Graph graph = PiReader.read(input, diagnostics);
      TokenSizeResolver.resolve(graph, null, diagnostics);
      Path root = PreesmProject.containing(input, diagnostics).root();
      return new LoadedInput(input, graph, null, null, null, commandLineParams, root, List.of());
    }
    throw new InputException(SourceLocation.file(input),
        "not a graph cacheflow reads: expected a PiSDF .pi file, an SDF3 .xml file or a PREESM project directory");
  }

  private static LoadedInput loadProject(Path directory, Path scenario, Map<String, String> params,
      boolean coresGiven, Diagnostics diagnostics) {
    PreesmProject project = PreesmProject.open(directory, diagnostics);
    if (scenario != null) {
      return withScenario(project, scenario, null, params, coresGiven, diagnostics);
    }
    // No scenario named: take the first one whose algorithm exists, so the project's own sizes and
    // parameter values apply; otherwise the only graph of the project.
    for (Path candidate : project.scenarios()) {
      Diagnostics quiet = new Diagnostics();
      ScenarioFile file = ScenarioReader.readFile(candidate, quiet);
      ScenarioReferences references = project.references(file, quiet);
      if (references.algorithm().isPresent() && references.architecture().isPresent()) {
        return withScenario(project, candidate, null, params, coresGiven, diagnostics);
      }
    }
    List<Path> graphs = project.algorithms();
    if (graphs.size() == 1) {
      Graph graph = PiReader.read(graphs.get(0), diagnostics);
      TokenSizeResolver.resolve(graph, null, diagnostics);
      return new LoadedInput(graphs.get(0), graph, null, null, null, params, project.root(), List.of());
    }
    throw new InputException(SourceLocation.file(directory), graphs.isEmpty()
        ? "no PiSDF graph under Algo/ (is this a PREESM project?)"
        : "the project has " + graphs.size()
            + " graphs and no usable scenario: name a scenario with --scenario or a graph file");
  }

  private static LoadedInput withScenario(PreesmProject project, Path scenarioPath, Path expectedGraph,
      Map<String, String> params, boolean coresGiven, Diagnostics diagnostics) {
    // a file, or a name in the project as PREESM users write it: 4core, 4core.scenario, Scenarios/4core.scenario
    Path scenarioFile = ProjectFiles.find(project.root(), scenarioPath.toString(), "Scenarios", ".scenario");
    ScenarioRun run = project.load(scenarioFile, PiReader::read, coresGiven, diagnostics);
    if (expectedGraph != null && !sameFile(expectedGraph, run.algorithmFile())) {
      throw new InputException(SourceLocation.file(scenarioFile), "this scenario is for " + run.algorithmFile()
          + ", not for " + expectedGraph);
    }
    Map<String, String> overrides = run.scenario().parameterOverrides(withDynamicSets(run, params));
    return new LoadedInput(run.algorithmFile(), run.graph(), run.scenario().scenario(), scenarioFile,
        run.architecture(), overrides, project.root(), run.scenario().specialVertexOperators());
  }

  /**
   * The command line's values, then the scenario's value sets of dynamic parameters ({@code value="[0, 1]"}) it does
   * not settle, as lists: each value is planned ({@link DynamicParameters}).
   */
  private static Map<String, String> withDynamicSets(ScenarioRun run, Map<String, String> params) {
    Map<String, String> chosen = new LinkedHashMap<>(params);
    Set<String> dynamic = new HashSet<>();
    for (DynamicParameters.Dynamic parameter : DynamicParameters.of(run.graph())) {
      dynamic.add(parameter.key());
      if (parameter.key().indexOf('/') == parameter.key().lastIndexOf('/')) {
        dynamic.add(parameter.name());
      }
    }
    for (ValueSet set : run.scenario().valueSets()) {
      if (dynamic.contains(set.key()) && !chosen.containsKey(set.key()) && !chosen.containsKey(set.name())) {
        chosen.put(set.key(), String.join(",", set.values()));
      }
    }
    return chosen;
  }

  private static boolean sameFile(Path a, Path b) {
    return a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize());
  }

}
