package org.cacheflow.model.expression;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.cacheflow.model.Graph;
import org.cacheflow.model.ModelFactory;
import org.cacheflow.model.Parameter;
import org.cacheflow.model.ParameterKind;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.junit.jupiter.api.Test;

class ParameterResolverTest {

  private final Graph graph = ModelFactory.eINSTANCE.createGraph();
  private int nextLine = 10;

  ParameterResolverTest() {
    graph.setName("top");
  }

  /** A parameter whose expression starts at column 20 of its own line. */
  private Parameter parameter(String name, ParameterKind kind, String expression) {
    Parameter parameter = ModelFactory.eINSTANCE.createParameter();
    parameter.setName(name);
    parameter.setKind(kind);
    parameter.setExpression(expression);
    parameter.setFile("top.pi");
    parameter.setLine(nextLine++);
    parameter.setColumn(20);
    graph.getParameters().add(parameter);
    return parameter;
  }

  private Parameter parameter(String name, String expression) {
    return parameter(name, ParameterKind.STATIC, expression);
  }

  @Test
  void resolvesInDependencyOrderAndAnswersInDeclarationOrder() {
    parameter("size", "height*width");
    parameter("sliceHeight", "height/nbSlice+2");
    parameter("height", "16");
    parameter("width", "10");
    parameter("nbSlice", "4");
    Map<String, Long> values = ParameterResolver.resolve(graph, Map.of(), Map.of());
    assertEquals(List.of("size", "sliceHeight", "height", "width", "nbSlice"), List.copyOf(values.keySet()));
    assertEquals(160L, values.get("size"));
    assertEquals(6L, values.get("sliceHeight"));
  }

  @Test
  void parametersAreRoundedBeforeOtherParametersReadThemAsInPreesm() {
    parameter("half", "5/2");
    parameter("twice", "half*2");
    Map<String, Long> values = ParameterResolver.resolve(graph, Map.of(), Map.of());
    assertEquals(3L, values.get("half"));
    assertEquals(6L, values.get("twice"), "3*2, not 2.5*2");
  }

  @Test
  void configInputsComeFromTheParentAndOverridesReplaceExpressions() {
    parameter("height", ParameterKind.CONFIG_INPUT, null);
    parameter("nbSlice", "8");
    parameter("sliceHeight", "height/nbSlice");
    Map<String, Long> values = ParameterResolver.resolve(graph, Map.of("height", 64L), Map.of("nbSlice", "2*2"));
    assertEquals(64L, values.get("height"));
    assertEquals(4L, values.get("nbSlice"));
    assertEquals(16L, values.get("sliceHeight"));
  }

  @Test
  void dynamicParameterTakesItsScenarioValue() {
    parameter("count", ParameterKind.DYNAMIC, "");
    parameter("total", "count*3");
    assertEquals(15L, ParameterResolver.resolve(graph, Map.of(), Map.of("count", "5")).get("total"));
    InputException error = assertThrows(InputException.class,
        () -> ParameterResolver.resolve(graph, Map.of(), Map.of()));
    assertEquals("dynamic parameter 'count' has no value: give one in the scenario", error.getMessage());
  }

  @Test
  void missingConfigInputIsAnError() {
    parameter("height", ParameterKind.CONFIG_INPUT, null);
    InputException error = assertThrows(InputException.class,
        () -> ParameterResolver.resolve(graph, Map.of("width", 3L), Map.of()));
    assertTrue(error.getMessage().startsWith(
        "config input parameter 'height' of graph 'top' has no value from its parent graph"), error.getMessage());
    assertTrue(error.getMessage().contains("--param height=VALUE"), error.getMessage());
    assertEquals(new SourceLocation("top.pi", 10, 0), error.location());
  }

  @Test
  void undefinedParameterIsNamedAtItsColumn() {
    parameter("width", "10");
    parameter("size", "width*heigth");
    InputException error = assertThrows(InputException.class,
        () -> ParameterResolver.resolve(graph, Map.of(), Map.of()));
    assertEquals("undefined parameter 'heigth' in the value 'width*heigth' of parameter 'size' (graph 'top')",
        error.getMessage());
    assertEquals(new SourceLocation("top.pi", 11, 26), error.location());
  }

  @Test
  void cycleIsNamedFromItsFirstParameter() {
    parameter("a", "b+1");
    parameter("b", "c*2");
    parameter("c", "a");
    parameter("d", "1");
    InputException error = assertThrows(InputException.class,
        () -> ParameterResolver.resolve(graph, Map.of(), Map.of()));
    assertEquals("cyclic parameter dependency: a -> b -> c -> a", error.getMessage());
    assertEquals(10, error.location().line());
  }

  @Test
  void selfReferenceIsACycle() {
    parameter("a", "a+1");
    InputException error = assertThrows(InputException.class,
        () -> ParameterResolver.resolve(graph, Map.of(), Map.of()));
    assertEquals("cyclic parameter dependency: a -> a", error.getMessage());
  }

  @Test
  void divisionByZeroNamesTheOperation() {
    parameter("zero", "0");
    parameter("bad", "8/zero");
    InputException error = assertThrows(InputException.class,
        () -> ParameterResolver.resolve(graph, Map.of(), Map.of()));
    assertEquals("division by zero in '8/zero'", error.getMessage());
    assertEquals(new SourceLocation("top.pi", 11, 21), error.location());
  }

  @Test
  void overrideOfAnUnknownParameterAndBadOverrideTextAreErrors() {
    parameter("width", "10");
    InputException unknown = assertThrows(InputException.class,
        () -> ParameterResolver.resolve(graph, Map.of(), Map.of("widht", "3")));
    assertTrue(unknown.getMessage().contains("'widht', which graph 'top' does not have"), unknown.getMessage());
    InputException syntax = assertThrows(InputException.class,
        () -> ParameterResolver.resolve(graph, Map.of(), Map.of("width", "3+")));
    assertEquals(new SourceLocation("top.pi", 10, 0), syntax.location(),
        "an override's text is not at the parameter's column");
  }

  @Test
  void parsedOverridesKeepTheirOwnLocation() {
    parameter("width", "10");
    SourceLocation inScenario = new SourceLocation("app.scenario", 7, 30);
    InputException error = assertThrows(InputException.class, () -> ParameterResolver.resolveParsed(graph,
        Map.of(), Map.of("width", Expression.parse("4/(2-2)", inScenario))));
    assertEquals(new SourceLocation("app.scenario", 7, 31), error.location());
  }
}
