package org.cacheflow.io.workflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.cacheflow.io.project.TestCorpus;
import org.cacheflow.model.TaskVariable;
import org.cacheflow.model.Workflow;
import org.cacheflow.model.WorkflowTask;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkflowReaderTest {

  @TempDir
  Path temp;

  private Path write(String text) throws IOException {
    Path file = temp.resolve("test.workflow");
    Files.writeString(file, text);
    return file;
  }

  @Test
  void everyCorpusWorkflowReads() {
    List<Path> files = TestCorpus.files("preesm-apps", ".workflow");
    assertTrue(files.size() >= 130, "the corpus has 131 workflows, found " + files.size());
    for (Path file : files) {
      Workflow workflow = WorkflowReader.read(file, new Diagnostics());
      assertTrue(!workflow.getTasks().isEmpty(), file + " has tasks");
    }
  }

  @Test
  void stereoMemoryScriptWorkflowHandChecked() {
    Path file = TestCorpus.preesmApp("org.ietr.preesm.stereo")
        .resolve("Workflows/CodegenMemoryScriptsMixedMerged.workflow");
    Diagnostics diagnostics = new Diagnostics();
    Workflow workflow = WorkflowReader.read(file, diagnostics);

    assertEquals(10, workflow.getTasks().size());
    WorkflowTask allocation = WorkflowReader.findTask(workflow,
        "org.ietr.preesm.memory.allocation.MemoryAllocatorTask").orElseThrow();
    assertEquals("Memory Allocation", allocation.getName());
    assertEquals(7, allocation.getVariables().size());
    TaskVariable alignment = WorkflowReader.findVariable(allocation, "Data alignment").orElseThrow();
    assertEquals("Fixed:=512", alignment.getValue());
    assertEquals(34, alignment.getLine(), "the first 'Data alignment' line of the file");
    assertEquals(file.toString(), alignment.getFile());
    WorkflowTask gantt = workflow.getTasks().get(0);
    assertEquals("Display Gantt", gantt.getName());
    assertTrue(gantt.getVariables().isEmpty(), "<dftools:data key=\"variables\"/> is empty");
    assertTrue(diagnostics.isEmpty(), diagnostics.warnings().toString());
  }

  @Test
  void variableWithoutValueIsAnErrorAtItsLine() throws IOException {
    Path file = write("""
        <dftools:workflow xmlns:dftools="http://net.sf.dftools">
          <dftools:task pluginId="p" taskId="T">
            <dftools:data key="variables">
              <dftools:variable name="Verbose"/>
            </dftools:data>
          </dftools:task>
        </dftools:workflow>
        """);
    InputException error = assertThrows(InputException.class, () -> WorkflowReader.read(file, new Diagnostics()));
    assertEquals("variable 'Verbose' of task 'T' has no 'value' attribute", error.getMessage());
    assertEquals(4, error.location().line());
  }

  @Test
  void taskWithoutPluginIdIsAnError() throws IOException {
    Path file = write("<workflow>\n<task taskId=\"T\"/>\n</workflow>\n");
    InputException error = assertThrows(InputException.class, () -> WorkflowReader.read(file, new Diagnostics()));
    assertEquals("<task> has no 'pluginId' attribute", error.getMessage());
    assertEquals(2, error.location().line());
  }

  @Test
  void repeatedVariableKeepsTheLastValueWithAWarning() throws IOException {
    Path file = write("""
        <workflow>
          <task pluginId="p" taskId="T">
            <data key="variables">
              <variable name="Verbose" value="True"/>
              <variable name="Verbose" value="False"/>
            </data>
          </task>
        </workflow>
        """);
    Diagnostics diagnostics = new Diagnostics();
    WorkflowTask task = WorkflowReader.read(file, diagnostics).getTasks().get(0);
    assertEquals(1, task.getVariables().size());
    assertEquals("False", task.getVariables().get(0).getValue());
    assertEquals(5, diagnostics.warnings().get(0).location().line());
  }
}
