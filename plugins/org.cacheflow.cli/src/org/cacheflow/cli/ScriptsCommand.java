package org.cacheflow.cli;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.cacheflow.cli.InputLoader.LoadedInput;
import org.cacheflow.io.project.PreesmProject;
import org.cacheflow.io.project.ScenarioReferences;
import org.cacheflow.io.scenario.ScenarioReader;
import org.cacheflow.model.Actor;
import org.cacheflow.model.Graph;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.plan.analysis.AnalysisResult;
import org.cacheflow.plan.analysis.GraphAnalysis;
import org.cacheflow.plan.memory.MemoryScripts;
import org.cacheflow.plan.memory.ScriptReport;
import org.cacheflow.plan.srdag.SingleRateExpansion;
import org.cacheflow.plan.srdag.Srdag;
import org.cacheflow.scripts.CheckPolicy;

/** {@code cacheflow scripts}: evaluate the memory scripts of a graph for every single-rate actor. */
public final class ScriptsCommand implements Command {

  @Override
  public String name() {
    return "scripts";
  }

  @Override
  public String summary() {
    return "evaluate memory scripts: matches, merge groups, read-mostly/private/write-mostly marks";
  }

  @Override
  public String help() {
    return """
        usage: cacheflow scripts <graph.pi | project-dir> [--scenario F] [--param NAME=VALUE]...
                                 [--check none|fast|thorough] [--json]

        Evaluates the BeanShell memory scripts (.bsh) of a PiSDF graph for every single-rate actor instance,
        in cacheflow's sandbox, and prints per instance the matches (local range, remote buffer and range, in
        bytes), the merge groups (buffers that share memory, and the memory saved), the FIFO marks
        (read-mostly, private, write-mostly) and any errors.

        Given a project directory without --scenario, every scenario of the project whose files exist is
        evaluated with its parameter values, then every graph under Algo/ that references a script and no
        scenario covers, with the graph's own parameter values. A script path that does not exist, a script
        that fails and contradictory marks are errors (exit status 1), each with its file and line.

        options:
          --scenario F        PREESM scenario (data type sizes and parameter values): a file, or a name or
                              path in the project (4core, Scenarios/4core.scenario)
          --param NAME=VALUE  override a parameter; repeatable
          --check P           how matches are checked, as PREESM's policies: none, fast (one message per kind
                              of problem) or thorough (one per offending match; the default)
          --json              print JSON (one object per evaluated graph, in a list for a project)
          --help              this text
        """;
  }

