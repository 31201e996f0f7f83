package org.cacheflow.io.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.cacheflow.io.project.TestCorpus;
import org.cacheflow.model.DataType;
import org.cacheflow.model.MappingConstraint;
import org.cacheflow.model.ParameterValue;
import org.cacheflow.model.Scenario;
import org.cacheflow.model.Timing;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScenarioReaderTest {

  @TempDir
  Path temp;

  private Path write(String text) throws IOException {
    Path file = temp.resolve("test.scenario");
    Files.writeString(file, text);
    return file;
  }

  private static Map<String, Long> sizes(Scenario scenario) {
    return scenario.getDataTypes().stream().collect(Collectors.toMap(DataType::getName, DataType::getSize));
  }

  @Test
  void everyCorpusScenarioReads() {
    List<Path> files = TestCorpus.files("preesm-apps", ".scenario");
    assertTrue(files.size() >= 50, "the corpus has about 52 scenarios, found " + files.size());
    for (Path file : files) {
      ScenarioFile scenario = ScenarioReader.readFile(file, new Diagnostics());
      assertTrue(scenario.algorithm().isPresent(), file + " names an algorithm");
      assertTrue(scenario.architecture().isPresent(), file + " names an architecture");
      assertTrue(scenario.scenario().isSizesAreInBit(), file + " sizes are in bits");
    }
  }

  @Test
  void stereoFourCoreHandChecked() {
    Path file = TestCorpus.preesmApp("org.ietr.preesm.stereo").resolve("Scenarios/4core.scenario");
    Diagnostics diagnostics = new Diagnostics();
    ScenarioFile read = ScenarioReader.readFile(file, diagnostics);
    Scenario scenario = read.scenario();

    assertTrue(scenario.isSizesAreInBit());
    assertEquals(Map.of("int", 32L, "uchar", 8L, "float", 32L), sizes(scenario));
    assertEquals("/org.ietr.preesm.stereo/Algo/stereo_top.pi", scenario.getAlgorithmPath());
    assertEquals("/org.ietr.preesm.stereo/Archi/4CoreX86.slam", scenario.getArchitecturePath());
    assertEquals("/org.ietr.preesm.stereo/Code/generated", scenario.getCodegenDirectory());
    assertEquals(TestCorpus.lineContaining(file, "<algorithm url="), read.algorithm().orElseThrow().location().line());
    assertEquals("Core0", read.mainCore().orElseThrow().value());
    assertEquals(List.of("Core3", "Core2", "Core1", "Core0"), read.specialVertexOperators());

    assertEquals(List.of("Core3", "Core1", "Core0", "Core2"),
        scenario.getConstraints().stream().map(MappingConstraint::getCoreName).toList());
    MappingConstraint core0 = scenario.getConstraints().get(2);
    assertEquals(36, core0.getActorPaths().size());
    assertTrue(core0.getActorPaths().contains("stereo_top/Read_PPM0"));
    assertFalse(scenario.getConstraints().get(0).getActorPaths().contains("stereo_top/Read_PPM0"),
        "only Core0 may read the input files");

    assertEquals(10, scenario.getTimings().size());
    Timing first = scenario.getTimings().get(0);
    assertEquals("stereo_top/Read_PPM1", first.getActorPath());
    assertEquals("x86", first.getCoreType());
    assertEquals("4452", first.getExpression());
    assertTrue(scenario.getParameterValues().isEmpty());
    assertTrue(diagnostics.isEmpty(), diagnostics.warnings().toString());
  }

  @Test
  void sobelMorphoParameterOverrideAndTypedTimings() {
    Path file = TestCorpus.preesmApp("org.ietr.preesm.sobel-morpho").resolve("Scenarios/4core.scenario");
    Scenario scenario = ScenarioReader.read(file, new Diagnostics());
    ParameterValue slices = scenario.getParameterValues().get(0);
    assertEquals("sobel_morpho", slices.getParentPath());
    assertEquals("nbSlice", slices.getParameterName());
    assertEquals("4", slices.getExpression());
    assertEquals(TestCorpus.lineContaining(file, "name=\"nbSlice\""), slices.getLine());
    assertTrue(scenario.getTimings().stream().anyMatch(timing -> timing.getActorPath().equals("sobel_morpho/Split")
        && timing.getExpression().equals("1")));
  }

  @Test
  void olderScenarioWithoutBitFlagHasByteSizesAndAWarning() throws IOException {
    Path file = write("""
        <?xml version="1.0" encoding="UTF-8"?>
        <scenario>
            <files>
                <algorithm url="/app/Algo/top.pi"/>
                <architecture url="/app/Archi/4CoreX86.slam"/>
                <codegenDirectory url=""/>
            </files>
            <constraints excelUrl="">
                <constraintGroup><operator name="Core0"/><task name="top/A"/></constraintGroup>
                <constraintGroup><operator name="Core0"/><task name="top/B"/><task name="top/A"/></constraintGroup>
            </constraints>
            <relativeconstraints excelUrl=""/>
            <timings excelUrl="">
                <timing opname="x86" time="100" vertexname="A"/>
                <timing opname="x86" time="7" timingtype="INITIATION_INTERVAL" vertexname="A"/>
                <memcpyspeed opname="x86" setuptime="1" timeperunit="1.0E-8"/>
            </timings>
            <simuParams>
                <mainCore>Core1</mainCore>
                <numberOfTopExecutions>1</numberOfTopExecutions>
                <dataTypes><dataType name="char" size="1"/><dataType name="int" size="4"/></dataTypes>
            </simuParams>
            <variables excelUrl=""/>
            <parameterValues>
                <parameter name="N" parent="top" type="STATIC" value="8"/>
                <parameter name="M" parent="top" type="DYNAMIC" value="[1, 2, 4]"/>
                <parameter name="K" parent="top/sub" type="DEPENDENT" value="N*2"/>
            </parameterValues>
        </scenario>
        """);
    Diagnostics diagnostics = new Diagnostics();
    ScenarioFile read = ScenarioReader.readFile(file, diagnostics);
    Scenario scenario = read.scenario();

    assertFalse(scenario.isSizesAreInBit());
    assertEquals(Map.of("char", 1L, "int", 4L), sizes(scenario));
    assertTrue(read.codegenDirectory().isEmpty(), "an empty url is no reference");
    assertEquals(1, scenario.getConstraints().size(), "groups of one core are merged");
    assertEquals(List.of("top/A", "top/B"), scenario.getConstraints().get(0).getActorPaths());
    assertEquals(1, scenario.getTimings().size(), "only execution times are kept");
    assertEquals("Core1", read.mainCore().orElseThrow().value());
    assertEquals(List.of("N", "K"), scenario.getParameterValues().stream()
        .map(ParameterValue::getParameterName).toList());
    assertEquals("N*2", scenario.getParameterValues().get(1).getExpression());

    String warnings = diagnostics.warnings().toString();
    assertTrue(warnings.contains("read as bytes"), warnings);
    assertEquals(1, diagnostics.warnings().size(), warnings);
    assertEquals(1, read.valueSets().size(), "M's set of values waits for --param");
    assertEquals(List.of("1", "2", "4"), read.valueSets().get(0).values());
  }

  /** PREESM's dynamic parameters: {@code value="[...]"}, line 4 for the first parameter. */
  private Path valueSets(String first, String second) throws IOException {
    return write("""
        <scenario>
          <flags><sizesAreInBit/></flags>
          <parameterValues>
            <parameter name="nbSlice" parent="top" type="DYNAMIC" value="%s"/>
            <parameter name="height" parent="top/sub" type="DYNAMIC" value="%s"/>
          </parameterValues>
        </scenario>
        """.formatted(first, second));
  }

  @Test
  void aSetOfOneValueIsThatValue() throws IOException {
    Diagnostics diagnostics = new Diagnostics();
    ScenarioFile read = ScenarioReader.readFile(valueSets("[1]", "[ 270 ]"), diagnostics);
    assertEquals(List.of("1", "270"), read.scenario().getParameterValues().stream()
        .map(ParameterValue::getExpression).toList());
    assertEquals(List.of(), read.valueSets());
    assertEquals(Map.of("top/nbSlice", "1", "top/sub/height", "270"), read.parameterOverrides(Map.of()));
    assertTrue(diagnostics.isEmpty(), diagnostics.warnings().toString());
  }

  @Test
  void aSetOfSeveralValuesNeedsAChoiceAndTheErrorListsThem() throws IOException {
    ScenarioFile read = ScenarioReader.readFile(valueSets("[1, 2, 4]", "[270]"), new Diagnostics());
    InputException error = assertThrows(InputException.class, () -> read.parameterOverrides(Map.of()));
    assertEquals(4, error.location().line());
    assertTrue(error.location().file().toString().endsWith("test.scenario"), error.location().toString());
    assertEquals("parameter 'nbSlice' of 'top' is given several values [1, 2, 4] (a PREESM dynamic parameter);"
        + " code is generated for one value: choose it with --param nbSlice=VALUE (one of 1, 2, 4)",
        error.getMessage());
    // the command line's choice, by plain or qualified name, settles it and wins
    assertEquals(Map.of("top/sub/height", "270", "nbSlice", "2"), read.parameterOverrides(Map.of("nbSlice", "2")));
    assertEquals("4", read.parameterOverrides(Map.of("top/nbSlice", "4")).get("top/nbSlice"));
  }

  @Test
  void anEmptyOrUnclosedSetIsAnError() throws IOException {
    InputException empty = assertThrows(InputException.class,
        () -> ScenarioReader.readFile(valueSets("[ ]", "1"), new Diagnostics()));
    assertEquals(4, empty.location().line());
    assertTrue(empty.getMessage().contains("is given an empty set of values [ ]"), empty.getMessage());
    InputException unclosed = assertThrows(InputException.class,
        () -> ScenarioReader.readFile(valueSets("1", "[1, 2"), new Diagnostics()));
    assertEquals(5, unclosed.location().line());
    assertTrue(unclosed.getMessage().contains("does not close it with ']'"), unclosed.getMessage());
  }

  @Test
  void badDataTypeSizeIsAnErrorAtItsLine() throws IOException {
    Path file = write("""
        <scenario>
          <simuParams>
            <dataTypes>
              <dataType name="int" size="four"/>
            </dataTypes>
          </simuParams>
        </scenario>
        """);
    InputException error = assertThrows(InputException.class, () -> ScenarioReader.read(file, new Diagnostics()));
    assertEquals("size of data type 'int' is 'four', not a whole number", error.getMessage());
    assertEquals(4, error.location().line());
  }

  @Test
  void timingWithoutTimeIsAnError() throws IOException {
    Path file = write("<scenario>\n<timings>\n<timing opname=\"x86\" "
        + "vertexname=\"top/A\"/>\n</timings>\n</scenario>\n");
    InputException error = assertThrows(InputException.class, () -> ScenarioReader.read(file, new Diagnostics()));
    assertEquals("<timing> has no 'time' attribute", error.getMessage());
    assertEquals(3, error.location().line());
  }

  @Test
  void otherRootElementIsRejected() throws IOException {
    Path file = write("<workflow/>\n");
    InputException error = assertThrows(InputException.class, () -> ScenarioReader.read(file, new Diagnostics()));
    assertTrue(error.getMessage().contains("expected <scenario>"), error.getMessage());
  }
}
