package org.cacheflow.codegen;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

import org.cacheflow.codegen.model.ActorSources;
import org.cacheflow.codegen.model.Core;
import org.cacheflow.codegen.model.VariantProgram;
import org.cacheflow.codegen.printer.CMakePrinter;
import org.cacheflow.codegen.printer.ToolchainPrinter;
import org.cacheflow.codegen.printer.VariantCorePrinter;
import org.cacheflow.codegen.printer.VariantHeaderPrinter;
import org.cacheflow.codegen.printer.VariantMainPrinter;

/** Prints a program holding several variants ({@link VariantProgram}) as a CMake project, as {@link ProjectWriter}. */
public final class VariantWriter {

  private VariantWriter() {
  }

  /** The generated files by relative path, in a fixed order. */
  public static Map<String, String> print(VariantProgram program, ActorSources actors) {
    Map<String, String> files = new LinkedHashMap<>();
    files.put("CMakeLists.txt", new CMakePrinter(program.frame(), actors).print().toString());
    files.put("graph.h", new VariantHeaderPrinter(program).print().toString());
    files.put("main.c", new VariantMainPrinter(program).print().toString());
    for (Core core : program.frame().cores()) {
      files.put("core_" + core.index() + ".c", new VariantCorePrinter(program, core.index()).print().toString());
    }
    for (String triple : ToolchainPrinter.TRIPLES) {
      files.put("toolchains/" + triple + ".cmake", new ToolchainPrinter(program.frame(), triple).print().toString());
    }
    files.replaceAll((name, text) -> text.replace("\r\n", "\n"));
    return files;
  }

  /**
   * Writes the program into {@code out} with a copy of the runtime, replacing what was there once everything is
   * written ({@link ProjectWriter#write(org.cacheflow.codegen.model.CodeProject, ActorSources, Path, Path, Consumer)}).
   *
   * @throws UncheckedIOException when writing fails; {@code out} is then as it was
   */
  public static void write(VariantProgram program, ActorSources actors, Path runtime, Path out,
      Consumer<Path> waiting) {
    ProjectWriter.write(print(program, actors), runtime, out, waiting);
  }
}
