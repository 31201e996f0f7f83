package org.cacheflow.io.pisdf;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import org.cacheflow.io.project.PreesmProject;
import org.cacheflow.model.ActorKind;
import org.cacheflow.model.Delay;
import org.cacheflow.model.Dependency;
import org.cacheflow.model.Fifo;
import org.cacheflow.model.Graph;
import org.cacheflow.model.Located;
import org.cacheflow.model.Parameter;
import org.cacheflow.model.Refinement;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * Reads a PREESM PiSDF graph ({@code .pi}, PREESM's GraphML dialect, as PREESM's {@code PiParser} reads
 * it) into the model, loading hierarchical actors' sub-graphs recursively.
 *
 * <h2>What becomes what</h2>
 * <ul>
 * <li>{@code <node kind="param">} a STATIC {@link Parameter} (DYNAMIC when an actor's config output port
 * sets it); {@code cfg_in_iface} a CONFIG_INPUT parameter whose expression is its {@code defaultValue}, if
 * any; {@code malleable_param} a STATIC parameter with its current {@code expr} (warned about).</li>
 * <li>{@code actor}, {@code broadcast}, {@code fork}, {@code join}, {@code roundbuffer}, {@code init},
 * {@code end} actors of the matching {@link ActorKind}; {@code src}/{@code snk} SOURCE/SINK_INTERFACE actors
 * and {@code cfg_out_iface} a CONFIG_OUTPUT_INTERFACE actor, each with one data port named after the
 * interface (as PREESM names it, whatever the {@code <port>} says).</li>
 * <li>{@code <data key="memoryScript">} the actor's memory script path, as written (warned about when
 * the file is absent).</li>
 * <li>{@code <port kind="input|output|cfg_input|cfg_output" name expr annotation>} ports; {@code expr} is
 * the rate, kept as text (and parsed here so syntax errors are reported at read time).</li>
 * <li>{@code <data key="graph_desc">}: a {@code .h} header (prototypes from the {@code <loop>} and
 * {@code <init>} children; the header itself is only looked for, to warn when absent) or a {@code .pi}
 * sub-graph, read recursively into {@link Refinement#getSubgraph()}. Paths are project-relative
 * ({@code Algo/x.pi}, {@code /Algo/x.pi}) or workspace paths ({@code /project/Algo/x.pi}), resolved
 * against the project of the top file as {@link PreesmProject#resolve(String)} does.</li>
 * <li>{@code <edge kind="fifo">} a {@link Fifo} ({@code type} defaults to {@code void}, as in PREESM;
 * {@code tokenBits} stays 0: sizes come from the scenario); its delay is either a {@code kind="delay"}
 * node named by {@code <data key="delay">ID</data>} (expression, {@code level} persistence, setter,
 * getter, init refinement — the node becomes {@link Delay#getActor()}, not a member of the graph's
 * actors), or, in old files, an empty {@code <data key="delay"/>} or a {@code delay} attribute with the
 * edge's expression. A FIFO into the delay node's input port ({@code set}) comes from the delay's setter
 * actor, one out of its output port ({@code get}) goes to its getter: these FIFOs stay in the graph and make
 * {@link Delay#getSetter()} / {@link Delay#getGetter()} (as PREESM derives them). In a sub-graph the setter may
 * be a source interface and the getter a sink interface (a delay fed by the enclosing graph). A {@code setter} /
 * {@code getter} attribute naming another actor, or an actor no such FIFO connects, is an error. The delay
 * node's port rates are optional (PREESM ignores them): they default to the delay's expression.</li>
 * <li>{@code <edge kind="dependency">} a {@link Dependency}: from a parameter (or an actor's config output
 * port) to a parameter, an actor's config input port, a delay (by delay node id or by PREESM's FIFO id
 * {@code src.port-tgt.port}), or an interface (which then gets a config input port named after the
 * parameter, since PREESM evaluates interface rates with parameter names).</li>
 * </ul>
 *
 * <p>Every element is {@link Located}: the line and column of its start tag; for a Parameter, a Port and a
 * Delay those of its expression's first character (see the model's documentation), so that expression
 * errors point at the offending character.
 *
 * <p>Bad input is an {@link InputException} at the offending line: malformed or truncated XML, an unknown
 * node, port, edge or annotation kind, an edge naming an unknown node or port, a duplicate name, a missing
 * or recursive sub-graph, an expression with a syntax error, a negative literal rate. Defects PREESM
 * projects live with (an absent refinement header, an actor without refinement, an unconnected port) are
 * warnings.
 *
 * <p>This class keeps the public entry points, finds the project and guards against recursive hierarchies;
 * {@link PiGraphReader} reads one file, with part readers for vertices, refinements, FIFOs and delays, and
 * dependencies.
 */
public final class PiReader {


  final PreesmProject project;
  final Diagnostics diagnostics;
  /** The .pi files being read, outermost first, to detect a graph that contains itself. */
  private final Deque<Path> reading = new ArrayDeque<>();

  private PiReader(PreesmProject project, Diagnostics diagnostics) {
    this.project = project;
    this.diagnostics = diagnostics;
  }

  /**
   * Reads {@code file} and, recursively, the sub-graphs of its hierarchical actors. The project (for
   * project-relative refinement paths) is the one containing the file, or the file's directory when it is
   * in no PREESM project.
   *
   * @param diagnostics receives warnings
   * @throws InputException for bad input, naming file, line and column
   */
  public static Graph read(Path file, Diagnostics diagnostics) {
    return read(file, projectOf(file, diagnostics), diagnostics);
  }

  /** Like {@link #read(Path, Diagnostics)}, with refinement paths resolved in the given project. */
  public static Graph read(Path file, PreesmProject project, Diagnostics diagnostics) {
    return new PiReader(project, diagnostics == null ? new Diagnostics() : diagnostics).readGraph(file, null);
  }

  private static PreesmProject projectOf(Path file, Diagnostics diagnostics) {
    Path absolute = file.toAbsolutePath().normalize();
    boolean inProject = false;
    for (Path directory = absolute.getParent(); directory != null; directory = directory.getParent()) {
      Path name = directory.getFileName();
      if (Files.isRegularFile(directory.resolve(".project")) || (name != null && name.toString().equals("Algo"))) {
        inProject = true;
        break;
      }
    }
    Path directory = absolute.getParent() == null ? absolute : absolute.getParent();
    return inProject ? PreesmProject.containing(file, diagnostics) : PreesmProject.open(directory, diagnostics);
  }

  /** Reads one .pi file (and its sub-graphs); an error when it is one of the files being read. */
  Graph readGraph(Path file, SourceLocation referencedFrom) {
    Path key = file.toAbsolutePath().normalize();
    if (reading.contains(key)) {
      List<String> chain = new ArrayList<>();
      boolean inCycle = false;
      for (Path open : (Iterable<Path>) reading::descendingIterator) {
        inCycle |= open.equals(key);
        if (inCycle) {
          chain.add(open.getFileName().toString());
        }
      }
      chain.add(key.getFileName().toString());
      throw new InputException(referencedFrom, "recursive hierarchy: " + String.join(" -> ", chain));
    }
    reading.push(key);
    try {
      return new PiGraphReader(this, file).parse();
    } finally {
      reading.pop();
    }
  }
}
