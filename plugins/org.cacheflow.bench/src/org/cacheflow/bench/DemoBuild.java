package org.cacheflow.bench;

import static org.cacheflow.bench.DemoCommand.UNANNOTATED;
import static org.cacheflow.bench.DemoCommand.preset;
import static org.cacheflow.bench.DemoProcess.command;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.cacheflow.cli.Progress;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.pipeline.ActorCodeOptions;
import org.cacheflow.pipeline.GenerateOptions;
import org.cacheflow.pipeline.Input;
import org.cacheflow.pipeline.OptionException;
import org.cacheflow.pipeline.Pipeline;
import org.cacheflow.plan.strategy.StrategyPreset;
import org.cacheflow.workflow.run.ProjectActorCode;

/**
 * Makes the demo's programs: builds and installs the C runtime once, compiles the example's actors once into a
 * library, generates one project per strategy (from the example, or from its copy without read-only annotations
 * and marks) and builds them two at a time with CMake and Ninja.
 */
final class DemoBuild {

  /** Where the demo writes the actor library's CMake project, and the stub sources folder the programs get. */
  static final String ACTOR_PROJECT = "actors";
  static final String ACTOR_STUB_FOLDER = "actors/linked";

  private DemoBuild() {
  }

  /** Builds the C runtime from {@code runtimeSources} and installs it into {@code runtimePrefix}. */
  static void buildRuntime(Path work, Path runtimeSources, Path runtimePrefix) throws IOException {
    Path runtimeBuild = work.resolve("build/runtime");
    Files.createDirectories(runtimeBuild);
    Path runtimeLog = work.resolve("build/runtime.log");
    Files.deleteIfExists(runtimeLog);
    command(runtimeLog, work, null, "cmake", "-S", runtimeSources.toString(), "-B", runtimeBuild.toString(),
        "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release", "-DCF_BUILD_TESTS=OFF", "-DCF_BUILD_BENCH=OFF",
        "-DCMAKE_INSTALL_PREFIX=" + runtimePrefix);
    command(runtimeLog, work, null, "cmake", "--build", runtimeBuild.toString());
    command(runtimeLog, work, null, "cmake", "--install", runtimeBuild.toString());
  }

