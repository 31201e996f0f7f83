package org.cacheflow.plan.memory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.cacheflow.model.ActorKind;
import org.cacheflow.model.MemoryAnnotation;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.analysis.AnalysisResult;
import org.cacheflow.analysis.FlatActor;
import org.cacheflow.analysis.FlatFifo;
import org.cacheflow.analysis.FlatGraph;
import org.cacheflow.analysis.FlatPort;
import org.cacheflow.analysis.srdag.SingleRateExpansion;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.scripts.BufferSpec;
import org.cacheflow.scripts.CheckPolicy;
import org.cacheflow.scripts.DefaultScripts;
import org.cacheflow.scripts.FifoMarks;
import org.cacheflow.scripts.MarkRecord;
import org.cacheflow.scripts.MatchChecker;
import org.cacheflow.scripts.MemoryScript;
import org.cacheflow.scripts.ScriptEnvironment;
import org.cacheflow.scripts.ScriptException;
import org.cacheflow.scripts.ScriptRun;
import org.cacheflow.scripts.merge.BufferMerger;
import org.cacheflow.scripts.merge.FifoInfo;
import org.cacheflow.scripts.merge.MergeResult;

/**
 * Runs the memory scripts of a graph on its single-rate expansion, as PREESM does before memory allocation:
 * every firing of an actor with a {@code memoryScript}, and every fork, join, broadcast and roundbuffer
 * (with the default scripts), gets an environment built from its single-rate edges; results are checked with
 * a {@link CheckPolicy}, accepted matches decide which FIFOs share memory, and the marks of our extension are
 * gathered per FIFO for the classification stage.
 *
 * <p>Script paths are project-relative like other refinements; the project root is the directory holding
 * {@code Algo/}. Errors (a missing script, a script that fails, contradictory marks) are collected in the
 * report with their locations; evaluation goes on with the other instances.
 */
public final class MemoryScripts {

  /** How scripts are run. */
  public record Options(boolean sizesInBits, long alignment, CheckPolicy checkPolicy, long stepBudget) {

    /** Sizes in bytes, no alignment, thorough checks, the default step budget. */
    public static Options defaults() {
      return new Options(false, -1, CheckPolicy.THOROUGH, MemoryScript.DEFAULT_STEP_BUDGET);
    }

    public Options withSizesInBits(boolean value) {
      return new Options(value, alignment, checkPolicy, stepBudget);
    }

    public Options withCheckPolicy(CheckPolicy value) {
      return new Options(sizesInBits, alignment, value, stepBudget);
    }
  }

  private MemoryScripts() {
  }

  /** Evaluates the scripts of an analysed graph with {@link Options#defaults()}. */
  public static ScriptReport evaluate(AnalysisResult analysis, Path projectRoot, Diagnostics diagnostics) {
    return evaluate(analysis, projectRoot, Options.defaults(), diagnostics);
  }

  /** Evaluates the scripts of an analysed graph. */
  public static ScriptReport evaluate(AnalysisResult analysis, Path projectRoot, Options options,
      Diagnostics diagnostics) {
    Srdag srdag = SingleRateExpansion.expand(analysis, null);
    return evaluate(srdag, projectRoot, options, diagnostics);
  }

  /**
   * Evaluates the scripts of an already expanded graph; with a null project root only the special actors'
   * default scripts run (actors' own scripts are found relative to the project).
   */
  public static ScriptReport evaluate(Srdag srdag, Path projectRoot, Options options, Diagnostics diagnostics) {
    return new Run(srdag, projectRoot, options).run();
  }

  /** The state of one evaluation. */
  private static final class Run {
    private final Srdag srdag;
    private final FlatGraph flat;
    private final Path projectRoot;
    private final Options options;
    private final Map<String, Object> scripts = new HashMap<>();
    private final List<String> errors = new ArrayList<>();
    private final List<ScriptReport.Instance> instances = new ArrayList<>();
    private final List<ScriptRun> accepted = new ArrayList<>();
    private final FifoMarks marks = new FifoMarks();

    Run(Srdag srdag, Path projectRoot, Options options) {
      this.srdag = srdag;
      this.flat = srdag.flatGraph();
      this.projectRoot = projectRoot;
      this.options = options;
    }

