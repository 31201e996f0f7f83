package org.cacheflow.io.pisdf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.cacheflow.model.Actor;
import org.cacheflow.model.ActorKind;
import org.cacheflow.model.Delay;
import org.cacheflow.model.Dependency;
import org.cacheflow.model.Fifo;
import org.cacheflow.model.Graph;
import org.cacheflow.model.Parameter;
import org.cacheflow.model.ParameterKind;
import org.cacheflow.model.PersistenceLevel;
import org.cacheflow.model.Port;
import org.cacheflow.model.PortDirection;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.model.expression.Expression;
import org.cacheflow.model.expression.ParameterResolver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Small graphs written here, one feature or one defect each, in a project laid out like PREESM's. */
class PiReaderTest {

  @TempDir
  Path project;

  private Diagnostics diagnostics = new Diagnostics();

  private static final String HEAD = """
      <?xml version="1.0" encoding="UTF-8"?>
      <graphml xmlns="http://graphml.graphdrawing.org/xmlns">
          <key attr.name="graph_desc" attr.type="string" for="node"/>
          <graph edgedefault="directed">
              <data key="name">%s</data>
      """;
  private static final String TAIL = """
          </graph>
      </graphml>
      """;

  /** Writes Algo/NAME with the standard head (6 lines, so the body starts at line 6) and tail. */
  private Path graph(String name, String body) throws IOException {
    String graphName = name.replace(".pi", "").replace('/', '_');
    return write("Algo/" + name, HEAD.formatted(graphName) + body + TAIL);
  }

