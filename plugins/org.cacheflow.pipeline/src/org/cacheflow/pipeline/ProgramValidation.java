package org.cacheflow.pipeline;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.pipeline.Calibration.Outcome;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/**
 * A generated program checked as PREESM's CI checks an application: its CMake project configured and built (Release,
 * in a temporary folder), the program run with {@code --validate=preesm}, and its output compared with the project's
 * {@code .validation.hash} ({@link ValidationCheck}). The program is the one executable the CMake project defines, as
 * CMake's file API reports it: cacheflow's own project or a PREESM project's {@code Code/CMakeLists.txt}.
 */
final class ProgramValidation {

  private final PipelineListener listener;

  ProgramValidation(PipelineListener listener) {
    this.listener = listener;
  }

  ValidationCheck run(Path source, Path project, Integer iterations) {
    Path build = null;
    try {
      build = Files.createTempDirectory("cacheflow-check");
      Path program = build(source, build);
      List<String> command = new ArrayList<>(List.of(program.toString()));
      if (iterations != null) {
        command.addAll(List.of("--iterations", iterations.toString()));
      }
      command.add("--validate=preesm");
      listener.step("running " + program.getFileName() + " " + String.join(" ", command.subList(1, command.size())));
      Outcome ran = Outcome.of(command, null, null);
      if (ran.status() != 0) {
        throw new InputException(location(source), "the program " + program.getFileName() + " failed (exit status "
            + ran.status() + ")" + said(ran));
      }
      return ValidationCheck.of(project, ran.out());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      Calibration.delete(build);
    }
  }

  private Path build(Path source, Path build) throws IOException {
    listener.step("building " + PathText.display(source) + " (CMake, Release)");
    // CMake's file API: the configure step answers with the targets and the files they produce
    Path query = build.resolve(".cmake/api/v1/query/codemodel-v2");
    Files.createDirectories(query.getParent());
    Files.createFile(query);
    Outcome configured = Outcome.of(List.of("cmake", "-S", source.toString(), "-B", build.toString(),
        "-DCMAKE_BUILD_TYPE=Release"), null, null);
    if (configured.status() != 0) {
      throw new InputException(location(source), "the program's CMake project cannot be configured" + said(
          configured));
    }
    Outcome built = Outcome.of(List.of("cmake", "--build", build.toString(), "-j", "2"), null, null);
    if (built.status() != 0) {
      throw new InputException(location(source), "the program does not build" + said(built));
    }
    List<Path> programs = executables(build);
    if (programs.size() != 1) {
      throw new InputException(location(source), "expected the CMake project to define one program, found "
          + programs.size() + (programs.isEmpty() ? "" : ": " + programs.stream().map(p -> p.getFileName()
              .toString()).toList()));
    }
    return programs.get(0);
  }

  /** The executables of the configured build folder, from the file API's reply. */
  private static List<Path> executables(Path build) throws IOException {
    Path reply = build.resolve(".cmake/api/v1/reply");
    Path index;
    try (Stream<Path> files = Files.list(reply)) {
      index = files.filter(f -> f.getFileName().toString().startsWith("index-")).sorted().reduce((a, b) -> b)
          .orElseThrow(() -> new IOException("CMake wrote no file API reply in " + reply));
    }
    String codemodel = json(index).getAsJsonObject("reply").getAsJsonObject("codemodel-v2").get("jsonFile")
        .getAsString();
    List<Path> programs = new ArrayList<>();
    for (JsonElement configuration : json(reply.resolve(codemodel)).getAsJsonArray("configurations")) {
      for (JsonElement target : configuration.getAsJsonObject().getAsJsonArray("targets")) {
        JsonObject detail = json(reply.resolve(target.getAsJsonObject().get("jsonFile").getAsString()));
        if (!"EXECUTABLE".equals(detail.get("type").getAsString()) || !detail.has("artifacts")) {
          continue;
        }
        for (JsonElement artifact : detail.getAsJsonArray("artifacts")) {
          programs.add(build.resolve(artifact.getAsJsonObject().get("path").getAsString()));
        }
      }
    }
    return programs;
  }

  private static JsonObject json(Path file) throws IOException {
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      return JsonParser.parseReader(reader).getAsJsonObject();
    }
  }

  private static SourceLocation location(Path source) {
    Path lists = source.resolve("CMakeLists.txt");
    return new SourceLocation(PathText.display(Files.exists(lists) ? lists : source), 0, 0);
  }

  private static String said(Outcome outcome) {
    if (outcome.status() == Outcome.NOT_STARTED) {
      return ": cannot start " + outcome.command() + " (" + outcome.tail() + ")";
    }
    return outcome.tail().isEmpty() ? "" : ":\n" + outcome.tail();
  }
}
