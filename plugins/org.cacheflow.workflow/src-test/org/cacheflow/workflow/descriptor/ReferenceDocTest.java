package org.cacheflow.workflow.descriptor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.cacheflow.io.workflow.WorkflowReader;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.workflow.CodegenTask;
import org.cacheflow.workflow.run.CodegenSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The task reference in {@code docs/workflow.md} is the one generated from the descriptor. Run with
 * {@code -Dcacheflow.updateDocs=true} to rewrite it after changing the descriptor.
 */
class ReferenceDocTest {

  /** Tests run in the bundle directory. */
  private static final Path DOC = Path.of("../../docs/workflow.md");

  @Test
  void committedReferenceMatchesTheDescriptor() throws IOException {
    String committed = Files.readString(DOC, StandardCharsets.UTF_8);
    String regenerated = ReferenceDoc.replaceSection(committed, ReferenceDoc.markdown(CodegenTask.DESCRIPTOR));
    if (Boolean.getBoolean("cacheflow.updateDocs") && !regenerated.equals(committed)) {
      Files.writeString(DOC, regenerated, StandardCharsets.UTF_8);
      committed = regenerated;
    }
    assertEquals(regenerated, committed, DOC + " is out of date with CodegenTask.DESCRIPTOR: rerun this test with "
        + "-Dcacheflow.updateDocs=true");
  }

  @Test
  void referenceNamesEveryParameterValueDefaultAndError() {
    String markdown = ReferenceDoc.markdown(CodegenTask.DESCRIPTOR);
    for (TaskParameter parameter : CodegenTask.DESCRIPTOR.parameters()) {
      assertTrue(markdown.contains("| `" + parameter.name() + "` |"), parameter.name());
      for (AllowedValue value : parameter.values()) {
        assertTrue(markdown.contains("- `" + value.name() + "`"), value.name());
      }
    }
    assertTrue(markdown.contains("- `Auto` (default): "), "the default value is marked");
    for (DocumentedError error : CodegenTask.DESCRIPTOR.errors()) {
      assertTrue(markdown.contains(error.message().replace("|", "\\|")), error.message());
    }
  }

  @Test
  void theTaskElementOfTheReferenceIsAValidTaskWithEveryDefault(@TempDir Path directory) throws IOException {
    String element = ReferenceDoc.taskElement(CodegenTask.DESCRIPTOR, "cacheflow");
    Path file = directory.resolve("defaults.workflow");
    Files.writeString(file, "<dftools:workflow xmlns:dftools=\"http://net.sf.dftools\">\n" + element
        + "</dftools:workflow>\n");
    var task = WorkflowReader.read(file, new Diagnostics()).getTasks().get(0);
    assertEquals(CodegenTask.PLUGIN_ID, task.getPluginId());
    assertEquals(List.of(), CodegenSettings.problems(task));
    CodegenSettings read = CodegenSettings.read(task);
    CodegenSettings defaults = CodegenSettings.defaults(SourceLocation.file(file));
    assertEquals(List.of(defaults.strategy(), defaults.target(), defaults.overrides(), defaults.syntheticActors()),
        List.of(read.strategy(), read.target(), read.overrides(), read.syntheticActors()));
    assertNull(read.cores());
    assertNull(read.outputDirectory());
    assertEquals(CodegenTask.DESCRIPTOR.parameters().size(), task.getVariables().size());
  }

  @Test
  void markersMustBePresent() {
    assertThrows(IllegalArgumentException.class, () -> ReferenceDoc.replaceSection("no markers", "x"));
    assertEquals("a" + ReferenceDoc.BEGIN + "\nnew\n" + ReferenceDoc.END + "b", ReferenceDoc.replaceSection("a"
        + ReferenceDoc.BEGIN + "\nold\n" + ReferenceDoc.END + "b", "new\n"));
  }
}
