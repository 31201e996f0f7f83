package org.cacheflow.maven;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.cacheflow.cli.Main;
import org.cacheflow.io.project.PreesmProject;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;

/**
 * Generates the C project of a dataflow graph: {@code cacheflow run-workflow} when a workflow is named, else
 * {@code cacheflow generate}, run inside the build with the same checks and messages as the command line. Skips
 * the work when neither the input files nor the settings changed since the last generation into the same
 * directory.
 */
@Mojo(name = "generate", defaultPhase = LifecyclePhase.GENERATE_SOURCES, threadSafe = true)
public class GenerateMojo extends AbstractMojo {

  /** The generator reads the runtime's location from this system property: one generation at a time. */
  private static final Object RUNTIME_PROPERTY_LOCK = new Object();
  private static final String RUNTIME_PROPERTY = "cacheflow.runtime";

  /** A PREESM project directory, a PiSDF {@code .pi} graph or an SDF3 {@code .xml} graph. */
  @Parameter(property = "cacheflow.input", defaultValue = "${project.basedir}", required = true)
  private File input;

  /**
   * A workflow to run (a file, or a name under the project's {@code Workflows/}); {@code input} must then be the
   * project directory. Without it, the graph is generated directly with the settings below.
   */
  @Parameter(property = "cacheflow.workflow")
  private String workflow;

  /**
   * The scenario (a file, or a name under the project's {@code Scenarios/}). With a workflow and no scenario,
   * the project's {@code .ci.yaml} pairs run; without a workflow, the project's first usable scenario is used.
   */
  @Parameter(property = "cacheflow.scenario")
  private String scenario;

  /** Memory strategy; with a workflow it replaces the tasks' {@code Memory strategy}. */
  @Parameter(property = "cacheflow.strategy")
  private String strategy;

  /** Core count (of each node, with {@code nodes}); default: the scenario's architecture. */
  @Parameter(property = "cacheflow.cores")
  private Integer cores;

  /**
   * Node count (machines, one MPI process each; {@code cores} cores each); with a workflow it replaces the tasks'
   * {@code Nodes}. Default: the scenario's architecture.
   */
  @Parameter(property = "cacheflow.nodes")
  private Integer nodes;

  /** Target cache description: a built-in profile or a file. */
  @Parameter(property = "cacheflow.target")
  private String target;

  /** Per-FIFO overrides, {@code actor.port=STRATEGY}. */
  @Parameter
  private List<String> overrides;

  /** Generate actor bodies instead of calling the actors' code. */
  @Parameter(property = "cacheflow.syntheticActors", defaultValue = "false")
  private boolean syntheticActors;

  /**
   * The folder of the actors' C sources (default: the project's {@code Code/src}); replaces a workflow task's
   * {@code Actor sources}. Becomes the generated project's cache variable {@code CACHEFLOW_ACTOR_SOURCES}.
   */
  @Parameter(property = "cacheflow.sources")
  private File sources;

  /**
   * Folders of headers the actors include, besides the project's {@code Code/include}; replace a workflow task's
   * {@code Include directories}. Cache variable {@code CACHEFLOW_ACTOR_INCLUDES}.
   */
  @Parameter
  private List<File> includes;

  /**
   * Compile definitions, {@code NAME=VALUE} or {@code NAME}; replace a workflow task's {@code Compile definitions}.
   * {@code PROJECT_ROOT_PATH} is the project's {@code Code/} folder unless one of them sets it. Cache variable
   * {@code CACHEFLOW_ACTOR_DEFINITIONS}.
   */
  @Parameter
  private List<String> definitions;

  /**
   * Libraries the actors link with, found by CMake when the generated project is configured: {@code Package::target}
   * (find_package), {@code pthread}, a pkg-config module or a library name. Replace a workflow task's
   * {@code Libraries}. Cache variable {@code CACHEFLOW_ACTOR_LIBRARIES}.
   */
  @Parameter
  private List<String> libraries;