  private Path write(String relative, String text) throws IOException {
    Path file = project.resolve(relative);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text, StandardCharsets.UTF_8);
    return file;
  }

  private Graph read(Path file) {
    return PiReader.read(file, diagnostics);
  }

  private InputException failure(Path file) {
    return assertThrows(InputException.class, () -> read(file));
  }

  /** A producer and a consumer of rate n; body line numbers start at 6. */
  private static final String PIPELINE = """
              <node expr="4" id="n" kind="param"/>
              <node id="A" kind="actor">
                  <data key="graph_desc">Code/include/a.h</data>
                  <loop name="a"><param direction="OUT" isConfig="false" name="out" type="int"/></loop>
                  <port kind="cfg_input" name="n"/>
                  <port annotation="NONE" expr="n" kind="output" name="out"/>
              </node>
              <node id="B" kind="actor">
                  <data key="graph_desc">Code/include/b.h</data>
                  <loop name="b"><param direction="IN" isConfig="false" name="in" type="int"/></loop>
                  <port annotation="READ_ONLY" expr="2*n" kind="input" name="in"/>
              </node>
      """;

  private static final String PIPELINE_EDGES = """
              <edge kind="fifo" source="A" sourceport="out" target="B" targetport="in" type="int"/>
              <edge kind="dependency" source="n" target="A" targetport="n"/>
      """;

  @Test
  void readsAWellFormedGraphWithLocations() throws IOException {
    Graph graph = read(graph("pipe.pi", PIPELINE + PIPELINE_EDGES));
    assertEquals("pipe", graph.getName());
    assertEquals(2, graph.getActors().size());
    Fifo fifo = graph.getFifos().get(0);
    assertEquals("int", fifo.getType());
    assertEquals(0, fifo.getTokenBits());
    assertEquals(18, fifo.getLine());
    assertEquals(9, fifo.getColumn(), "the column of '<edge'");
    Actor a = graph.getActors().get(0);
    assertEquals(7, a.getLine());
    assertEquals(9, a.getColumn());
    Port out = a.getPorts().get(1);
    // line 11: `            <port annotation="NONE" expr="n" ...`: the rate's 'n' is at column 43
    assertEquals(11, out.getLine());
    assertEquals(43, out.getColumn());
    Parameter n = graph.getParameters().get(0);
    assertEquals(6, n.getLine());
    assertEquals(21, n.getColumn(), "the column of the value 4");
    Dependency dependency = graph.getDependencies().get(0);
    assertSame(n, dependency.getSource());
    assertSame(a.getPorts().get(0), dependency.getTargetPort());
    assertEquals(List.of(), diagnostics.warnings().stream()
        .filter(w -> !w.message().contains("refinement header")).toList());
  }

  @Test
  void truncatedXmlIsAnErrorAtTheEnd() throws IOException {
    Path file = graph("cut.pi", PIPELINE);
    String text = Files.readString(file);
    Files.writeString(file, text.substring(0, text.indexOf("<node id=\"B\"") + 20));
    InputException error = failure(file);
    assertTrue(error.getMessage().startsWith("malformed XML"), error.getMessage());
    assertEquals(13, error.location().line(), "the line where the file stops");
  }

  @Test
  void unknownNodeKindIsNamed() throws IOException {
    InputException error = failure(graph("kind.pi", """
                <node expr="4" id="n" kind="param"/>
                <node id="X" kind="actr"/>
        """));
    assertEquals(7, error.location().line());
    assertTrue(error.getMessage().startsWith("unknown node kind 'actr' for node 'X'"), error.getMessage());
  }

  @Test
  void edgeNamingAnUnknownNodeIsAnError() throws IOException {
    InputException error = failure(graph("node.pi", PIPELINE + """
                <edge kind="fifo" source="A" sourceport="out" target="C" targetport="in" type="int"/>
        """));
    assertEquals(18, error.location().line());
    assertEquals("FIFO target 'C' is not a node of graph 'node'", error.getMessage());
  }

  @Test
  void edgeNamingAnUnknownPortIsAnError() throws IOException {
    InputException error = failure(graph("port.pi", PIPELINE + """
                <edge kind="fifo" source="A" sourceport="output" target="B" targetport="in" type="int"/>
        """));
    assertEquals(18, error.location().line());
    assertEquals("FIFO source actor 'A' has no output port 'output'", error.getMessage());

    InputException dependency = failure(graph("dep.pi", PIPELINE + """
                <edge kind="dependency" source="n" target="A" targetport="m"/>
        """));
    assertEquals(18, dependency.location().line());
    assertEquals("dependency target actor 'A' has no config input port 'm'", dependency.getMessage());
  }

  @Test
  void aPortWithTwoFifosIsAnError() throws IOException {
    InputException error = failure(graph("twice.pi", PIPELINE + PIPELINE_EDGES + """
                <edge kind="fifo" source="A" sourceport="out" target="B" targetport="in" type="int"/>
        """));
    assertEquals(20, error.location().line());
    assertTrue(error.getMessage().contains("already has a FIFO (line 18)"), error.getMessage());
  }

  @Test
  void theSameDependencyWrittenTwiceIsAWarningAndCountsOnce() throws IOException {
    Graph graph = read(graph("samedep.pi", PIPELINE + PIPELINE_EDGES + """
                <edge kind="dependency" source="n" target="A" targetport="n"/>
        """));
    assertEquals(1, graph.getDependencies().size(), "the copy is left out");
    List<String> warnings = diagnostics.warnings().stream().map(w -> w.location().line() + ": " + w.message())
        .filter(w -> !w.contains("refinement header")).toList();
    assertEquals(List.of("20: dependency from 'n' to 'A' port 'n' is written twice (also at line 19); the copy is"
        + " ignored"), warnings);
  }

  @Test
  void aConfigInputFedByTwoDifferentSourcesIsAnError() throws IOException {
    InputException error = failure(graph("twodeps.pi", """
                <node expr="5" id="m" kind="param"/>
        """ + PIPELINE + PIPELINE_EDGES + """
                <edge kind="dependency" source="m" target="A" targetport="n"/>
        """));
    assertEquals(21, error.location().line());
    assertEquals("config input port 'n' of actor 'A' is fed twice, by parameter 'm' here and by parameter 'n' at"
        + " line 20; a config input takes one value", error.getMessage());
  }

  @Test
  void missingSubgraphIsReportedAtTheLineNamingIt() throws IOException {
    InputException error = failure(graph("top.pi", """
                <node id="H" kind="actor">
                    <data key="graph_desc">Algo/absent.pi</data>
                </node>
        """));
    assertEquals(7, error.location().line());
    assertEquals(36, error.location().column(), "the path's first character");
    assertTrue(error.getMessage().startsWith("sub-graph file 'Algo/absent.pi' of actor 'H' not found"),
        error.getMessage());
  }

  @Test
  void duplicateNamesAreErrors() throws IOException {
    InputException nodes = failure(graph("dup.pi", """
                <node expr="4" id="n" kind="param"/>
                <node id="n" kind="actor"/>
        """));
    assertEquals(7, nodes.location().line());
    assertEquals("duplicate node name 'n' (first used at line 6)", nodes.getMessage());

    InputException ports = failure(graph("dupport.pi", """
                <node id="A" kind="actor">
                    <port annotation="NONE" expr="1" kind="output" name="x"/>
                    <port annotation="NONE" expr="1" kind="input" name="x"/>
                </node>
        """));
    assertEquals(8, ports.location().line());
    assertEquals("actor 'A' has two ports named 'x'", ports.getMessage());
  }

  @Test
  void negativeLiteralRateIsAnError() throws IOException {
    InputException error = failure(graph("neg.pi", """
                <node id="A" kind="actor">
                    <port annotation="NONE" expr="-3" kind="output" name="out"/>
                </node>
        """));
    assertEquals(new SourceLocation(error.location().file(), 7, 43), error.location());
    assertEquals("negative rate of port 'out' of actor 'A': '-3'", error.getMessage());
  }

  @Test
  void rateSyntaxErrorPointsIntoTheAttribute() throws IOException {
    InputException error = failure(graph("syntax.pi", """
                <node id="A" kind="actor">
                    <port annotation="NONE" expr="n*/2" kind="output" name="out"/>
                </node>
        """));
    assertEquals(7, error.location().line());
    assertEquals(45, error.location().column(), "the '/' after 'n*'");
    assertTrue(error.getMessage().contains("unexpected '/'"), error.getMessage());
  }

  @Test
  void unknownPortKindAnnotationAndEdgeKindAreErrors() throws IOException {
    InputException port = failure(graph("pk.pi", """
                <node id="A" kind="actor">
                    <port annotation="NONE" expr="1" kind="outptu" name="out"/>
                </node>
        """));
    assertEquals(7, port.location().line());
    assertTrue(port.getMessage().startsWith("unknown port kind 'outptu'"), port.getMessage());
    InputException annotation = failure(graph("an.pi", """
                <node id="A" kind="actor">
                    <port annotation="READONLY" expr="1" kind="output" name="out"/>
                </node>
        """));
    assertTrue(annotation.getMessage().startsWith("unknown port annotation 'READONLY'"), annotation.getMessage());
    InputException edge = failure(graph("ek.pi", PIPELINE + """
                <edge kind="fifoo" source="A" sourceport="out" target="B" targetport="in"/>
        """));
    assertEquals(18, edge.location().line());
    assertEquals("unknown edge kind 'fifoo' (expected fifo or dependency)", edge.getMessage());
  }

  @Test
  void notAGraphmlFileIsAnError() throws IOException {
    InputException error = failure(write("Algo/other.pi", "<?xml version=\"1.0\"?>\n<scenario/>\n"));
    assertEquals(2, error.location().line());
    assertTrue(error.getMessage().startsWith("not a PiSDF graph"), error.getMessage());
  }

  @Test
  void recursiveHierarchyIsDetected() throws IOException {
    graph("a.pi", """
                <node id="B" kind="actor">
                    <data key="graph_desc">Algo/b.pi</data>
                </node>
        """);
    graph("b.pi", """
                <node id="A" kind="actor">
                    <data key="graph_desc">/Algo/a.pi</data>
                </node>
        """);
    InputException error = failure(project.resolve("Algo/a.pi"));
    assertEquals("recursive hierarchy: a.pi -> b.pi -> a.pi", error.getMessage());
    assertTrue(error.location().file().endsWith("b.pi"), error.location().toString());
    assertEquals(7, error.location().line());
  }

  @Test
  void hierarchicalActorReadsItsSubgraphByProjectOrWorkspacePath() throws IOException {
    write(".project", "<projectDescription><name>my.app</name></projectDescription>");
    graph("sub/inner.pi", """
                <node id="size" kind="cfg_in_iface"/>
                <node id="in" kind="src">
                    <port annotation="NONE" expr="size" kind="output" name="in"/>
                </node>
                <node id="W" kind="actor">
                    <port kind="cfg_input" name="size"/>
                    <port annotation="NONE" expr="size" kind="input" name="x"/>
                </node>
                <edge kind="fifo" source="in" sourceport="in" target="W" targetport="x" type="char"/>
                <edge kind="dependency" source="size" target="W" targetport="size"/>
                <edge kind="dependency" source="size" target="in"/>
        """);
    for (String path : List.of("Algo/sub/inner.pi", "/Algo/sub/inner.pi", "/my.app/Algo/sub/inner.pi")) {
      Graph top = read(graph("top.pi", """
                  <node expr="8" id="n" kind="param"/>
                  <node id="P" kind="actor">
                      <port annotation="NONE" expr="n" kind="output" name="out"/>
                  </node>
                  <node id="H" kind="actor">
                      <data key="graph_desc">%s</data>
                      <port kind="cfg_input" name="size"/>
                      <port annotation="NONE" expr="n" kind="input" name="in"/>
                  </node>
                  <edge kind="fifo" source="P" sourceport="out" target="H" targetport="in" type="char"/>
                  <edge kind="dependency" source="n" target="H" targetport="size"/>
          """.formatted(path)));
      Actor h = top.getActors().get(1);
      Graph inner = h.getRefinement().getSubgraph();
      assertNotNull(inner, path);
      assertEquals(path, h.getRefinement().getSubgraphPath());
      assertEquals(ParameterKind.CONFIG_INPUT, inner.getParameters().get(0).getKind());
      Actor source = inner.getActors().get(0);
      assertEquals(ActorKind.SOURCE_INTERFACE, source.getKind());
      assertTrue(source.getPorts().stream().anyMatch(p -> p.getDirection() == PortDirection.CONFIG_INPUT),
          "the dependency to the interface gives it a config input port");
      long n = ParameterResolver.resolve(top, Map.of(), Map.of()).get("n");
      assertEquals(8L, ParameterResolver.resolve(inner, Map.of("size", n), Map.of()).get("size"));
    }
  }

  @Test
  void hierarchicalPortWithoutInterfaceIsAnError() throws IOException {
    graph("inner.pi", """
                <node id="in" kind="src">
                    <port annotation="NONE" expr="1" kind="output" name="in"/>
                </node>
        """);
    InputException error = failure(graph("top.pi", """
                <node id="H" kind="actor">
                    <data key="graph_desc">Algo/inner.pi</data>
                    <port annotation="NONE" expr="1" kind="input" name="input"/>
                </node>
        """));
    assertEquals(8, error.location().line());
    assertTrue(error.getMessage().startsWith("port 'input' of hierarchical actor 'H' has no source (src) interface"),
        error.getMessage());
  }

  @Test
  void delayNodeGivesExpressionPersistenceAndActor() throws IOException {
    Graph graph = read(graph("delay.pi", """
                <node expr="3" id="n" kind="param"/>
                <node id="A" kind="actor">
                    <port kind="cfg_input" name="n"/>
                    <port annotation="NONE" expr="n" kind="output" name="out"/>
                    <port annotation="NONE" expr="n" kind="input" name="in"/>
                </node>
                <node expr="2*n" getter="" id="d" kind="delay" level="local" setter="">
                    <port annotation="NONE" expr="2*n" kind="input" name="set"/>
                    <port annotation="NONE" expr="2*n" kind="output" name="get"/>
                </node>
                <edge expr="2*n" kind="fifo" source="A" sourceport="out" target="A" targetport="in" type="float">
                    <data key="delay">d</data>
                </edge>
                <edge kind="dependency" source="n" target="A" targetport="n"/>
                <edge kind="dependency" source="n" target="d"/>
        """));
    Delay delay = graph.getFifos().get(0).getDelay();
    assertEquals("2*n", delay.getExpression());
    assertEquals(PersistenceLevel.LOCAL, delay.getPersistence());
    assertEquals("d", delay.getName());
    assertEquals(12, delay.getLine());
    assertEquals(21, delay.getColumn());
    assertEquals(ActorKind.DELAY, delay.getActor().getKind());
    assertEquals(1, graph.getActors().size(), "the delay node is not one of the graph's actors");
    assertSame(delay, graph.getDependencies().get(1).getTargetDelay());
    assertEquals(6, Expression.parse(delay.getExpression(), null).evaluate(Map.of("n", 3L)));
  }

  /** S sets and G gets the delay d (2*n tokens) on A -> B; line 6 is the first body line. */
  private static final String SETTER_GETTER = """
              <node expr="2" id="n" kind="param"/>
              <node id="A" kind="actor"><port annotation="NONE" expr="n" kind="output" name="out"/></node>
              <node id="B" kind="actor"><port annotation="NONE" expr="n" kind="input" name="in"/></node>
              <node id="S" kind="actor"><port annotation="NONE" expr="2*n" kind="output" name="init"/></node>
              <node id="G" kind="actor"><port annotation="NONE" expr="2*n" kind="input" name="last"/></node>
              <node expr="2*n" getter="" id="d" kind="delay" level="none" setter="%s">
                  <port kind="input" name="set"/>
                  <port annotation="NONE" expr="2*n" kind="output" name="get"/>
              </node>
              <edge kind="fifo" source="A" sourceport="out" target="B" targetport="in" type="int">
                  <data key="delay">d</data>
              </edge>
              <edge kind="fifo" source="%s" sourceport="init" target="d" targetport="set" type="int"/>
              <edge kind="fifo" source="d" sourceport="get" target="G" targetport="last" type="int"/>
      """;

  @Test
  void delaySetterAndGetterComeFromTheirFifos() throws IOException {
    // the getter attribute is empty: the FIFO out of the delay's output port names it, as in PREESM
    Graph graph = read(graph("setter.pi", SETTER_GETTER.formatted("S", "S")));
    Delay delay = graph.getFifos().get(0).getDelay();
    assertEquals("S", delay.getSetter().getName());
    assertEquals("G", delay.getGetter().getName());
    assertEquals(3, graph.getFifos().size(), "the setter and getter FIFOs stay in the graph");
    Fifo setterFifo = graph.getFifos().get(1);
    assertSame(delay.getActor(), setterFifo.getTarget().getActor());
    assertEquals("init", setterFifo.getSource().getName());
    assertEquals("2*n", setterFifo.getTarget().getRate(), "an unwritten delay port rate is the delay's size");
    assertSame(delay.getActor(), graph.getFifos().get(2).getSource().getActor());
    assertEquals(4, graph.getActors().size(), "the delay node is still no actor of the graph");
  }

  @Test
  void setterAttributeNamingAnotherActorThanItsFifoIsAnError() throws IOException {
    InputException error = failure(graph("wrongsetter.pi", SETTER_GETTER.formatted("A", "S")));
    assertEquals(18, error.location().line(), "the setter FIFO's line");
    assertTrue(error.getMessage().contains("makes 'S' the setter of delay 'd', but the delay node names 'A'"),
        error.getMessage());
  }

  @Test
  void setterAttributeWithoutAFifoIsAnError() throws IOException {
    String body = SETTER_GETTER.formatted("S", "S").replaceAll("(?m)^.*targetport=\"set\".*\n", "");
    InputException error = failure(graph("lonesetter.pi", body));
    assertEquals(11, error.location().line(), "the delay node's line");
    assertTrue(error.getMessage().contains("names 'S' as its setter but no FIFO connects it"), error.getMessage());
  }

  @Test
  void aSourceInterfaceMaySetAndASinkInterfaceGetADelay() throws IOException {
    String body = """
                <node id="I" kind="src"><port annotation="NONE" expr="4" kind="output" name="I"/></node>
                <node id="O" kind="snk"><port annotation="NONE" expr="4" kind="input" name="O"/></node>
        """ + SETTER_GETTER.formatted("", "I").replace("sourceport=\"init\"", "sourceport=\"I\"")
        .replace("target=\"G\" targetport=\"last\"", "target=\"O\" targetport=\"O\"");
    Graph graph = read(graph("ifacesetter.pi", body));
    Delay delay = graph.getFifos().get(0).getDelay();
    assertEquals(ActorKind.SOURCE_INTERFACE, delay.getSetter().getKind());
    assertEquals("I", delay.getSetter().getName());
    assertEquals(ActorKind.SINK_INTERFACE, delay.getGetter().getKind());
    assertEquals("O", delay.getGetter().getName());
  }

  @Test
  void oldDelayFormsAreExpressionsOnTheFifo() throws IOException {
    Graph graph = read(graph("old.pi", PIPELINE + """
                <node id="C" kind="actor">
                    <port annotation="NONE" expr="1" kind="output" name="out"/>
                    <port annotation="NONE" expr="1" kind="input" name="in"/>
                </node>
                <edge expr="n" kind="fifo" source="A" sourceport="out" target="B" targetport="in" type="int">
                    <data key="delay"/>
                </edge>
                <edge delay="5" kind="fifo" source="C" sourceport="out" target="C" targetport="in" type="int"/>
        """));
    Delay first = graph.getFifos().get(0).getDelay();
    assertEquals("n", first.getExpression());
    assertEquals(PersistenceLevel.PERMANENT, first.getPersistence());
    assertNull(first.getActor());
    assertEquals("5", graph.getFifos().get(1).getDelay().getExpression());
    assertEquals(25, graph.getFifos().get(1).getDelay().getLine());
    assertEquals(22, graph.getFifos().get(1).getDelay().getColumn(), "the 5 of delay=\"5\"");
  }

  @Test
  void unknownDelayNodeIsAnError() throws IOException {
    InputException error = failure(graph("nodelay.pi", PIPELINE + """
                <edge expr="n" kind="fifo" source="A" sourceport="out" target="B" targetport="in" type="int">
                    <data key="delay">missing</data>
                </edge>
        """));
    assertEquals(19, error.location().line());
    assertEquals("FIFO delay 'missing' is not a delay node of graph 'nodelay'", error.getMessage());
  }

  @Test
  void configOutputPortMakesADynamicParameter() throws IOException {
    Graph graph = read(graph("dyn.pi", """
                <node id="count" kind="param"/>
                <node id="Cfg" kind="actor">
                    <port kind="cfg_output" name="c"/>
                </node>
                <node id="W" kind="actor">
                    <port kind="cfg_input" name="count"/>
                    <port annotation="NONE" expr="count" kind="input" name="in"/>
                </node>
                <node id="out" kind="cfg_out_iface">
                    <port annotation="NONE" expr="1" kind="input" name="out"/>
                </node>
                <edge kind="dependency" source="Cfg" sourceport="c" target="count"/>
                <edge kind="dependency" source="count" target="W" targetport="count"/>
                <edge kind="dependency" source="count" target="out"/>
        """));
    Parameter count = graph.getParameters().get(0);
    assertEquals(ParameterKind.DYNAMIC, count.getKind());
    Dependency setter = graph.getDependencies().get(0);
    assertNull(setter.getSource());
    assertEquals("c", setter.getSourcePort().getName());
    assertSame(count, setter.getTargetParameter());
    assertEquals(ActorKind.CONFIG_OUTPUT_INTERFACE, graph.getActors().get(2).getKind());
  }

  @Test
  void missingHeaderAndRefinementAreWarningsNotErrors() throws IOException {
    Graph graph = read(graph("warn.pi", """
                <node id="A" kind="actor">
                    <data key="graph_desc">Code/include/absent.h</data>
                    <data key="memoryScript">Code/Scripts/absent.bsh</data>
                    <loop name="a"/>
                    <port annotation="NONE" expr="1" kind="output" name="out"/>
                </node>
                <node id="B" kind="actor">
                    <port annotation="NONE" expr="1" kind="input" name="in"/>
                </node>
                <edge kind="fifo" source="A" sourceport="out" target="B" targetport="in" type="int"/>
        """));
    assertEquals("a", graph.getActors().get(0).getRefinement().getLoopPrototype().getName());
    List<String> messages = diagnostics.warnings().stream().map(w -> w.location().line() + ": " + w.message())
        .toList();
    assertTrue(messages.contains("7: refinement header 'Code/include/absent.h' of actor 'A' not found; using the"
        + " prototypes written in the .pi"), messages.toString());
    assertTrue(messages.contains("12: actor 'B' has no refinement (<data key=\"graph_desc\">)"), messages.toString());
    assertTrue(messages.stream().anyMatch(m -> m.startsWith("8: memory script 'Code/Scripts/absent.bsh' of actor 'A'"
        + " not found")), messages.toString());
    assertEquals("Code/Scripts/absent.bsh", graph.getActors().get(0).getMemoryScript());
  }

  @Test
  void existingHeaderGivesNoWarning() throws IOException {
    write("Code/include/a.h", "void a(int *out);\n");
    write("Code/include/b.h", "void b(int *in);\n");
    read(graph("quiet.pi", PIPELINE + PIPELINE_EDGES));
    assertEquals(List.of(), diagnostics.warnings());
  }
}