  @Override
  public int run(List<String> args, PrintStream out, PrintStream err) {
    Arguments arguments = Arguments.parse(args, Set.of("--json"), Set.of("--scenario", "--param", "--check"));
    Path input = Path.of(arguments.single("graph or project directory"));
    Path scenario = arguments.option("--scenario").map(Path::of).orElse(null);
    boolean json = arguments.flag("--json");
    List<String> params = arguments.all("--param");
    CheckPolicy checkPolicy = arguments.option("--check").map(ScriptsCommand::checkPolicy)
        .orElse(CheckPolicy.THOROUGH);

    List<LoadedInput> inputs = new ArrayList<>();
    Diagnostics diagnostics = new Diagnostics();
    if (Files.isDirectory(input) && scenario == null) {
      PreesmProject project = PreesmProject.open(input, diagnostics);
      Set<Path> covered = new LinkedHashSet<>();
      for (Path candidate : project.scenarios()) {
        Diagnostics quiet = new Diagnostics();
        ScenarioReferences references = project.references(ScenarioReader.readFile(candidate, quiet), quiet);
        if (references.algorithm().isPresent() && references.architecture().isPresent()) {
          LoadedInput loaded = InputLoader.load(input, candidate, params, diagnostics);
          covered.add(loaded.source().toAbsolutePath().normalize());
          if (referencesScript(loaded.graph())) {
            inputs.add(loaded);
          }
        }
      }
      for (Path graph : project.algorithms()) {
        if (!covered.contains(graph.toAbsolutePath().normalize())) {
          LoadedInput loaded = InputLoader.load(graph, null, params, diagnostics);
          if (referencesScript(loaded.graph())) {
            inputs.add(loaded);
          }
        }
      }
      // graphs that refine an actor of another graph are evaluated as part of that graph
      Set<Path> subgraphs = new LinkedHashSet<>();
      for (LoadedInput loaded : inputs) {
        collectSubgraphs(loaded.graph(), subgraphs);
      }
      inputs.removeIf(loaded -> subgraphs.contains(loaded.source().toAbsolutePath().normalize()));
    } else {
      inputs.add(InputLoader.load(input, scenario, params, diagnostics));
    }

    StringBuilder text = new StringBuilder();
    List<String> jsons = new ArrayList<>();
    int errors = 0;
    for (LoadedInput loaded : inputs) {
      AnalysisResult analysis = GraphAnalysis.analyse(loaded.graph(), loaded.parameterOverrides(), diagnostics);
      Srdag srdag = SingleRateExpansion.expand(analysis.flatGraph());
      Path root = loaded.projectRoot() != null ? loaded.projectRoot() : loaded.source().toAbsolutePath().getParent();
      boolean bits = loaded.scenario() != null && loaded.scenario().isSizesAreInBit();
      ScriptReport report = MemoryScripts.evaluate(srdag, root,
          MemoryScripts.Options.defaults().withSizesInBits(bits).withCheckPolicy(checkPolicy), diagnostics);
      errors += report.errors().size();
      text.append("graph ").append(loaded.graph().getName()).append("  (").append(Paths.display(loaded.source()));
      if (loaded.scenarioFile() != null) {
        text.append(", scenario ").append(Paths.display(loaded.scenarioFile()));
      }
      text.append(")\n").append(report.toText()).append('\n');
      Map<String, String> context = new LinkedHashMap<>();
      context.put("source", Paths.display(loaded.source()));
      if (loaded.scenarioFile() != null) {
        context.put("scenario", Paths.display(loaded.scenarioFile()));
      }
      jsons.add(report.toJson(context).strip());
    }
    for (Diagnostics.Warning warning : diagnostics.warnings()) {
      err.println("warning: " + warning);
    }
    if (inputs.isEmpty()) {
      err.println("note: no graph of " + Paths.display(input) + " references a memory script");
    }
    if (json) {
      out.println(jsons.size() == 1 && !Files.isDirectory(input) ? jsons.get(0)
          : "[\n" + String.join(",\n", jsons) + "\n]");
    } else {
      out.print(text);
    }
    if (errors > 0) {
      err.println("error: " + errors + (errors == 1 ? " memory-script error" : " memory-script errors")
          + " (listed in the report)");
      return Main.BAD_INPUT;
    }
    return Main.OK;
  }

  private static CheckPolicy checkPolicy(String name) {
    return switch (name.toLowerCase(java.util.Locale.ROOT)) {
      case "none" -> CheckPolicy.NONE;
      case "fast" -> CheckPolicy.FAST;
      case "thorough" -> CheckPolicy.THOROUGH;
      default -> throw new UsageException("--check takes none, fast or thorough, not '" + name + "'");
    };
  }

  private static void collectSubgraphs(Graph graph, Set<Path> files) {
    for (Actor actor : graph.getActors()) {
      if (actor.getRefinement() != null && actor.getRefinement().getSubgraph() != null) {
        Graph subgraph = actor.getRefinement().getSubgraph();
        if (subgraph.getFile() != null) {
          files.add(Path.of(subgraph.getFile()).toAbsolutePath().normalize());
        }
        collectSubgraphs(subgraph, files);
      }
    }
  }

  private static boolean referencesScript(Graph graph) {
    for (Actor actor : graph.getActors()) {
      if (actor.getMemoryScript() != null && !actor.getMemoryScript().isBlank()) {
        return true;
      }
      if (actor.getRefinement() != null && actor.getRefinement().getSubgraph() != null
          && referencesScript(actor.getRefinement().getSubgraph())) {
        return true;
      }
    }
    return false;
  }
}
