package org.cacheflow.io.project;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import org.cacheflow.io.scenario.ScenarioChecker;
import org.cacheflow.io.scenario.ScenarioFile;
import org.cacheflow.io.scenario.ScenarioReader;
import org.cacheflow.io.scenario.ScenarioSetting;
import org.cacheflow.io.scenario.TokenSizeResolver;
import org.cacheflow.io.slam.SlamReader;
import org.cacheflow.io.xml.LocatedXmlReader;
import org.cacheflow.io.xml.XmlElement;
import org.cacheflow.model.Architecture;
import org.cacheflow.model.Graph;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * A PREESM application project: a directory with {@code Algo/} (PiSDF graphs, {@code .pi}),
 * {@code Scenarios/} ({@code .scenario}), {@code Archi/} (S-LAM, {@code .slam}), {@code Workflows/}
 * ({@code .workflow}), usually an Eclipse {@code .project} naming it, and optionally a {@code .ci.yaml}
 * listing the scenario x workflow pairs PREESM's command line is run on. Files are found in those folders
 * and their sub-folders ({@code Algo/training/training.pi} exists), sorted by path.
 *
 * <p>Paths inside scenarios are Eclipse workspace paths: {@code /<project name>/Algo/top.pi}, where the
 * project name is the {@code <name>} of {@code .project} (every scenario of the corpus uses this form).
 * {@link #resolve} maps such a path to a file by trying, in order:
 * <ol>
 * <li>a first segment equal to the project's name (from {@code .project}) or to its directory's name:
 * the rest, under the project directory;</li>
 * <li>the whole path under the project directory (project-relative paths such as {@code /Algo/top.pi});</li>
 * <li>the whole path under the project's parent directory (the workspace: another project).</li>
 * </ol>
 * The first candidate that exists is used; when none exists the first candidate is the one reported.
 */
public final class PreesmProject {

  private static final String CI_FILE = ".ci.yaml";

  private final Path root;
  private final String name;

  private PreesmProject(Path root, String name) {
    this.root = root;
    this.name = name;
  }

  /**
   * Opens the project in {@code directory}. Its name comes from {@code .project}; without one (or when it
   * cannot be read, which is warned about) the directory's name is used.
   */
  public static PreesmProject open(Path directory, Diagnostics diagnostics) {
    Path root = directory.toAbsolutePath().normalize();
    if (!Files.isDirectory(root)) {
      throw new InputException(SourceLocation.file(directory), "not a directory, so not a PREESM project");
    }
    String directoryName = root.getFileName() == null ? root.toString() : root.getFileName().toString();
    return new PreesmProject(root, projectName(root.resolve(".project"), directoryName, diagnostics));
  }

  /**
   * Opens the project containing {@code file} (a scenario, say): the nearest enclosing directory with a
   * {@code .project}, else the parent of the nearest enclosing {@code Scenarios}, {@code Algo},
   * {@code Archi} or {@code Workflows} folder.
   */
  public static PreesmProject containing(Path file, Diagnostics diagnostics) {
    Path start = file.toAbsolutePath().normalize();
    for (Path directory = start.getParent(); directory != null; directory = directory.getParent()) {
      if (Files.isRegularFile(directory.resolve(".project"))) {
        return open(directory, diagnostics);
      }
    }
    for (Path directory = start.getParent(); directory != null; directory = directory.getParent()) {
      Path folder = directory.getFileName();
      if (folder != null && List.of("Scenarios", "Algo", "Archi", "Workflows").contains(folder.toString())
          && directory.getParent() != null) {
        return open(directory.getParent(), diagnostics);
      }
    }
    throw new InputException(SourceLocation.file(file), "not inside a PREESM project (no enclosing directory"
        + " has a .project file or a Scenarios, Algo, Archi or Workflows folder)");
  }

  public Path root() {
    return root;
  }

  public String name() {
    return name;
  }

  /** {@code Algo/**}{@code /*.pi}. */
  public List<Path> algorithms() {
    return filesUnder("Algo", ".pi");
  }

  /** {@code Scenarios/**}{@code /*.scenario}. */
  public List<Path> scenarios() {
    return filesUnder("Scenarios", ".scenario");
  }

  /** {@code Archi/**}{@code /*.slam}. */
  public List<Path> architectures() {
    return filesUnder("Archi", ".slam");
  }

  /** {@code Workflows/**}{@code /*.workflow}. */
  public List<Path> workflows() {
    return filesUnder("Workflows", ".workflow");
  }

  /** The project's {@code .ci.yaml}, if it has one. */
  public Optional<Path> ciFile() {
    Path file = root.resolve(CI_FILE);
    return Files.isRegularFile(file) ? Optional.of(file) : Optional.empty();
  }

  /**
   * The runs {@code .ci.yaml} lists (none without the file). As PREESM's CI script does, a scenario name
   * is looked up under {@code Scenarios/} and a workflow name under {@code Workflows/}; an entry naming an
   * absent file is left out with a warning at its line. A malformed file is an {@link InputException}.
   */
  public List<CiRun> ciRuns(Diagnostics diagnostics) {
    Optional<Path> file = ciFile();
    if (file.isEmpty()) {
      return List.of();
    }
    String text;
    try {
      text = Files.readString(file.get(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new InputException(SourceLocation.file(file.get()), "cannot read file: " + e.getMessage());
    }
    List<CiRun> runs = new ArrayList<>();
    for (CiConfigParser.Entry entry : CiConfigParser.parse(file.get(), text, diagnostics)) {
      Path scenario = root.resolve("Scenarios").resolve(entry.values().get("scenario")).normalize();
      Path workflow = root.resolve("Workflows").resolve(entry.values().get("workflow")).normalize();
      boolean complete = true;
      if (!Files.isRegularFile(scenario)) {
        diagnostics.warn(entry.location(), "CI entry names scenario '" + entry.values().get("scenario")
            + "', which is not in " + root.resolve("Scenarios") + "; entry skipped");
        complete = false;
      }
      if (!Files.isRegularFile(workflow)) {
        diagnostics.warn(entry.location(), "CI entry names workflow '" + entry.values().get("workflow")
            + "', which is not in " + root.resolve("Workflows") + "; entry skipped");
        complete = false;
      }
      if (complete) {
        runs.add(new CiRun(scenario, workflow, entry.location()));
      }
    }
    return runs;
  }

  /** The existing file a scenario path names (see the class comment for the rule), if any. */
  public Optional<Path> resolve(String workspacePath) {
    return candidates(workspacePath).stream().filter(Files::exists).findFirst();
  }

  /**
   * Where a scenario path points, whether or not it exists: the first existing candidate, else the first
   * candidate. For directories to be created, such as the code generation directory.
   */
  public Path locate(String workspacePath) {
    List<Path> candidates = candidates(workspacePath);
    if (candidates.isEmpty()) {
      return root;
    }
    return candidates.stream().filter(Files::exists).findFirst().orElse(candidates.get(0));
  }

  /**
   * Finds the files {@code scenario} names. An algorithm or architecture that does not exist is warned
   * about at the scenario line naming it; see {@link #load} for the strict version.
   */
  public ScenarioReferences references(ScenarioFile scenario, Diagnostics diagnostics) {
    SourceLocation scenarioLocation = new SourceLocation(scenario.scenario().getFile(),
        scenario.scenario().getLine(), scenario.scenario().getColumn());
    if (scenario.algorithm().isEmpty()) {
      diagnostics.warn(scenarioLocation, "the scenario names no algorithm (<files><algorithm url=\"...\"/>)");
    }
    if (scenario.architecture().isEmpty()) {
      diagnostics.warn(scenarioLocation, "the scenario names no architecture (<files><architecture url=\"...\"/>)");
    }
    Optional<Path> algorithm = scenario.algorithm().flatMap(setting -> existing(setting, "algorithm",
        diagnostics::warn));
    Optional<Path> architecture = scenario.architecture().flatMap(setting -> existing(setting, "architecture",
        diagnostics::warn));
    Optional<Path> codegen = scenario.codegenDirectory().map(setting -> locate(setting.value()));
    return new ScenarioReferences(algorithm, architecture, codegen);
  }

  /**
   * Reads {@code scenarioFile} and everything it names: the algorithm (through {@code graphLoader}) and the
   * architecture. Then resolves the graph's token sizes from the scenario's data types, applies the
   * scenario's main core and cross-checks the scenario against both ({@link ScenarioChecker}). A scenario
   * that names no algorithm or architecture, or names one that does not exist, is an
   * {@link InputException} at the scenario line concerned.
   */
  public ScenarioRun load(Path scenarioFile, GraphLoader graphLoader, Diagnostics diagnostics) {
    return load(scenarioFile, graphLoader, false, diagnostics);
  }

  /**
   * As {@link #load(Path, GraphLoader, Diagnostics)}; with {@code architectureOptional} (the caller is given the
   * core count, e.g. {@code --cores}, and does not need the architecture) a scenario naming no architecture or
   * one that does not exist is a warning at its line, and the run has no architecture (null).
   */
  public ScenarioRun load(Path scenarioFile, GraphLoader graphLoader, boolean architectureOptional,
      Diagnostics diagnostics) {
    ScenarioFile scenario = ScenarioReader.readFile(scenarioFile, diagnostics);
    Path algorithmFile = required(scenario, scenario.algorithm(), "algorithm");
    Path architectureFile = architectureOptional
        ? scenario.architecture().flatMap(setting -> existing(setting, "architecture", (location, message) ->
            diagnostics.warn(location, message + "; going on without an architecture, as the core count is"
                + " given"))).orElse(null)
        : required(scenario, scenario.architecture(), "architecture");
    if (architectureOptional && scenario.architecture().isEmpty()) {
      diagnostics.warn(new SourceLocation(scenario.scenario().getFile(), scenario.scenario().getLine(),
          scenario.scenario().getColumn()), "the scenario names no architecture (<files><architecture"
              + " url=\"...\"/>); going on without one, as the core count is given");
    }

    Graph graph = graphLoader.load(algorithmFile, diagnostics);
    Architecture architecture = architectureFile == null ? null : SlamReader.read(architectureFile, diagnostics);
    if (architecture != null) {
      scenario.mainCore().ifPresent(mainCore ->
          SlamReader.applyMainCore(architecture, mainCore.value(), mainCore.location(), diagnostics));
    }
    TokenSizeResolver.resolve(graph, scenario.scenario(), diagnostics);
    ScenarioChecker.check(scenario, graph, architecture, diagnostics);
    Path codegen = scenario.codegenDirectory().map(setting -> locate(setting.value())).orElse(null);
    return new ScenarioRun(scenario, graph, architecture, algorithmFile, architectureFile, codegen);
  }

  private Path required(ScenarioFile scenario, Optional<ScenarioSetting> setting, String what) {
    if (setting.isEmpty()) {
      throw new InputException(new SourceLocation(scenario.scenario().getFile(), scenario.scenario().getLine(),
          scenario.scenario().getColumn()), "the scenario names no " + what + " (<files><" + what
              + " url=\"...\"/>)");
    }
    return existing(setting.get(), what, (location, message) -> {
      throw new InputException(location, message);
    }).orElseThrow();
  }

  /** A sink for a missing-file message: a warning or an error. */
  private interface MissingFileReport {
    void report(SourceLocation location, String message);
  }

  private Optional<Path> existing(ScenarioSetting setting, String what, MissingFileReport report) {
    Optional<Path> found = resolve(setting.value());
    if (found.isEmpty() || !Files.isRegularFile(found.get())) {
      report.report(setting.location(), what + " file '" + setting.value() + "' does not exist (looked for "
          + locate(setting.value()) + ")");
      return Optional.empty();
    }
    return found;
  }

  private List<Path> candidates(String workspacePath) {
    List<Path> candidates = new ArrayList<>();
    if (workspacePath == null) {
      return candidates;
    }
    String relative = workspacePath.trim().replace('\\', '/').replaceAll("^/+", "");
    if (relative.isEmpty()) {
      return candidates;
    }
    int slash = relative.indexOf('/');
    String first = slash < 0 ? relative : relative.substring(0, slash);
    String rest = slash < 0 ? "" : relative.substring(slash + 1);
    Path directory = root.getFileName();
    if (first.equals(name) || (directory != null && first.equals(directory.toString()))) {
      candidates.add(root.resolve(rest).normalize());
    }
    candidates.add(root.resolve(relative).normalize());
    if (root.getParent() != null) {
      candidates.add(root.getParent().resolve(relative).normalize());
    }
    return candidates;
  }

  private List<Path> filesUnder(String folder, String extension) {
    Path directory = root.resolve(folder);
    if (!Files.isDirectory(directory)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(directory)) {
      return files.filter(Files::isRegularFile).filter(file -> file.getFileName().toString().endsWith(extension))
          .sorted().toList();
    } catch (IOException | UncheckedIOException e) {
      throw new InputException(SourceLocation.file(directory), "cannot list files: " + e.getMessage());
    }
  }

  private static String projectName(Path projectFile, String directoryName, Diagnostics diagnostics) {
    if (!Files.isRegularFile(projectFile)) {
      return directoryName;
    }
    try {
      XmlElement description = LocatedXmlReader.read(projectFile);
      Optional<String> name = description.child("name").map(XmlElement::text).filter(text -> !text.isEmpty());
      if (name.isEmpty()) {
        diagnostics.warn(description.location(), ".project gives no <name>; the project is named '"
            + directoryName + "' after its directory");
      }
      return name.orElse(directoryName);
    } catch (InputException e) {
      diagnostics.warn(e.location(), e.getMessage() + "; the project is named '" + directoryName
          + "' after its directory");
      return directoryName;
    }
  }

  @Override
  public String toString() {
    return "PREESM project '" + name + "' at " + root;
  }
}
