package org.cacheflow.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.cacheflow.model.ActorKind;
import org.cacheflow.pipeline.Input;
import org.cacheflow.pipeline.Inspection;
import org.cacheflow.pipeline.LoadedInput;
import org.cacheflow.pipeline.PathText;
import org.cacheflow.pipeline.Pipeline;
import org.cacheflow.analysis.AnalysisResult;
import org.cacheflow.analysis.FifoBuffer;
import org.cacheflow.analysis.FlatActor;
import org.cacheflow.analysis.FlatFifo;
import org.cacheflow.analysis.FlatGraph;
import org.cacheflow.report.JsonText;
import org.cacheflow.analysis.srdag.Srdag;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code cacheflow inspect}: read, check, flatten and expand a graph, and summarise it. */
@Command(name = "inspect",
    header = "read and check a graph; print actors, repetitions, FIFOs and the single-rate graph "
    + "size", synopsisHeading = "usage: ", abbreviateSynopsis = true, separator = " ", sortOptions = false,
    description = {"",
        "Reads a PiSDF graph (with its sub-graphs), an SDF3 graph, or a PREESM project, checks it (balance "
        + "equations, liveness with delays), flattens the hierarchy and expands it to a single-rate graph, then prints "
        + "actors with their repetitions, FIFOs with rates and sizes, the single-rate graph's size, and warnings (on "
        + "stderr).", ""}, optionListHeading = "%noptions:%n", parameterListHeading = "%n",
    footer = {"", "Actor names are relative to the top graph, hierarchical levels joined with '/'; FIFO ends are "
        + "written actor.port. Sizes are bytes."})
public final class InspectCommand extends CliCommand {

  @Mixin
  InputOptions input = new InputOptions();

  @Option(names = "--json", description = "print JSON: {\"graph\", \"actors\": [{\"name\", \"kind\", "
      + "\"repetitions\"}], \"fifos\": [{\"source\", \"target\", \"type\", \"tokenBytes\", \"production\", "
      + "\"consumption\", \"delay\"}], \"srdag\": {\"vertices\", \"edges\"}}")
  boolean json;

  @Override
  public Integer call() {
    Input what = input.input("graph, SDF3 file or project directory");
    Inspection inspection = new Pipeline(progress()).inspect(what);
    LoadedInput loaded = inspection.input();
    out.print(json ? JsonText.print(toJson(loaded, inspection.analysis(), inspection.srdag()))
        : toText(loaded, inspection.analysis(), inspection.srdag()));
    return Main.OK;
  }

  static String actorName(FlatGraph graph, FlatActor actor) {
    // paths start with the top graph's name; names are shown relative to it
    String path = actor.path();
    String top = graph.actors().isEmpty() ? "" : topName(graph);
    return path.startsWith(top + "/") ? path.substring(top.length() + 1) : path;
  }

  private static String topName(FlatGraph graph) {
    String path = graph.actors().get(0).path();
    int slash = path.indexOf('/');
    return slash < 0 ? path : path.substring(0, slash);
  }

  static String kindName(ActorKind kind) {
    return kind.getLiteral().toLowerCase(Locale.ROOT);
  }

  private static Map<String, Object> toJson(LoadedInput loaded, AnalysisResult analysis, Srdag srdag) {
    FlatGraph graph = analysis.flatGraph();
    List<Object> actors = new ArrayList<>();
    for (FlatActor actor : graph.actors()) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("name", actorName(graph, actor));
      row.put("kind", kindName(actor.kind()));
      row.put("repetitions", actor.repetitions());
      actors.add(row);
    }
    List<Object> fifos = new ArrayList<>();
    for (FlatFifo fifo : graph.fifos()) {
      FifoBuffer buffer = analysis.buffers().get(fifo.index());
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("source", actorName(graph, graph.actor(fifo.source())) + "." + fifo.sourcePort());
      row.put("target", actorName(graph, graph.actor(fifo.target())) + "." + fifo.targetPort());
      row.put("type", fifo.type());
      row.put("tokenBytes", fifo.bytesFor(1));
      row.put("production", fifo.production());
      row.put("consumption", fifo.consumption());
      row.put("delay", fifo.delay());
      row.put("bytesPerIteration", buffer.bytesPerIteration());
      fifos.add(row);
    }
    Map<String, Object> srdagJson = new LinkedHashMap<>();
    srdagJson.put("vertices", srdag.vertexCount());
    srdagJson.put("edges", srdag.edgeCount());
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("graph", loaded.graph().getName());
    root.put("actors", actors);
    root.put("fifos", fifos);
    root.put("srdag", srdagJson);
    return root;
  }

  private static String toText(LoadedInput loaded, AnalysisResult analysis, Srdag srdag) {
    FlatGraph graph = analysis.flatGraph();
    StringBuilder text = new StringBuilder();
    text.append("graph ").append(loaded.graph().getName()).append("  (").append(PathText.display(loaded.source()));
    if (loaded.scenarioFile() != null) {
      text.append(", scenario ").append(PathText.display(loaded.scenarioFile()));
    }
    text.append(")\n\n");

    Table actors = new Table("actor", "kind", "repetitions");
    for (FlatActor actor : graph.actors()) {
      actors.row(actorName(graph, actor), kindName(actor.kind()), Long.toString(actor.repetitions()));
    }
    text.append(graph.actors().size()).append(" actors\n").append(actors.render("  ")).append('\n');

    Table fifos = new Table("source", "target", "type", "token B", "production", "consumption", "delay",
        "bytes/iteration");
    for (FlatFifo fifo : graph.fifos()) {
      FifoBuffer buffer = analysis.buffers().get(fifo.index());
      fifos.row(actorName(graph, graph.actor(fifo.source())) + "." + fifo.sourcePort(),
          actorName(graph, graph.actor(fifo.target())) + "." + fifo.targetPort(),
          fifo.type() == null ? "-" : fifo.type(),
          fifo.bytesFor(1) + (fifo.tokenBitsDefaulted() ? "?" : ""), Long.toString(fifo.production()),
          Long.toString(fifo.consumption()), Long.toString(fifo.delay()), Long.toString(buffer.bytesPerIteration()));
    }
    text.append(graph.fifos().size()).append(" FIFOs (token size '?' = unknown, 1 byte assumed)\n")
        .append(fifos.render("  ")).append('\n');
    text.append(String.format("total FIFO data per iteration: %d bytes%n", analysis.totalBufferBytes()));

    text.append(String.format("single-rate graph: %d vertices (%d forks, %d joins, %d broadcasts, %d round buffers, "
        + "%d init/end), %d edges%n", srdag.vertexCount(), srdag.countVertices(ActorKind.FORK),
        srdag.countVertices(ActorKind.JOIN), srdag.countVertices(ActorKind.BROADCAST),
        srdag.countVertices(ActorKind.ROUNDBUFFER),
        srdag.countVertices(ActorKind.INIT) + srdag.countVertices(ActorKind.END), srdag.edgeCount()));
    return text.toString();
  }
}
