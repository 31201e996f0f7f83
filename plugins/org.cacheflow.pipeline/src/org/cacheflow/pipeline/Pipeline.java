package org.cacheflow.pipeline;

import java.nio.file.Path;
import java.util.List;

import org.cacheflow.plan.schedule.RunSchedule;
import org.cacheflow.plan.strategy.StrategyPreset;
import org.cacheflow.scripts.CheckPolicy;

/**
 * The one typed entry point of cacheflow: load a project or graph, plan it, generate C; measure a target
 * (calibrate). The command line, the workflow runner, the Eclipse plugin and the Maven plugin all call this.
 * Nothing is printed: results and diagnostics are objects, progress and diagnostics go to the
 * {@link PipelineListener} as they arise; bad input throws {@link org.cacheflow.model.diagnostics.InputException}
 * naming file, line and column, a bad setting {@link OptionException} naming the option. Not thread-safe: one
 * pipeline per thread.
 */
public final class Pipeline {

  private final PipelineListener listener;

  public Pipeline(PipelineListener listener) {
    this.listener = listener == null ? PipelineListener.SILENT : listener;
  }

  /** A pipeline nobody listens to. */
  public Pipeline() {
    this(PipelineListener.SILENT);
  }

  /**
   * Loads a graph: a project's (its first usable scenario when none is named: a note says which), a {@code .pi}
   * graph's or an SDF3 graph's. With {@code platform} given, a scenario's missing architecture is only a warning.
   */
  public LoadedInput load(Input input, PlatformOptions platform) {
    return new Run(listener).load(input, platform);
  }

  /** Loads, analyses and expands the graph to single rate. */
  public Inspection inspect(Input input) {
    return new Run(listener).inspect(input);
  }

  /** Loads, analyses, expands, maps and plans every buffer's memory strategy; writes the report when asked. */
  public PlanResult plan(PlanOptions options) {
    return new Run(listener).plan(options);
  }

  /**
   * Loads, plans and writes the C project. The output folder is replaced only once generation succeeded.
   */
  /**
   * What a schedule choice ({@code --schedule}) does to the program generate writes, in words (none for static): plan
   * says it beside the plan of the static mapping.
   *
   * @param asked the strategy asked for
   * @param cores the cores the program runs on
   * @param slots {@code --override slots=K}, or null
   */
  public static List<String> scheduleNotes(RunSchedule schedule, StrategyPreset asked, int cores, Integer slots) {
    return Dispatch.notes(schedule, asked.label, cores, Dispatch.slots(slots), null);
  }

  public GenerateResult generate(GenerateOptions options) {
    return new Run(listener).generate(options);
  }

  /**
   * Measures a machine (this one, a board reached through a command, or a cross target under qemu-user) with the
   * runtime's calibration program and writes the target file it describes; the file is replaced only once the
   * measurement succeeded and {@code plan --target} accepts it.
   *
   * @throws CalibrationException when the program does not build, the board cannot be reached or the program cannot
   *     run there
   */
  public CalibrateResult calibrate(CalibrateOptions options) {
    return new Calibration(listener, options).run();
  }

  /**
   * Profiles the real actors: generates the program instrumented around every firing, builds and runs it (plain, then
   * timed, with canaries, with page protection) and writes {@code profile.json} and {@code profile.md}: per port what
   * the firings did, per actor its time per firing, per FIFO its re-read distance, the annotations suggested and the
   * declarations contradicted.
   *
   * @throws ProfileException when the program does not build or fails
   */
  public ProfileResult profile(ProfileOptions options) {
    return new Profiling(listener, options).run();
  }

  /**
   * Evaluates the memory scripts of the input's graphs: of a project without a scenario, every graph (with its
   * first usable scenario) that references one; else the one graph.
   */
  public ScriptsResult scripts(Input input, CheckPolicy policy) {
    return new Run(listener).scripts(input, policy);
  }

  /**
   * Compares a generated program's output ({@code --validate=preesm}) with a PREESM project's
   * {@code .validation.hash} as PREESM's CI does; {@code project} is the project folder or the file.
   */
  public ValidationCheck checkValidation(Path project, String output) {
    return ValidationCheck.of(project, output);
  }

  /**
   * Builds a generated program's CMake project ({@code source}: cacheflow's generated project, or a PREESM project's
   * {@code Code/} folder) in a temporary folder, runs its one program with {@code --validate=preesm} (and
   * {@code --iterations N} unless null) and compares the output with the project's {@code .validation.hash}.
   *
   * @throws org.cacheflow.model.diagnostics.InputException at the CMake project when it does not configure or build,
   *     or the program fails
   */
  public ValidationCheck checkProgram(Path source, Path project, Integer iterations) {
    return new ProgramValidation(listener).run(source, project, iterations);
  }
}