  /**
   * Generates every program in this thread (generation is quick once the code is warm) and builds them two at a
   * time, so that one program's configuration overlaps another's compilation.
   */
  static void generateAndBuild(DemoSettings settings, Map<String, DemoProgram> programs,
      Map<String, DemoProgram> missPrograms, Path runtimePrefix, Progress progress) throws IOException {
    List<DemoProgram> all = new ArrayList<>(programs.values());
    all.addAll(missPrograms.values());
    ExecutorService builders = Executors.newFixedThreadPool(Math.max(1, Math.min(2,
        Runtime.getRuntime().availableProcessors())));
    try {
      Map<DemoProgram, Future<?>> builds = new LinkedHashMap<>();
      Future<Path> actors = builders.submit(() -> buildActors(settings));
      Path unannotated = programs.keySet().stream().anyMatch(label -> label.endsWith(UNANNOTATED))
          ? unannotatedCopy(settings.stereo(), Files.createDirectories(settings.work().resolve("unannotated")))
          : null;
      int index = 0;
      for (DemoProgram program : all) {
        boolean reduced = missPrograms.containsValue(program);
        DemoFrame frame = reduced ? settings.missFrame() : settings.frame();
        Map<String, String> params = new LinkedHashMap<>(settings.params());
        if (reduced) {
          frame.params().forEach(param -> params.put(param.substring(0, param.indexOf('=')),
              param.substring(param.indexOf('=') + 1)));
        }
        index++;
        progress.step("[" + index + "/" + all.size() + "] " + program.strategy() + " (" + frame + "): generating"
            + (builds.isEmpty() ? "" : ", " + count(builds.values(), false) + " building"));
        Path example = program.strategy().endsWith(UNANNOTATED) ? unannotated : settings.stereo();
        generate(example, program.project(), preset(program.strategy()), params, settings.runtimeSources());
        builds.put(program, builders.submit(() -> {
          build(program, runtimePrefix, settings.work().resolve(ACTOR_STUB_FOLDER), await(actors));
          return null;
        }));
      }
      for (Map.Entry<DemoProgram, Future<?>> build : builds.entrySet()) {
        progress.step("building: " + count(builds.values(), true) + "/" + builds.size() + " done");
        build.getValue().get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new DemoFailure("interrupted while building");
    } catch (ExecutionException e) {
      throw cause(e, "a build failed");
    } finally {
      builders.shutdownNow();
    }
  }

  /** The actor library, or the failure that stopped its build (so that every program reports that cause). */
  private static Path await(Future<Path> actors) throws IOException, InterruptedException {
    try {
      return actors.get();
    } catch (ExecutionException e) {
      throw cause(e, "building the actors failed");
    }
  }

  /** What a failed task threw: a DemoFailure or an IOException as it is, anything else as a DemoFailure. */
  private static DemoFailure cause(ExecutionException e, String failed) throws IOException {
    if (e.getCause() instanceof DemoFailure failure) {
      throw failure;
    }
    if (e.getCause() instanceof IOException io) {
      throw io;
    }
    return new DemoFailure(failed + ": " + e.getCause());
  }

  private static long count(Iterable<Future<?>> futures, boolean done) {
    long n = 0;
    for (Future<?> future : futures) {
      n += future.isDone() == done ? 1 : 0;
    }
    return n;
  }

  /**
   * Configures and builds a generated project. Its actor sources folder is a stub, and the actors come from the
   * library built once by {@link #buildActors}, appended to the link line with the standard libraries.
   */
  private static void build(DemoProgram program, Path runtimePrefix, Path actorStub, Path actorLibrary)
      throws IOException {
    Files.createDirectories(program.log().getParent());
    Files.deleteIfExists(program.log());
    Path directory = program.log().getParent();
    command(program.log(), directory, null, "cmake", "-S", program.project().toString(), "-B",
        program.build().toString(), "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_PREFIX_PATH=" + runtimePrefix,
        "-DCACHEFLOW_ACTOR_SOURCES=" + actorStub, "-DCMAKE_C_STANDARD_LIBRARIES=\"" + actorLibrary + "\" -lm");
    command(program.log(), directory, null, "cmake", "--build", program.build().toString());
  }

  /**
   * The actors are the same C for every strategy and take most of a program's compilation, so the demo
   * compiles them once, with the generated projects' language settings, into a static library.
   */
  private static Path buildActors(DemoSettings settings) throws IOException {
    Path project = settings.work().resolve(ACTOR_PROJECT);
    Path stub = settings.work().resolve(ACTOR_STUB_FOLDER);
    Files.createDirectories(stub);
    Files.writeString(stub.resolve("linked_actors.c"), "/* Written by cacheflow demo: the actors of examples/stereo "
        + "are linked from the library built in build/actors. */\ntypedef int cacheflow_demo_actors_are_linked;\n");
    Files.writeString(project.resolve("CMakeLists.txt"), """
        # Written by cacheflow demo: the actors of examples/stereo, compiled once for every generated program.
        cmake_minimum_required(VERSION 3.16)
        project(stereo_actors LANGUAGES C)
        set(CMAKE_C_STANDARD 11)
        set(CMAKE_C_STANDARD_REQUIRED ON)
        set(CMAKE_C_EXTENSIONS ON)
        file(GLOB actor_sources "%s/*.c")
        add_library(stereo_actors STATIC ${actor_sources})
        target_include_directories(stereo_actors PRIVATE "%s")
        """.formatted(cmakePath(settings.stereo().resolve("Code/src")),
        cmakePath(settings.stereo().resolve("Code/include"))));
    Path build = settings.work().resolve("build/actors");
    Path log = settings.work().resolve("build/actors.log");
    Files.deleteIfExists(log);
    command(log, settings.work(), null, "cmake", "-S", project.toString(), "-B", build.toString(), "-G", "Ninja",
        "-DCMAKE_BUILD_TYPE=Release");
    command(log, settings.work(), null, "cmake", "--build", build.toString());
    return build.resolve("libstereo_actors.a");
  }

  private static String cmakePath(Path path) {
    return path.toAbsolutePath().toString().replace('\\', '/').replace("\"", "\\\"");
  }

  private static void generate(Path stereo, Path project, String strategy, Map<String, String> params,
      Path runtimeSources) {
    Input input = new Input(stereo, stereo.resolve("Scenarios/2core.scenario"), params);
    ActorCodeOptions actors = new ActorCodeOptions(stereo.resolve("Code/src"), List.of(stereo.resolve("Code/include")),
        List.of(), List.of());
    try {
      new Pipeline().generate(GenerateOptions.of(input, project, runtimeSources)
          .withStrategy(StrategyPreset.named(strategy)).withActorCode(actors, ProjectActorCode.defaults()));
    } catch (InputException e) {
      throw new DemoFailure("generating " + strategy + " failed:\nerror: " + e.describe());
    } catch (OptionException e) {
      throw new DemoFailure("generating " + strategy + " failed:\nerror: " + e.getMessage());
    }
  }

  /**
   * Copies the stereo example into {@code target} (named like the example, as its scenarios refer to it) with its
   * READ_ONLY port annotations made NONE and the scripts' markReadMostly calls removed.
   */
  static Path unannotatedCopy(Path stereo, Path target) throws IOException {
    Path copy = target.resolve(stereo.getFileName());
    if (Files.exists(copy)) {
      try (Stream<Path> old = Files.walk(copy)) {
        for (Path path : old.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(path);
        }
      }
    }
    try (Stream<Path> files = Files.walk(stereo)) {
      for (Path source : files.toList()) {
        Path destination = copy.resolve(stereo.relativize(source).toString());
        if (Files.isDirectory(source)) {
          Files.createDirectories(destination);
          continue;
        }
        String name = source.getFileName().toString();
        if (name.endsWith(".pi")) {
          Files.writeString(destination, Files.readString(source).replace("annotation=\"READ_ONLY\"",
              "annotation=\"NONE\""));
        } else if (name.endsWith(".bsh")) {
          Files.writeString(destination, Files.readString(source).lines()
              .filter(line -> !line.contains(".markReadMostly("))
              .collect(Collectors.joining("\n", "", "\n")));
        } else {
          Files.copy(source, destination);
        }
      }
    }
    return copy;
  }
}
