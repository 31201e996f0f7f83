package org.cacheflow.bench;

import static org.cacheflow.bench.DemoOutputs.checkDigests;
import static org.cacheflow.bench.DemoOutputs.parseRun;
import static org.cacheflow.bench.DemoProcess.command;
import static org.cacheflow.bench.DemoReport.format;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.cacheflow.cli.Main;
import org.cacheflow.cli.Progress;
import org.cacheflow.pipeline.PathText;

/**
 * One demo as the command line asked for it: builds the runtime and every program ({@link DemoBuild}), runs the
 * timed programs with the strategies interleaved, checks that they agree ({@link DemoOutputs}), measures the misses
 * ({@link DemoMisses}) and reports ({@link DemoReport}).
 */
final class DemoRun {

  private DemoRun() {
  }

  /** Runs the demo; {@link DemoFailure} when it cannot go on. */
  static int run(PrintStream out, PrintStream err, DemoSettings settings) throws IOException {
    long start = System.nanoTime();
    Path work = settings.work();
    Files.createDirectories(work);
    Progress progress = new Progress(err);
    Path runtimePrefix = work.resolve("runtime");
    progress.step("building the C runtime once (" + PathText.display(runtimePrefix) + ")");
    DemoBuild.buildRuntime(work, settings.runtimeSources(), runtimePrefix);

    // The timed programs, then (when the simulations run on a smaller frame) the simulated ones.
    Map<String, DemoProgram> programs = new LinkedHashMap<>();
    Map<String, DemoProgram> missPrograms = new LinkedHashMap<>();
    for (String strategy : settings.strategies()) {
      programs.put(strategy, new DemoProgram(strategy, work.resolve(strategy), work.resolve("build").resolve(strategy),
          work.resolve("build").resolve(strategy + ".log")));
    }
    boolean separateMissBuilds = settings.measureMisses() && settings.missScale() > 1;
    for (String strategy : settings.measureMisses() ? settings.missStrategies() : List.<String>of()) {
      missPrograms.put(strategy, separateMissBuilds
          ? new DemoProgram(strategy, work.resolve("misses").resolve(strategy),
              work.resolve("build/misses").resolve(strategy), work.resolve("build/misses").resolve(strategy + ".log"))
          : programs.get(strategy));
    }
    long buildStart = System.nanoTime();
    DemoBuild.generateAndBuild(settings, programs, separateMissBuilds ? missPrograms : Map.of(), runtimePrefix,
        progress);
    long buildNanos = System.nanoTime() - buildStart;

    // Runs interleave the strategies so that a disturbance of the machine hits all of them alike.
    long runStart = System.nanoTime();
    Map<String, DemoResult> results = new LinkedHashMap<>();
    settings.strategies().forEach(s -> results.put(s, new DemoResult(s)));
    String quality = null;
    Path disparity = work.resolve("disparity.pgm");
    StringBuilder runsCsv = new StringBuilder("strategy,run,ms_per_iteration\n");
    int iterations = settings.iterations();
    for (int run = 0; run < settings.runs(); run++) {
      for (String strategy : settings.strategies()) {
        progress.step("run " + (run + 1) + "/" + settings.runs() + ": " + strategy + " (" + iterations
            + " iteration" + (iterations == 1 ? "" : "s") + ")");
        Map<String, String> environment = new LinkedHashMap<>();
        if (run == 0 && strategy.equals(settings.strategies().get(0))) {
          environment.put("STEREO_OUTPUT", disparity.toString());
        }
        Path log = work.resolve("build").resolve(strategy + ".run.log");
        if (run == 0) {
          Files.deleteIfExists(log);
        }
        String output = command(log, work, environment, programs.get(strategy).executable().toString(),
            "--iterations", Integer.toString(iterations), "--validate");
        DemoResult result = results.get(strategy);
        String line = parseRun(output, result, log);
        runsCsv.append(strategy).append(',').append(run + 1).append(',')
            .append(format("%.3f", result.millisPerIteration.get(result.millisPerIteration.size() - 1))).append('\n');
        quality = quality == null ? line : quality;
      }
    }
    checkDigests(results);
    long runNanos = System.nanoTime() - runStart;

    long missStart = System.nanoTime();
    List<String> missNotes = new ArrayList<>();
    String missSource = settings.measureMisses()
        ? DemoMisses.measureMisses(settings, missPrograms, results, missNotes, progress)
        : "not measured (" + (settings.missStrategies().isEmpty() ? "--miss-strategies is empty" : "--no-cachegrind")
            + ")";
    long missNanos = System.nanoTime() - missStart;
    progress.done();

    DemoReport.write(out, settings, results, runsCsv, quality, missSource, missNotes, disparity);
    out.printf("demo took %.0f s (generate and build %.0f s, timed runs %.0f s, cache misses %.0f s)%n",
        (System.nanoTime() - start) / 1e9, buildNanos / 1e9, runNanos / 1e9, missNanos / 1e9);
    return Main.OK;
  }
}