    ScriptReport run() {
      long t0 = System.nanoTime();
      for (int vertex = 0; vertex < srdag.vertexCount(); vertex++) {
        MemoryScript script = scriptOf(vertex);
        if (script != null) {
          evaluate(vertex, script);
        }
      }
      List<FifoInfo> fifos = new ArrayList<>(srdag.edgeCount());
      for (int edge = 0; edge < srdag.edgeCount(); edge++) {
        fifos.add(fifoInfo(edge));
      }
      long t1 = System.nanoTime();
      MergeResult merge = BufferMerger.merge(fifos, accepted);
      long t2 = System.nanoTime();
      return new ScriptReport(flat.name(), instances, merge, marks.all(), errors, t1 - t0, t2 - t1);
    }

    /** The script of a vertex, null when it has none (or its script cannot be read, which is reported). */
    private MemoryScript scriptOf(int vertex) {
      ActorKind kind = srdag.vertexKind(vertex);
      DefaultScripts.Kind special = switch (kind) {
        case FORK -> DefaultScripts.Kind.FORK;
        case JOIN -> DefaultScripts.Kind.JOIN;
        case BROADCAST -> DefaultScripts.Kind.BROADCAST;
        case ROUNDBUFFER -> DefaultScripts.Kind.ROUNDBUFFER;
        default -> null;
      };
      if (special != null) {
        return DefaultScripts.of(special);
      }
      int actorIndex = srdag.vertexActor(vertex);
      if (kind != ActorKind.NORMAL || actorIndex < 0 || projectRoot == null) {
        return null;
      }
      FlatActor actor = flat.actor(actorIndex);
      String path = actor.origin() == null ? null : actor.origin().getMemoryScript();
      if (path == null || path.isEmpty()) {
        return null;
      }
      Object cached = scripts.get(path);
      if (cached == null) {
        cached = load(path, actor);
        scripts.put(path, cached);
      }
      return cached instanceof MemoryScript script ? script : null;
    }

    /** Parses a script file once; a missing or malformed one is reported once, at the graph line naming it. */
    private Object load(String path, FlatActor actor) {
      String relative = path.startsWith("/") ? path.substring(1) : path;
      Path file = projectRoot.resolve(relative).normalize();
      if (!Files.isRegularFile(file)) {
        errors.add(actor.location() + ": memory script '" + path + "' of actor " + actor.path()
            + " does not exist (looked for " + file + ")");
        return Boolean.FALSE;
      }
      try {
        return MemoryScript.read(file);
      } catch (InputException e) {
        errors.add(e.describe());
        return Boolean.FALSE;
      }
    }

    private void evaluate(int vertex, MemoryScript script) {
      ScriptEnvironment environment = environment(vertex);
      String name = srdag.vertexName(vertex);
      try {
        ScriptRun run = script.evaluate(environment, options.stepBudget());
        List<String> problems = MatchChecker.check(run, options.checkPolicy());
        for (MarkRecord mark : run.marks()) {
          marks.add(mark);
        }
        if (problems.isEmpty()) {
          accepted.add(run);
        }
        instances.add(new ScriptReport.Instance(name, srdag.vertexActorPath(vertex), script.fileName(), run,
            problems, null));
      } catch (ScriptException e) {
        instances.add(new ScriptReport.Instance(name, srdag.vertexActorPath(vertex), script.fileName(), null,
            List.of(), e.describe()));
        errors.add(e.describe() + " (actor instance " + name + ")");
      }
    }

    // ---------------------------------------------------------------- environment

    private ScriptEnvironment environment(int vertex) {
      ScriptEnvironment.Builder builder = ScriptEnvironment.builder(srdag.vertexName(vertex))
          .sizesInBits(options.sizesInBits()).alignment(options.alignment());
      int actorIndex = srdag.vertexActor(vertex);
      FlatActor actor = actorIndex < 0 ? null : flat.actor(actorIndex);
      if (actor != null) {
        actor.configValues().forEach(builder::parameter);
      }
      for (int edge : ordered(srdag.incomingEdges(vertex), actor, true)) {
        builder.input(buffer(edge, srdag.edgeTargetPort(edge)));
      }
      for (int edge : ordered(srdag.outgoingEdges(vertex), actor, false)) {
        builder.output(buffer(edge, srdag.edgeSourcePort(edge)));
      }
      return builder.build();
    }

