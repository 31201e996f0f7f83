package org.cacheflow.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.pipeline.PathText;
import org.cacheflow.pipeline.Pipeline;
import org.cacheflow.pipeline.ValidationCheck;
import org.cacheflow.workflow.run.Generation;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code cacheflow check}: a program's {@code --validate=preesm} output against a project's .validation.hash. */
@Command(name = "check", header = "compare a program's --validate=preesm output with a PREESM project's "
    + ".validation.hash", synopsisHeading = "usage: ", abbreviateSynopsis = true, separator = " ", sortOptions = false,
    description = {"", "Compares the lines 'preesm_md5_<buffer> : <md5>' a generated program prints with "
        + "--validate=preesm (the sink buffers named and their digests printed as PREESM's generated code prints "
        + "them) with the project's .validation.hash, as PREESM's CI compares them: the lines found in the output, "
        + "sorted, must be the file's. Prints 'matches' and exits 0, or the differences (the file's line with -, the "
        + "printed one with +) and exits 1. Run the program with the iterations the file was made with.", "",
        "example: build/app --iterations 10 --validate=preesm | cacheflow check path/to/project"},
    optionListHeading = "%noptions:%n", parameterListHeading = "%n")
public final class CheckCommand extends CliCommand {

  @Parameters(paramLabel = "PROJECT", arity = "0..1", description = "the project folder (holding .validation.hash) "
      + "or the file itself (default: the working directory)")
  List<String> positionals;

  @Option(names = "--output", paramLabel = "FILE", description = "the program's output (default: standard input)")
  Path output;

  /** Standard input, unless a test gives another. */
  InputStream in = System.in;

  @Override
  public Integer call() {
    Path project = positionals == null || positionals.isEmpty() ? Path.of(".") : single(positionals, "project");
    String printed = read();
    ValidationCheck check = new Pipeline(progress()).checkValidation(project, printed);
    if (check.found().isEmpty()) {
      throw new InputException(new SourceLocation(output == null ? "<standard input>" : output.toString(), 0, 0),
          "no 'preesm_md5_<buffer> : <md5>' line: was the program run with --validate=preesm?");
    }
    return report(check, out);
  }

  /**
   * Prints {@code matches FILE: N buffers} (with a note for each group of buffers that matches only numbered in
   * another order: {@link ValidationCheck#renumbered()}), or the differences (the file's lines with -, the printed
   * ones with +); returns the exit status: {@link Main#OK} or {@link Main#BAD_INPUT}.
   */
  static int report(ValidationCheck check, PrintStream out) {
    if (check.matches()) {
      out.println("matches " + PathText.display(check.hashFile()) + ": " + check.expected().size() + " buffer"
          + (check.expected().size() == 1 ? "" : "s"));
      check.renumbered().forEach(note -> out.println("  note: " + note));
      return Main.OK;
    }
    out.println("differs from " + PathText.display(check.hashFile()) + " (- the file, + the program):");
    check.differences().forEach(line -> out.println("  " + line));
    return Main.BAD_INPUT;
  }

  /**
   * Before {@code run-workflow} generates anything: with {@code --check}, the project's .validation.hash must exist
   * (bad input naming it otherwise); without, a note says that {@code --check} would use the file when there is one.
   */
  static void beforeWorkflows(Path project, boolean check, PrintStream err) {
    Path file = project.resolve(ValidationCheck.HASH_FILE);
    if (check && !Files.isRegularFile(file)) {
      throw new InputException(new SourceLocation(PathText.display(file), 0, 0), "--check compares the program's "
          + "output with this file, which does not exist");
    }
    if (!check && Files.isRegularFile(file)) {
      err.println("note: " + PathText.display(file) + ": --check also builds and runs the generated program and "
          + "compares its output with this file");
    }
  }

  /**
   * The check step of {@code run-workflow --check}: builds each program generated (a CMake project of its own, or
   * PREESM's {@code Code/generated}, built by the project's {@code Code/CMakeLists.txt}), runs it with
   * {@code --validate=preesm} and reports as {@code check} does; returns the exit status, 1 when any differs.
   */
  static int checkGenerations(Pipeline pipeline, Path project, List<Generation> generations, Integer iterations,
      PrintStream out) {
    int status = Main.OK;
    for (Generation generation : generations) {
      Path generated = generation.result().directory();
      Path source = Files.isRegularFile(generated.resolve("CMakeLists.txt")) ? generated : generated.getParent();
      if (source == null || !Files.isRegularFile(source.resolve("CMakeLists.txt"))) {
        throw new InputException(new SourceLocation(PathText.display(generated), 0, 0), "--check: no "
            + "CMakeLists.txt builds this folder (neither in it nor in its parent)");
      }
      out.print("check " + PathText.display(generation.workflow()) + " on " + PathText.display(generation.scenario())
          + ": ");
      status = Math.max(status, report(pipeline.checkProgram(source, project, iterations), out));
    }
    return status;
  }

  private String read() {
    try {
      return output == null ? new String(in.readAllBytes(), StandardCharsets.UTF_8) : Files.readString(output);
    } catch (IOException e) {
      throw new InputException(new SourceLocation(output == null ? "<standard input>" : output.toString(), 0, 0),
          "cannot read the program's output: " + e.getMessage(), e);
    }
  }
}
