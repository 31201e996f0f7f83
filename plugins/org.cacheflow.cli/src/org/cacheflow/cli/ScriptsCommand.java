package org.cacheflow.cli;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.cacheflow.pipeline.Input;
import org.cacheflow.pipeline.LoadedInput;
import org.cacheflow.pipeline.PathText;
import org.cacheflow.pipeline.Pipeline;
import org.cacheflow.pipeline.ScriptEvaluation;
import org.cacheflow.pipeline.ScriptsResult;
import org.cacheflow.plan.memory.ScriptReport;
import org.cacheflow.report.ScriptReportJson;
import org.cacheflow.scripts.CheckPolicy;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code cacheflow scripts}: evaluate the memory scripts of a graph for every single-rate actor. */
@Command(name = "scripts", header = "evaluate memory scripts: matches, merge groups, read-mostly/private/write-mostly "
    + "marks", synopsisHeading = "usage: ", abbreviateSynopsis = true, separator = " ", sortOptions = false,
    description = {"", "Evaluates the BeanShell memory scripts (.bsh) of a PiSDF graph for every single-rate actor "
        + "instance, in cacheflow's sandbox, and prints per instance the matches (local range, remote buffer and "
            + "range, "
        + "in bytes), the merge groups (buffers that share memory, and the memory saved), the FIFO marks (read-mostly, "
        + "private, write-mostly) and any errors.", "",
        "Given a project directory without --scenario, every scenario of the project whose files exist is evaluated "
        + "with its parameter values, then every graph under Algo/ that references a script and no scenario covers, "
        + "with the graph's own parameter values. A script path that does not exist, a script that fails and "
        + "contradictory marks are errors (exit status 1), each with its file and line.", ""},
    optionListHeading = "%noptions:%n", parameterListHeading = "%n")
public final class ScriptsCommand extends CliCommand {

  @Mixin
  InputOptions input = new InputOptions();

  @Option(names = "--check", paramLabel = "P", description = "how matches are checked, as PREESM's policies: none, "
      + "fast (one message per kind of problem) or thorough (one per offending match; the default)")
  String check;

  @Option(names = "--json", description = "print JSON (one object per evaluated graph, in a list for a project)")
  boolean json;

  @Override
  public Integer call() {
    Input what = input.input("graph or project directory");
    CheckPolicy checkPolicy = check == null ? CheckPolicy.THOROUGH : checkPolicy(check);
    ScriptsResult result = new Pipeline(progress()).scripts(what, checkPolicy);

    StringBuilder text = new StringBuilder();
    List<String> jsons = new ArrayList<>();
    for (ScriptEvaluation evaluation : result.graphs()) {
      LoadedInput loaded = evaluation.input();
      ScriptReport report = evaluation.report();
      text.append("graph ").append(loaded.graph().getName()).append("  (").append(PathText.display(loaded.source()));
      if (loaded.scenarioFile() != null) {
        text.append(", scenario ").append(PathText.display(loaded.scenarioFile()));
      }
      text.append(")\n").append(report.toText()).append('\n');
      Map<String, String> context = new LinkedHashMap<>();
      context.put("source", PathText.display(loaded.source()));
      if (loaded.scenarioFile() != null) {
        context.put("scenario", PathText.display(loaded.scenarioFile()));
      }
      jsons.add(ScriptReportJson.compact(report, context));
    }
    int errors = result.errors();
    if (result.graphs().isEmpty()) {
      err.println("note: no graph of " + PathText.display(what.path()) + " references a memory script");
    }
    if (json) {
      out.println(jsons.size() == 1 && !Files.isDirectory(what.path()) ? jsons.get(0)
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
    return switch (name.toLowerCase(Locale.ROOT)) {
      case "none" -> CheckPolicy.NONE;
      case "fast" -> CheckPolicy.FAST;
      case "thorough" -> CheckPolicy.THOROUGH;
      default -> throw new UsageException("--check takes none, fast or thorough, not '" + name + "'");
    };
  }
}
