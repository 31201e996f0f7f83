package org.cacheflow.io.scenario;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.cacheflow.io.xml.LocatedXmlReader;
import org.cacheflow.io.xml.XmlElement;
import org.cacheflow.model.DataType;
import org.cacheflow.model.Located;
import org.cacheflow.model.MappingConstraint;
import org.cacheflow.model.ModelFactory;
import org.cacheflow.model.ParameterValue;
import org.cacheflow.model.Scenario;
import org.cacheflow.model.Timing;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * Reads a PREESM {@code .scenario} file (the XML written by PREESM's ScenarioWriter, old and new
 * variants) into a {@link Scenario}.
 *
 * <p>Sections read, under the root {@code <scenario>}:
 * <ul>
 * <li>{@code <flags><sizesAreInBit/>}: data type sizes are in bits; without it they are in bytes (scenarios
 * from PREESM before 3.0), which is recorded in {@link Scenario#isSizesAreInBit()} and warned about.</li>
 * <li>{@code <files>}: {@code algorithm}, {@code architecture} and {@code codegenDirectory} {@code url}s,
 * kept as written (workspace paths such as {@code /project/Algo/top.pi}; see the project package).</li>
 * <li>{@code <constraints><constraintGroup>}: an {@code <operator name>} (a core) and the
 * {@code <task name>} actor paths it may run; groups naming the same core are merged.</li>
 * <li>{@code <timings><timing vertexname opname time [timingtype]>}: actor path, core type, expression.
 * Only execution times are kept: a {@code timingtype} other than {@code EXECUTION_TIME} (absent in old
 * scenarios, meaning execution time) is skipped.</li>
 * <li>{@code <simuParams>}: {@code mainCore}, {@code dataTypes/dataType name size} and
 * {@code specialVertexOperators/specialVertexOperator path}.</li>
 * <li>{@code <parameterValues><parameter name parent value [type]>}: overrides. The old {@code type}
 * attribute is accepted. A value set such as {@code [1, 2, 4]} (PREESM's {@code DYNAMIC} parameters): a set
 * of one value is that value; a set of several is kept in {@link ScenarioFile#valueSets()}, and the user
 * chooses one value with {@code --param} ({@link ScenarioFile#parameterOverrides}).</li>
 * </ul>
 * Sections PREESM uses only for simulation or measurement ({@code papifyConfigs}, {@code energyConfigs},
 * {@code memcpyspeed}, the deprecated {@code variables} and {@code relativeconstraints}) are ignored; an
 * unknown section is ignored with a warning.
 */
public final class ScenarioReader {

  private static final Set<String> IGNORED_SECTIONS =
      Set.of("papifyConfigs", "energyConfigs", "variables", "relativeconstraints");

  private final Path file;
  private final Diagnostics diagnostics;
  private final ModelFactory factory = ModelFactory.eINSTANCE;
  private final Scenario scenario;
  private final Map<String, MappingConstraint> constraintsByCore = new LinkedHashMap<>();
  private final Map<String, DataType> dataTypesByName = new LinkedHashMap<>();
  private final List<String> specialVertexOperators = new ArrayList<>();
  private final List<ValueSet> valueSets = new ArrayList<>();
  private ScenarioSetting algorithm;
  private ScenarioSetting architecture;
  private ScenarioSetting codegenDirectory;
  private ScenarioSetting mainCore;

  private ScenarioReader(Path file, Diagnostics diagnostics) {
    this.file = file;
    this.diagnostics = diagnostics;
    this.scenario = factory.createScenario();
  }

  /** Reads {@code file} into a model scenario; see {@link #readFile} for the settings it leaves out. */
  public static Scenario read(Path file, Diagnostics diagnostics) {
    return readFile(file, diagnostics).scenario();
  }

  /** Reads {@code file}; warnings go to {@code diagnostics}, errors are thrown as {@link InputException}. */
  public static ScenarioFile readFile(Path file, Diagnostics diagnostics) {
    return new ScenarioReader(file, diagnostics).readRoot(LocatedXmlReader.read(file));
  }

  private ScenarioFile readRoot(XmlElement root) {
    if (!root.name().equals("scenario")) {
      throw root.error("not a PREESM scenario: the root element is <" + root.name() + ">, expected <scenario>");
    }
    locate(scenario, root.location());
    for (XmlElement section : root.children()) {
      switch (section.name()) {
        case "flags" -> scenario.setSizesAreInBit(section.child("sizesAreInBit").isPresent());
        case "files" -> readFiles(section);
        case "constraints" -> readConstraints(section);
        case "timings" -> readTimings(section);
        case "simuParams" -> readSimulationParameters(section);
        case "parameterValues" -> readParameterValues(section);
        default -> {
          if (!IGNORED_SECTIONS.contains(section.name())) {
            diagnostics.warn(section.location(), "unknown scenario section <" + section.name() + "> ignored");
          }
        }
      }
    }
    scenario.getConstraints().addAll(constraintsByCore.values());
    scenario.getDataTypes().addAll(dataTypesByName.values());
    if (!scenario.isSizesAreInBit() && !scenario.getDataTypes().isEmpty()) {
      diagnostics.warn(root.location(), "the scenario has no <flags><sizesAreInBit/></flags>: its data type sizes"
          + " are read as bytes (a scenario written by PREESM before sizes were in bits)");
    }
    return new ScenarioFile(file, scenario, Optional.ofNullable(algorithm), Optional.ofNullable(architecture),
        Optional.ofNullable(codegenDirectory), Optional.ofNullable(mainCore), specialVertexOperators, valueSets);
  }

  private void readFiles(XmlElement files) {
    for (XmlElement reference : files.children()) {
      String url = reference.attribute("url").map(String::trim).orElse("");
      if (url.isEmpty()) {
        continue;
      }
      ScenarioSetting setting = new ScenarioSetting(url, reference.location());
      switch (reference.name()) {
        case "algorithm" -> {
          algorithm = setting;
          scenario.setAlgorithmPath(url);
        }
        case "architecture" -> {
          architecture = setting;
          scenario.setArchitecturePath(url);
        }
        case "codegenDirectory" -> {
          codegenDirectory = setting;
          scenario.setCodegenDirectory(url);
        }
        default -> diagnostics.warn(reference.location(), "unknown file reference <" + reference.name()
            + "> in <files> ignored");
      }
    }
  }

  private void readConstraints(XmlElement constraints) {
    for (XmlElement group : constraints.children("constraintGroup")) {
      List<XmlElement> operators = group.children("operator");
      if (operators.isEmpty()) {
        diagnostics.warn(group.location(), "<constraintGroup> names no <operator>; ignored");
        continue;
      }
      if (operators.size() > 1) {
        diagnostics.warn(operators.get(1).location(),
            "<constraintGroup> names several operators; only the first one is used");
      }
      String core = operators.get(0).requireAttribute("name").trim();
      MappingConstraint constraint = constraintsByCore.computeIfAbsent(core, name -> {
        MappingConstraint created = factory.createMappingConstraint();
        locate(created, group.location());
        created.setCoreName(name);
        return created;
      });
      for (XmlElement task : group.children("task")) {
        String path = task.requireAttribute("name").trim();
        if (!constraint.getActorPaths().contains(path)) {
          constraint.getActorPaths().add(path);
        }
      }
    }
  }

  private void readTimings(XmlElement timings) {
    for (XmlElement element : timings.children("timing")) {
      String timingType = element.attribute("timingtype").map(String::trim).orElse("");
      if (!timingType.isEmpty() && !timingType.equals("EXECUTION_TIME")) {
        continue;
      }
      Timing timing = factory.createTiming();
      locate(timing, element.location());
      timing.setActorPath(element.requireAttribute("vertexname").trim());
      timing.setCoreType(element.requireAttribute("opname").trim());
      timing.setExpression(element.requireAttribute("time").trim());
      scenario.getTimings().add(timing);
    }
  }

  private void readSimulationParameters(XmlElement simulation) {
    for (XmlElement setting : simulation.children()) {
      switch (setting.name()) {
        case "mainCore" -> {
          if (!setting.text().isEmpty()) {
            mainCore = new ScenarioSetting(setting.text(), setting.location());
          }
        }
        case "dataTypes" -> readDataTypes(setting);
        case "specialVertexOperators" -> {
          for (XmlElement operator : setting.children("specialVertexOperator")) {
            specialVertexOperators.add(operator.requireAttribute("path").trim());
          }
        }
        default -> {
          // mainComNode, averageDataSize, numberOfTopExecutions only matter to PREESM's simulator
        }
      }
    }
  }

  private void readDataTypes(XmlElement dataTypes) {
    for (XmlElement element : dataTypes.children("dataType")) {
      String name = element.requireAttribute("name").trim();
      String sizeText = element.requireAttribute("size").trim();
      long size;
      try {
        size = Long.parseLong(sizeText);
      } catch (NumberFormatException e) {
        throw element.error("size of data type '" + name + "' is '" + sizeText + "', not a whole number");
      }
      if (size <= 0) {
        throw element.error("size of data type '" + name + "' is " + size + "; it must be positive");
      }
      DataType dataType = factory.createDataType();
      locate(dataType, element.location());
      dataType.setName(name);
      dataType.setSize(size);
      DataType previous = dataTypesByName.put(name, dataType);
      if (previous != null) {
        diagnostics.warn(element.location(), "data type '" + name + "' is defined twice; the last size ("
            + size + ") is used");
      }
    }
  }

  private void readParameterValues(XmlElement parameterValues) {
    for (XmlElement element : parameterValues.children("parameter")) {
      String name = element.requireAttribute("name").trim();
      String parent = element.requireAttribute("parent").trim();
      String value = element.attribute("value").map(String::trim).orElse("");
      if (value.isEmpty()) {
        throw element.error("parameter '" + name + "' of '" + parent + "' has no value");
      }
      if (value.startsWith("[")) {
        List<String> values = valueSet(element, name, parent, value);
        if (values.size() > 1) {
          valueSets.add(new ValueSet(parent, name, values, element.location()));
          continue;
        }
        value = values.get(0);
      }
      ParameterValue override = factory.createParameterValue();
      locate(override, element.location());
      override.setParentPath(parent);
      override.setParameterName(name);
      override.setExpression(value);
      scenario.getParameterValues().add(override);
    }
  }

  /** The values of a set {@code [a, b, ...]} (PREESM's dynamic parameters), at least one. */
  private static List<String> valueSet(XmlElement element, String name, String parent, String text) {
    if (!text.endsWith("]")) {
      throw element.error("parameter '" + name + "' of '" + parent + "' has the value '" + text
          + "', which opens a set of values with '[' but does not close it with ']'");
    }
    List<String> values = new ArrayList<>();
    for (String part : text.substring(1, text.length() - 1).split(",")) {
      if (!part.isBlank()) {
        values.add(part.trim());
      }
    }
    if (values.isEmpty()) {
      throw element.error("parameter '" + name + "' of '" + parent + "' is given an empty set of values " + text);
    }
    return values;
  }

  private static void locate(Located element, SourceLocation location) {
    element.setFile(location.file());
    element.setLine(location.line());
    element.setColumn(location.column());
  }
}
