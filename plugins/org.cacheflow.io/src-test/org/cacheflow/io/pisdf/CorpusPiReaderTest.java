package org.cacheflow.io.pisdf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.cacheflow.model.Actor;
import org.cacheflow.model.Dependency;
import org.cacheflow.model.Fifo;
import org.cacheflow.model.Graph;
import org.cacheflow.model.Parameter;
import org.cacheflow.model.Port;
import org.cacheflow.model.PortDirection;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.expression.Expression;
import org.junit.jupiter.api.Test;

/** Every PiSDF graph of the corpus reads, and what is read is consistent. */
class CorpusPiReaderTest {

  static List<Path> corpusGraphs() throws IOException {
    Path apps = PiCorpus.directory().resolve("preesm-apps");
    try (Stream<Path> files = Files.walk(apps)) {
      return files.filter(file -> file.toString().endsWith(".pi"))
          .filter(file -> apps.relativize(file).getName(1).toString().equals("Algo")).sorted().toList();
    }
  }

  @Test
  void everyCorpusGraphReadsWithoutError() throws IOException {
    List<Path> graphs = corpusGraphs();
    assertTrue(graphs.size() >= 50, "expected the corpus's 52 graphs, found " + graphs.size());
    List<String> failures = new ArrayList<>();
    for (Path file : graphs) {
      Diagnostics diagnostics = new Diagnostics();
      try {
        Graph graph = PiReader.read(file, diagnostics);
        checkConsistent(graph);
      } catch (InputException e) {
        failures.add(e.describe());
      }
      // the corpus lacks its headers on purpose, largeFFT's actors have memory scripts but no refinement and
      // stabilization writes a dependency twice (see below); anything else warned about would be a reader defect
      for (Diagnostics.Warning warning : diagnostics.warnings()) {
        boolean known = warning.message().startsWith("refinement header '")
            || warning.message().endsWith(" has no refinement (<data key=\"graph_desc\">)")
            || (warning.message().contains(" is written twice ")
                && file.toString().endsWith("stabilization/Algo/top.pi"));
        if (!known) {
          failures.add("unexpected warning: " + warning);
        }
      }
    }
    if (!failures.isEmpty()) {
      fail(failures.size() + " corpus graphs failed:\n" + String.join("\n", failures));
    }
  }

  /** stabilization's top graph writes the dependency width -> displayWidth twice: one warning at the copy. */
  @Test
  void stabilizationsDependencyWrittenTwiceIsOneWarning() throws IOException {
    Path file = PiCorpus.directory().resolve("preesm-apps/org.ietr.preesm.stabilization/Algo/top.pi");
    List<String> lines = Files.readAllLines(file);
    List<Integer> written = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).trim().equals("<edge kind=\"dependency\" source=\"width\" target=\"displayWidth\"/>")) {
        written.add(i + 1);
      }
    }
    assertEquals(2, written.size(), "the corpus file changed: " + written);
    Diagnostics diagnostics = new Diagnostics();
    Graph graph = PiReader.read(file, diagnostics);
    List<Diagnostics.Warning> twice = diagnostics.warnings().stream()
        .filter(w -> w.message().contains("is written twice")).toList();
    assertEquals(1, twice.size(), twice.toString());
    assertEquals(written.get(1), twice.get(0).location().line());
    assertEquals("dependency from 'width' to 'displayWidth' is written twice (also at line " + written.get(0)
        + "); the copy is ignored", twice.get(0).message());
    assertEquals(1, graph.getDependencies().stream().filter(d -> d.getSource().getName().equals("width")
        && d.getTargetParameter() != null && d.getTargetParameter().getName().equals("displayWidth")).count());
  }

  /** Structural invariants of a read graph and, recursively, its sub-graphs. */
  static void checkConsistent(Graph graph) {
    assertFalse(graph.getName() == null || graph.getName().isEmpty(), "graph without name");
    for (Parameter parameter : graph.getParameters()) {
      assertTrue(parameter.getLine() > 0, "parameter " + parameter.getName() + " has no line");
      if (parameter.getExpression() != null) {
        Expression.parse(parameter.getExpression(), null);
      }
    }
    for (Fifo fifo : graph.getFifos()) {
      assertEquals(PortDirection.OUTPUT, fifo.getSource().getDirection());
      assertEquals(PortDirection.INPUT, fifo.getTarget().getDirection());
      assertSame(fifo, fifo.getSource().getFifo());
      assertSame(fifo, fifo.getTarget().getFifo());
      assertEquals(0, fifo.getTokenBits(), "token sizes come from the scenario");
      assertNotNull(fifo.getType());
      assertTrue(fifo.getLine() > 0);
      if (fifo.getDelay() != null) {
        assertNotNull(fifo.getDelay().getExpression());
      }
    }
    for (Dependency dependency : graph.getDependencies()) {
      assertTrue(dependency.getSource() != null || dependency.getSourcePort() != null);
      int targets = (dependency.getTargetParameter() == null ? 0 : 1) + (dependency.getTargetPort() == null ? 0 : 1)
          + (dependency.getTargetDelay() == null ? 0 : 1);
      assertEquals(1, targets, "a dependency has exactly one target");
    }
    for (Actor actor : graph.getActors()) {
      assertTrue(actor.getLine() > 0 && actor.getColumn() > 0, actor.getName() + " has no location");
      for (Port port : actor.getPorts()) {
        assertSame(actor, port.getActor());
        if (port.getDirection() == PortDirection.INPUT || port.getDirection() == PortDirection.OUTPUT) {
          Expression.parse(port.getRate(), null);
        }
      }
      if (actor.getRefinement() != null && actor.getRefinement().getSubgraph() != null) {
        checkConsistent(actor.getRefinement().getSubgraph());
      }
    }
  }
}
