package org.cacheflow.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;

import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.junit.jupiter.api.Test;

class SourceLocationTest {

  @Test
  void printsFileLineColumnAndOmitsUnknownParts() {
    assertEquals("a.pi:3:7", SourceLocation.of(Path.of("a.pi"), 3, 7).toString());
    assertEquals("a.pi:3", SourceLocation.of(Path.of("a.pi"), 3, 0).toString());
    assertEquals("a.pi", SourceLocation.file(Path.of("a.pi")).toString());
  }

  @Test
  void inputExceptionDescribesItselfWithLocation() {
    InputException error = new InputException(SourceLocation.of(Path.of("g.pi"), 12, 5), "undefined parameter 'w'");
    assertEquals("g.pi:12:5: undefined parameter 'w'", error.describe());
  }

  @Test
  void modelFactoryCreatesGraphWithContainedActors() {
    Graph graph = ModelFactory.eINSTANCE.createGraph();
    Actor actor = ModelFactory.eINSTANCE.createActor();
    graph.getActors().add(actor);
    assertEquals(graph, actor.getGraph());
  }
}
