package org.cacheflow.codegen;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.cacheflow.codegen.model.ActorSources;
import org.cacheflow.codegen.model.CodeProject;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

/** Generated programs broken on purpose: the build stops with a message that names the cause. */
class BrokenProgramTest {

  @TempDir
  Path dir;

  @BeforeEach
  void needsTools() {
    Assumptions.assumeFalse(System.getProperty("cacheflow.e2e", "default").equals("none"), "end-to-end tests disabled");
    Assumptions.assumeTrue(EndToEndTest.available("cmake") && EndToEndTest.available("cc"), "cmake or cc missing");
  }

  /** Generates the test graph (optionally edited) with real actors from the given folders, and builds it. */
  private String build(String graphText, Path sources, Path include) throws IOException {
    Path graph = dir.resolve("tiny.pi");
    Files.writeString(graph, graphText);
    CodeProject project = TestInputs.model(TestInputs.srdag(graph, null), 2, "auto", false);
    Path out = dir.resolve("out");
    ProjectWriter.write(project, new ActorSources(out.relativize(sources).toString(),
        List.of(out.relativize(include).toString())), TestInputs.runtime(), out);
    AssertionFailedError failure = assertThrows(AssertionFailedError.class, () -> {
      EndToEndTest.exec(out, 300, List.of("cmake", "-S", out.toString(), "-B", out.resolve("build").toString(),
          "-DCACHEFLOW_WERROR=ON", "-DCACHEFLOW_BUNDLED_RUNTIME=ON"));
      EndToEndTest.exec(out, 600, List.of("cmake", "--build", out.resolve("build").toString()));
    }, "the broken program built");
    return failure.getMessage();
  }

  private static String tinyGraph() throws IOException {
    return Files.readString(TestInputs.TINY.resolve("Algo/tiny.pi"));
  }

  private Path copyOf(String folder) throws IOException {
    Path copy = dir.resolve(folder.replace('/', '_'));
    Files.createDirectories(copy);
    try (var files = Files.list(TestInputs.TINY.resolve(folder))) {
      for (Path file : files.toList()) {
        Files.copy(file, copy.resolve(file.getFileName()));
      }
    }
    return copy;
  }

  @Test
  void aMissingActorFunctionIsNamedByTheLinker() throws IOException {
    Path sources = copyOf("Code/src");
    Path file = sources.resolve("tiny.c");
    String text = Files.readString(file);
    Files.writeString(file, text.substring(0, text.indexOf("void collect(")));
    String message = build(tinyGraph(), sources, TestInputs.TINY.resolve("Code/include"));
    assertTrue(message.contains("undefined reference to `collect'"), message);
  }

  @Test
  void aMissingSourceFolderStopsTheConfiguration() throws IOException {
    Path empty = Files.createDirectories(dir.resolve("empty"));
    String message = build(tinyGraph(), empty, TestInputs.TINY.resolve("Code/include"));
    assertTrue(message.contains("no actor sources (*.c) in"), message);
  }

  @Test
  void aMissingHeaderIsNamed() throws IOException {
    Path empty = Files.createDirectories(dir.resolve("no-headers"));
    String message = build(tinyGraph(), TestInputs.TINY.resolve("Code/src"), empty);
    assertTrue(message.contains("actor header tiny.h (a refinement of the graph) was not found"), message);
  }

  @Test
  void aPrototypeThatDisagreesWithTheHeaderFailsAtTheCallSite() throws IOException {
    // the .pi says scale's input is float; the header says unsigned char
    String graph = tinyGraph().replace(
        "<param direction=\"IN\" isConfig=\"false\" name=\"in\" type=\"unsigned char\"/>",
        "<param direction=\"IN\" isConfig=\"false\" name=\"in\" type=\"float\"/>");
    String message = build(graph, TestInputs.TINY.resolve("Code/src"), TestInputs.TINY.resolve("Code/include"));
    assertTrue(message.contains("core_") && message.contains("scale(") && message.contains("incompatible"), message);
  }
}