  /** Where the C project is written (replaced); several workflow runs get one sub-folder each. */
  @Parameter(property = "cacheflow.outputDirectory", defaultValue = "${project.build.directory}/generated-sources/cacheflow",
      required = true)
  private File outputDirectory;

  /** Skip the goal. */
  @Parameter(property = "cacheflow.skip", defaultValue = "false")
  private boolean skip;

  /** Generate even when the inputs are unchanged. */
  @Parameter(property = "cacheflow.force", defaultValue = "false")
  private boolean force;

  @Parameter(defaultValue = "${project.basedir}", readonly = true, required = true)
  private File basedir;

  @Parameter(defaultValue = "${project.build.directory}", readonly = true, required = true)
  private File buildDirectory;

  @Parameter(defaultValue = "${plugin.version}", readonly = true, required = true)
  private String pluginVersion;

  @Override
  public void execute() throws MojoExecutionException, MojoFailureException {
    if (skip) {
      getLog().info("cacheflow: skipped (skip = true)");
      return;
    }
    if (!input.exists()) {
      throw new MojoFailureException("error: " + input + ": no such file or directory (the cacheflow input)");
    }
    List<String> command = commandLine();
    Path work = buildDirectory.toPath().resolve("cacheflow");
    Path stamp = work.resolve(Integer.toHexString(outputDirectory.getAbsolutePath().hashCode()) + ".inputs");
    String fingerprint;
    try {
      fingerprint = InputFingerprint.of(inputRoots(), List.of(outputDirectory.toPath(), buildDirectory.toPath()),
          pluginVersion + "\0" + String.join("\0", command));
    } catch (UncheckedIOException e) {
      throw new MojoExecutionException(e.getMessage(), e);
    }
    if (!force && outputDirectory.isDirectory() && fingerprint.equals(read(stamp))) {
      getLog().info("cacheflow: inputs unchanged since the last generation into " + outputDirectory
          + "; nothing to do (-Dcacheflow.force=true regenerates)");
      return;
    }
    getLog().info("cacheflow " + String.join(" ", command));
    int status;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    synchronized (RUNTIME_PROPERTY_LOCK) {
      String previous = System.getProperty(RUNTIME_PROPERTY);
      try {
        Path runtime = BundledRuntime.unpack(work.resolve("runtime"));
        System.setProperty(RUNTIME_PROPERTY, runtime.toString());
        status = new Main().run(command, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new MojoExecutionException("cannot unpack the cacheflow C runtime: " + e.getMessage(), e);
      } finally {
        if (previous == null) {
          System.clearProperty(RUNTIME_PROPERTY);
        } else {
          System.setProperty(RUNTIME_PROPERTY, previous);
        }
      }
    }
    out.toString(StandardCharsets.UTF_8).lines().forEach(line -> getLog().info(line));
    List<String> errors = new ArrayList<>();
    for (String line : err.toString(StandardCharsets.UTF_8).lines().toList()) {
      if (line.startsWith("warning: ")) {
        getLog().warn(line.substring("warning: ".length()));
      } else if (line.startsWith("note: ")) {
        getLog().info(line);
      } else {
        errors.add(line);
      }
    }
    String message = String.join("\n", errors);
    switch (status) {
      case Main.OK -> write(stamp, fingerprint);
      case Main.BAD_INPUT -> throw new MojoFailureException(message);
      case Main.USAGE -> throw new MojoFailureException("invalid cacheflow configuration: " + message
          .replace("run 'cacheflow " + command.get(0) + " --help' for usage", "see the goal's parameters"));
      default -> throw new MojoExecutionException(message);
    }
  }

  /** The cacheflow command line for this configuration; paths made absolute from the project's directory. */
  List<String> commandLine() throws MojoFailureException {
    List<String> command = new ArrayList<>();
    if (workflow != null && !workflow.isBlank()) {
      if (!input.isDirectory()) {
        throw new MojoFailureException("error: " + input + ": a workflow runs on a PREESM project directory, not on "
            + "a single graph (set <input> to the project directory)");
      }
      command.addAll(List.of("run-workflow", input.getAbsolutePath(), "-w", fileOrName(workflow)));
      if (scenario != null && !scenario.isBlank()) {
        command.addAll(List.of("-s", fileOrName(scenario)));
      }
    } else {
      command.addAll(List.of("generate", input.getAbsolutePath()));
      if (scenario != null && !scenario.isBlank()) {
        // a file, or a name or path in the project (2core, Scenarios/2core.scenario): generate finds it
        command.addAll(List.of("--scenario", fileOrName(scenario)));
      }
    }
    command.addAll(List.of("--out", outputDirectory.getAbsolutePath()));
    if (strategy != null && !strategy.isBlank()) {
      command.addAll(List.of("--strategy", strategy.trim()));
    }
    if (cores != null) {
      command.addAll(List.of("--cores", Integer.toString(cores)));
    }
    if (nodes != null) {
      command.addAll(List.of("--nodes", Integer.toString(nodes)));
    }
    if (target != null && !target.isBlank()) {
      command.addAll(List.of("--target", fileOrName(target)));
    }
    if (overrides != null) {
      for (String override : overrides) {
        command.addAll(List.of("--override", override.trim()));
      }
    }
    if (syntheticActors) {
      command.add("--synthetic-actors");
    }
    if (sources != null) {
      command.addAll(List.of("--sources", absolute(sources)));
    }
    for (File include : includes == null ? List.<File>of() : includes) {
      command.addAll(List.of("--include", absolute(include)));
    }
    for (String definition : definitions == null ? List.<String>of() : definitions) {
      command.addAll(List.of("--define", definition.trim()));
    }
    for (String library : libraries == null ? List.<String>of() : libraries) {
      command.addAll(List.of("--link", library.trim()));
    }
    return command;
  }

  /** A folder given in the POM, from the Maven project's directory. */
  private String absolute(File folder) {
    return (folder.isAbsolute() ? folder : new File(basedir, folder.getPath())).getAbsolutePath();
  }

  /** A path relative to the Maven project when such a file exists, else the text (a name cacheflow looks up). */
  private String fileOrName(String text) {
    File file = new File(text.trim());
    File relative = file.isAbsolute() ? file : new File(basedir, text.trim());
    return relative.exists() ? relative.getAbsolutePath() : text.trim();
  }

  /** What the generation reads: the project around the input, plus named files outside it. */
  private List<Path> inputRoots() {
    List<Path> roots = new ArrayList<>();
    Path in = input.toPath().toAbsolutePath().normalize();
    if (Files.isDirectory(in)) {
      roots.add(in);
    } else {
      try {
        roots.add(PreesmProject.containing(in, new Diagnostics()).root());
      } catch (InputException e) {
        roots.add(in.getParent());
      }
    }
    List<String> named = new ArrayList<>(Arrays.asList(workflow, scenario, target));
    if (sources != null) {
      named.add(absolute(sources));
    }
    for (File include : includes == null ? List.<File>of() : includes) {
      named.add(absolute(include));
    }
    for (String file : named) {
      if (file != null && !file.isBlank()) {
        Path path = Path.of(fileOrName(file)).toAbsolutePath().normalize();
        if (Files.exists(path) && roots.stream().noneMatch(path::startsWith)) {
          roots.add(path);
        }
      }
    }
    return roots;
  }

  private static String read(Path file) {
    try {
      return Files.isRegularFile(file) ? Files.readString(file, StandardCharsets.UTF_8).trim() : null;
    } catch (IOException e) {
      return null;
    }
  }

  private void write(Path file, String text) throws MojoExecutionException {
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, text + "\n", StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new MojoExecutionException("cannot record the generation in " + file + ": " + e.getMessage(), e);
    }
  }
}
