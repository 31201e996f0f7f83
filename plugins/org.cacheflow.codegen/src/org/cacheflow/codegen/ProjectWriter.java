package org.cacheflow.codegen;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.cacheflow.codegen.model.ActorSources;
import org.cacheflow.codegen.model.CodeProject;
import org.cacheflow.codegen.model.Core;
import org.cacheflow.codegen.model.SchedTable;
import org.cacheflow.codegen.printer.CMakePrinter;
import org.cacheflow.codegen.printer.CorePrinter;
import org.cacheflow.codegen.printer.HeaderPrinter;
import org.cacheflow.codegen.printer.MainPrinter;
import org.cacheflow.codegen.printer.MpiHeaderPrinter;
import org.cacheflow.codegen.printer.MpiSourcePrinter;
import org.cacheflow.codegen.printer.SchedCorePrinter;
import org.cacheflow.codegen.printer.SyntheticActorsPrinter;
import org.cacheflow.codegen.printer.ToolchainPrinter;

/**
 * Prints a code model into a project directory: one printer per file, plus a copy of the C runtime in
 * {@code cacheflow-runtime/} so the output builds anywhere. The previous content of the directory is replaced
 * only once everything has been written, so a failed generation leaves it intact.
 */
public final class ProjectWriter {

  /** Where the runtime copy goes inside the output. */
  public static final String RUNTIME_FOLDER = "cacheflow-runtime";

  /** What of runtime-c/ is copied: the library and its CMake files, not its tests, benchmarks or builds. */
  private static final List<String> RUNTIME_PARTS = List.of("CMakeLists.txt", "README.md", "include", "src", "cmake");

  private ProjectWriter() {
  }

  /** The generated files by relative path, in a fixed order. Plain text, '\n' line ends. */
  public static Map<String, String> print(CodeProject project, ActorSources actors) {
    return print(project, null, actors);
  }

  /**
   * The generated files by relative path; with a firing table ({@code sched}, a dynamic or hybrid schedule of a
   * one-core program), core 0 runs the runtime's dispatcher over it.
   */
  public static Map<String, String> print(CodeProject project, SchedTable sched, ActorSources actors) {
    Map<String, String> files = new LinkedHashMap<>();
    files.put("CMakeLists.txt", new CMakePrinter(project, actors).print().toString());
    files.put("graph.h", new HeaderPrinter(project).print().toString());
    files.put("main.c", new MainPrinter(project, sched != null).print().toString());
    for (Core core : project.cores()) {
      files.put("core_" + core.index() + ".c", (sched == null ? new CorePrinter(project, core)
          : new SchedCorePrinter(project, core, sched)).print().toString());
    }
    if (project.synthetic()) {
      files.put("synthetic_actors.c", new SyntheticActorsPrinter(project).print().toString());
    }
    if (project.multiNode()) {
      files.put("cacheflow_mpi.h", new MpiHeaderPrinter(project).print().toString());
      files.put("cacheflow_mpi.c", new MpiSourcePrinter(project).print().toString());
    }
    for (String triple : ToolchainPrinter.TRIPLES) {
      files.put("toolchains/" + triple + ".cmake", new ToolchainPrinter(project, triple).print().toString());
    }
    files.replaceAll((name, text) -> text.replace("\r\n", "\n"));
    return files;
  }

  /**
   * Writes the project into {@code out}, replacing what was there.
   *
   * @param runtime the runtime-c folder to copy
   * @throws UncheckedIOException when writing fails; {@code out} is then as it was
   */
  public static void write(CodeProject project, ActorSources actors, Path runtime, Path out) {
    write(project, actors, runtime, out, folder -> {
    });
  }

  /**
   * Writes the project into {@code out}, replacing what was there. The files are written beside it first, then put
   * in place at once; a generation into the same folder at the same time (another process or thread) puts its own
   * in place before or after, never mixed with this one's.
   *
   * @param runtime the runtime-c folder to copy
   * @param waiting told when another generation holds the folder and this one waits for it
   * @throws UncheckedIOException when writing fails; {@code out} is then as it was
   */
  public static void write(CodeProject project, ActorSources actors, Path runtime, Path out,
      Consumer<Path> waiting) {
    write(project, null, actors, runtime, out, waiting);
  }

  /** As {@link #write(CodeProject, ActorSources, Path, Path, Consumer)}, with a firing table or null. */
  public static void write(CodeProject project, SchedTable sched, ActorSources actors, Path runtime, Path out,
      Consumer<Path> waiting) {
    write(print(project, sched, actors), runtime, out, waiting);
  }

  /** Writes {@code files} (by relative path) into {@code out}, replacing what was there, as {@link #write}. */
  static void writeFiles(Map<String, String> files, Path out) {
    write(files, null, out, folder -> {
    });
  }

  /** Writes the files and, unless {@code runtime} is null, the runtime copy, as {@link #write}. */
  static void write(Map<String, String> files, Path runtime, Path out, Consumer<Path> waiting) {
    Path target = out.toAbsolutePath().normalize();
    Path parent = target.getParent();
    Path staging = null;
    try {
      Files.createDirectories(parent);
      staging = Files.createTempDirectory(parent, "." + target.getFileName() + ".new-");
      for (Map.Entry<String, String> file : files.entrySet()) {
        Path path = staging.resolve(file.getKey());
        Files.createDirectories(path.getParent());
        Files.writeString(path, file.getValue(), StandardCharsets.UTF_8);
      }
      if (runtime != null) {
        copyRuntime(runtime, staging.resolve(RUNTIME_FOLDER));
      }
      try (OutputLock held = OutputLock.acquire(target, waiting)) {
        replace(staging, target);
      }
      staging = null;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + out + ": " + e.getMessage(), e);
    } finally {
      if (staging != null) {
        deleteQuietly(staging);
      }
    }
  }

  private static void copyRuntime(Path runtime, Path destination) throws IOException {
    if (!Files.isRegularFile(runtime.resolve("CMakeLists.txt")) || !Files.isDirectory(runtime.resolve("include"))) {
      throw new IOException("the C runtime was not found at " + runtime + " (expected runtime-c with CMakeLists.txt)");
    }
    for (String part : RUNTIME_PARTS) {
      Path source = runtime.resolve(part);
      if (!Files.exists(source)) {
        continue;
      }
      List<Path> paths;
      try (Stream<Path> walk = Files.walk(source)) {
        paths = new ArrayList<>(walk.filter(Files::isRegularFile).sorted().toList());
      }
      for (Path path : paths) {
        Path copy = destination.resolve(runtime.relativize(path).toString());
        Files.createDirectories(copy.getParent());
        Files.copy(path, copy, StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }

  /** Moves the staged output into place: the old directory aside, the new one in, the old one deleted. */
  private static void replace(Path staging, Path target) throws IOException {
    Path old = null;
    if (Files.exists(target)) {
      old = Files.createTempDirectory(target.getParent(), "." + target.getFileName() + ".old-");
      Files.delete(old);
      move(target, old);
    }
    try {
      move(staging, target);
    } catch (IOException e) {
      if (old != null) {
        move(old, target);
      }
      throw e;
    }
    if (old != null) {
      deleteQuietly(old);
    }
  }

  private static void move(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, to);
    }
  }

  static void deleteQuietly(Path root) {
    try {
      FileTrees.delete(root);
    } catch (IOException ignored) {
      // leftovers of a failed run are hidden (dot) folders; nothing depends on them
    }
  }
}
