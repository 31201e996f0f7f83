package org.cacheflow.codegen;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.cacheflow.codegen.model.ActorSources;
import org.cacheflow.codegen.model.CodeProject;

/**
 * Writes a generated program into a PREESM project's {@code Code/generated/} folder, where PREESM's code generation
 * writes, so that the project's own {@code Code/CMakeLists.txt} (PREESM's example applications compile
 * {@code generated/*.c} with their actors, the project's include folder only, often with {@code -std=c99}) builds it
 * unchanged: the program's C files, and the runtime's sources and headers in {@value #RUNTIME}/, as PREESM ships its
 * support files. So that no build setting is needed, the copy is adjusted as it is written: every include of a file
 * of the copy is rewritten relative to the including file, every C file defines {@code _GNU_SOURCE} first (the POSIX
 * and Linux calls the runtime makes) and, compiled as C99, C11's {@code max_align_t}; the default channel
 * implementation alone is copied; the code of each processor architecture compiles to nothing for another processor
 * (runtime-c's src/arch/select.h).
 */
public final class PreesmLayoutWriter {

  /** Where the runtime goes inside the generated folder. */
  static final String RUNTIME = "cacheflow-runtime";

  private static final Pattern INCLUDE = Pattern.compile("(?m)^(\\s*#\\s*include\\s*)[<\"]([^>\"]+)[>\"]");
  /**
   * What every C file of the layout starts with: the POSIX and Linux declarations, and, for a C99 build, C11's
   * {@code max_align_t} (the runtime aligns with it) under its own name.
   */
  private static final String PRELUDE = """
      #ifndef _GNU_SOURCE
      #define _GNU_SOURCE
      #endif
      #if defined(__STDC_VERSION__) && __STDC_VERSION__ < 201112L && !defined(max_align_t)
      #include <stddef.h>
      typedef struct {
          long long cf_long_long __attribute__((aligned(__alignof__(long long))));
          long double cf_long_double __attribute__((aligned(__alignof__(long double))));
      } cf_max_align_t;
      #define max_align_t cf_max_align_t
      #endif
      """;

  private PreesmLayoutWriter() {
  }

  /**
   * Whether {@code out} is the generated-code folder of a project whose own build compiles it: a folder named
   * {@code generated} beside a {@code CMakeLists.txt} that names it (PREESM's {@code Code/} folder).
   */
  public static boolean appliesTo(Path out) {
    Path folder = out.toAbsolutePath().normalize();
    Path build = folder.getParent() == null ? null : folder.getParent().resolve("CMakeLists.txt");
    if (!folder.getFileName().toString().equals("generated") || build == null || !Files.isRegularFile(build)) {
      return false;
    }
    try {
      return Files.readString(build, StandardCharsets.UTF_8).contains("generated");
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Writes the program and the runtime into {@code out}, replacing what was there (only once everything is
   * written).
   *
   * @param runtime the runtime-c folder to copy
   * @throws UncheckedIOException when reading the runtime or writing fails; {@code out} is then as it was
   * @throws IllegalArgumentException for a program over several nodes (the project's build links no MPI)
   */
  public static void write(CodeProject project, Path runtime, Path out) {
    if (project.multiNode()) {
      throw new IllegalArgumentException("a program over several nodes needs MPI, which the project's own build "
          + "does not link: generate it into a folder of its own");
    }
    Map<String, String> files = new LinkedHashMap<>();
    ProjectWriter.print(project, ActorSources.NONE).forEach((name, text) -> {
      if (!name.equals("CMakeLists.txt") && !name.startsWith("toolchains/")) {
        files.put(name, text);
      }
    });
    try {
      files.putAll(runtimeFiles(runtime));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the C runtime at " + runtime + ": " + e.getMessage(), e);
    }
    Map<String, String> adjusted = new LinkedHashMap<>();
    files.forEach((name, text) -> adjusted.put(name, adjust(name, text, files)));
    ProjectWriter.writeFiles(adjusted, out);
  }

  /** The runtime's headers and library sources (the default channel implementation), by path in the output. */
  private static Map<String, String> runtimeFiles(Path runtime) throws IOException {
    if (!Files.isDirectory(runtime.resolve("include")) || !Files.isDirectory(runtime.resolve("src"))) {
      throw new IOException("expected runtime-c with include/ and src/");
    }
    Map<String, String> files = new LinkedHashMap<>();
    for (String part : List.of("include", "src")) {
      List<Path> paths;
      try (Stream<Path> walk = Files.walk(runtime.resolve(part))) {
        paths = new ArrayList<>(walk.filter(Files::isRegularFile).filter(p -> p.toString().matches(".*\\.[ch]"))
            .filter(p -> !p.getFileName().toString().equals("channel_lamport.c")).sorted().toList());
      }
      for (Path path : paths) {
        String name = RUNTIME + "/" + runtime.relativize(path).toString().replace('\\', '/');
        files.put(name, Files.readString(path, StandardCharsets.UTF_8).replace("\r\n", "\n"));
      }
    }
    return files;
  }

  /** A file as the project's build compiles it: includes of the copy relative, _GNU_SOURCE first. */
  static String adjust(String name, String text, Map<String, String> files) {
    String folder = name.contains("/") ? name.substring(0, name.lastIndexOf('/')) : "";
    Matcher m = INCLUDE.matcher(text);
    StringBuilder result = new StringBuilder();
    while (m.find()) {
      String found = resolve(folder, m.group(2), files);
      String line = found == null ? m.group() : m.group(1) + "\"" + relative(folder, found) + "\"";
      m.appendReplacement(result, Matcher.quoteReplacement(line));
    }
    m.appendTail(result);
    String adjusted = result.toString();
    if (!name.endsWith(".c")) {
      return adjusted;
    }
    return PRELUDE + adjusted;
  }

  /** The file of the copy an include names: beside the includer, else in the runtime's include/ or src/. */
  private static String resolve(String folder, String include, Map<String, String> files) {
    for (String base : new String[] {folder, RUNTIME + "/include", RUNTIME + "/src"}) {
      String candidate = normalise(base.isEmpty() ? include : base + "/" + include);
      if (candidate != null && files.containsKey(candidate)) {
        return candidate;
      }
    }
    return null;
  }

  private static String relative(String folder, String file) {
    Path from = folder.isEmpty() ? Path.of("") : Path.of(folder);
    return from.relativize(Path.of(file)).toString().replace('\\', '/');
  }

  private static String normalise(String path) {
    Path normal = Path.of(path).normalize();
    return normal.startsWith("..") ? null : normal.toString().replace('\\', '/');
  }
}