    /** Edges in port order: the actor's declaration order, or the slot number of an inserted vertex's port. */
    private int[] ordered(int[] edges, FlatActor actor, boolean incoming) {
      List<Integer> list = new ArrayList<>(edges.length);
      for (int edge : edges) {
        list.add(edge);
      }
      Comparator<Integer> order;
      if (actor != null) {
        List<String> ports = new ArrayList<>();
        for (FlatPort port : actor.ports()) {
          ports.add(port.name());
        }
        order = Comparator.comparingInt(edge -> ports.indexOf(portName(edge, incoming)));
      } else {
        order = Comparator.comparingLong(edge -> slot(portName(edge, incoming)));
      }
      list.sort(order.thenComparingInt(edge -> edge));
      return list.stream().mapToInt(Integer::intValue).toArray();
    }

    private String portName(int edge, boolean incoming) {
      return incoming ? srdag.edgeTargetPort(edge) : srdag.edgeSourcePort(edge);
    }

    private static long slot(String port) {
      int underscore = port.lastIndexOf('_');
      try {
        return underscore < 0 ? 0 : Long.parseLong(port.substring(underscore + 1));
      } catch (NumberFormatException e) {
        return 0;
      }
    }

    private BufferSpec buffer(int edge, String port) {
      FlatFifo fifo = flat.fifo(srdag.edgeFifo(edge));
      long tokenSize = options.sizesInBits() ? fifo.tokenBits() : (fifo.tokenBits() + 7) / 8;
      return new BufferSpec(port, fifoId(edge), srdag.edgeTokens(edge), tokenSize, consumerAnnotation(edge));
    }

    private final Map<Integer, String> fifoIds = new HashMap<>();
    /** Vertex names, built once: the srdag composes them on every call. */
    private String[] vertexNames;

    private String vertexName(int vertex) {
      if (vertexNames == null) {
        vertexNames = new String[srdag.vertexCount()];
      }
      String name = vertexNames[vertex];
      if (name == null) {
        name = srdag.vertexName(vertex);
        vertexNames[vertex] = name;
      }
      return name;
    }

    /** {@code producer.port->consumer.port}, as reports show a single-rate FIFO. */
    String fifoId(int edge) {
      return fifoIds.computeIfAbsent(edge, e -> vertexName(srdag.edgeSource(e)) + "." + srdag.edgeSourcePort(e)
          + "->" + vertexName(srdag.edgeTarget(e)) + "." + srdag.edgeTargetPort(e));
    }

    /**
     * The annotation of the port that consumes the edge. Special actors (fork, join, broadcast, roundbuffer)
     * never write their inputs, whatever their ports say, so they count as READ_ONLY.
     */
    private MemoryAnnotation consumerAnnotation(int edge) {
      int target = srdag.edgeTarget(edge);
      ActorKind kind = srdag.vertexKind(target);
      int actorIndex = srdag.vertexActor(target);
      MemoryAnnotation declared = MemoryAnnotation.NONE;
      if (actorIndex >= 0) {
        FlatPort port = flat.actor(actorIndex).port(srdag.edgeTargetPort(edge));
        if (port != null && port.annotation() != null) {
          declared = port.annotation();
        }
      }
      boolean special = kind == ActorKind.FORK || kind == ActorKind.JOIN || kind == ActorKind.BROADCAST
          || kind == ActorKind.ROUNDBUFFER;
      if (special && declared != MemoryAnnotation.UNUSED) {
        return MemoryAnnotation.READ_ONLY;
      }
      return declared;
    }

    private FifoInfo fifoInfo(int edge) {
      FlatFifo fifo = flat.fifo(srdag.edgeFifo(edge));
      long bits = srdag.edgeTokens(edge) * fifo.tokenBits();
      MemoryAnnotation annotation = consumerAnnotation(edge);
      boolean mergeable = annotation == MemoryAnnotation.READ_ONLY || annotation == MemoryAnnotation.UNUSED;
      // delay tokens live across iterations: they keep their own memory
      boolean mergeAllowed = !srdag.isFromInit(edge) && !srdag.isToEnd(edge);
      ActorKind producerKind = srdag.vertexKind(srdag.edgeSource(edge));
      boolean producerAliases = producerKind == ActorKind.FORK || producerKind == ActorKind.JOIN
          || producerKind == ActorKind.BROADCAST || producerKind == ActorKind.ROUNDBUFFER;
      return new FifoInfo(fifoId(edge), vertexName(srdag.edgeSource(edge)),
          vertexName(srdag.edgeTarget(edge)), bits, mergeable, mergeAllowed, producerAliases);
    }
  }
}
