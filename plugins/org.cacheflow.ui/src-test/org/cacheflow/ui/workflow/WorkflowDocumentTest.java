package org.cacheflow.ui.workflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.cacheflow.io.workflow.WorkflowReader;
import org.cacheflow.model.Workflow;
import org.cacheflow.model.WorkflowTask;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.ui.workflow.WorkflowDocument.Task;
import org.cacheflow.ui.workflow.XmlScanner.SyntaxException;
import org.cacheflow.workflow.CodegenTask;
import org.cacheflow.workflow.run.CodegenSettings;
import org.cacheflow.workflow.run.TaskRole;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkflowDocumentTest {

  /** A workflow with what an editor must keep: comments, attributes and elements it does not know, odd spacing. */
  static final String WORKFLOW = """
      <?xml version="1.0" encoding="UTF-8"?>
      <!-- hand-written: keep this comment -->
      <dftools:workflow errorOnWarning="true" verboseLevel="INFO" xmlns:dftools="http://net.sf.dftools">
          <dftools:scenario pluginId="org.ietr.preesm.scenario.task"/>
          <dftools:task pluginId="org.ietr.preesm.plugin.mapper.plot" taskId="Display Gantt">
              <dftools:data key="variables"/>
          </dftools:task>
          <dftools:task pluginId="org.cacheflow.workflow.codegen" taskId="cacheflow"  x:unknown='kept' xmlns:x="urn:kept">
              <dftools:data key="variables">
                  <dftools:variable name="Memory strategy" value="Auto"/>
                  <!-- cores from the architecture -->
                  <dftools:variable   name="Cores"
                      value=""/>
                  <dftools:variable name="Overrides" value='Split.out=cow'/>
              </dftools:data>
              <dftools:data key="other"><keep>me</keep></dftools:data>
          </dftools:task>
          <dftools:task pluginId="org.ietr.preesm.codegen.xtend.task.CodegenTask" taskId="Code Generation">
              <dftools:data key="variables">
                  <dftools:variable name="Printer" value="C"/>
              </dftools:data>
          </dftools:task>
          <dftools:task pluginId="pisdf-srdag" taskId="bare"/>
          <dftools:dataTransfer from="scenario" sourceport="scenario" targetport="scenario" to="cacheflow"/>
      </dftools:workflow>
      """;

  @Test
  void readsTasksVariablesAndRoles() throws SyntaxException {
    WorkflowDocument document = WorkflowDocument.parse(WORKFLOW);
    assertEquals(List.of("Display Gantt", "cacheflow", "Code Generation", "bare"),
        document.tasks().stream().map(Task::taskId).toList());
    assertEquals(List.of(TaskRole.NOT_NEEDED, TaskRole.CACHEFLOW, TaskRole.PREESM_CODE_GENERATION,
        TaskRole.NOT_NEEDED), document.tasks().stream().map(Task::role).toList());
    Task cacheflow = document.cacheflowTasks().get(0);
    assertEquals(8, cacheflow.line());
    assertEquals("Auto", cacheflow.value(CodegenTask.MEMORY_STRATEGY));
    assertEquals("", cacheflow.value(CodegenTask.CORES));
    assertEquals("Split.out=cow", cacheflow.value(CodegenTask.OVERRIDES));
    assertEquals(null, cacheflow.value(CodegenTask.TARGET));
  }

  @Test
  void settingAValueChangesOnlyTheCharactersOfThatValue() throws SyntaxException {
    WorkflowDocument document = WorkflowDocument.parse(WORKFLOW);
    Task cacheflow = document.task("cacheflow");
    String edited = document.setVariable(cacheflow, CodegenTask.MEMORY_STRATEGY, "CopyOnWrite").applyTo(WORKFLOW);
    assertEquals(WORKFLOW.replace("value=\"Auto\"", "value=\"CopyOnWrite\""), edited);
    String cores = WorkflowDocument.parse(edited).setVariable(WorkflowDocument.parse(edited).task("cacheflow"),
        CodegenTask.CORES, "4").applyTo(edited);
    assertEquals(edited.replace("\n                value=\"\"/>", "\n                value=\"4\"/>"), cores);
    // single-quoted values stay single-quoted
    WorkflowDocument again = WorkflowDocument.parse(cores);
    String overrides = again.setVariable(again.task("cacheflow"), CodegenTask.OVERRIDES, "a.b='x'; c.d=ntm")
        .applyTo(cores);
    assertEquals(cores.replace("value='Split.out=cow'", "value='a.b=&apos;x&apos;; c.d=ntm'"), overrides);
    assertEquals("a.b='x'; c.d=ntm", WorkflowDocument.parse(overrides).task("cacheflow")
        .value(CodegenTask.OVERRIDES));
  }

  @Test
  void valuesWithMarkupCharactersRoundTrip() throws SyntaxException {
    WorkflowDocument document = WorkflowDocument.parse(WORKFLOW);
    String value = "/tmp/<out> & \"quoted\"";
    String edited = document.setVariable(document.task("cacheflow"), CodegenTask.OUTPUT_DIRECTORY, value)
        .applyTo(WORKFLOW);
    assertEquals(value, WorkflowDocument.parse(edited).task("cacheflow").value(CodegenTask.OUTPUT_DIRECTORY));
  }

  @Test
  void aMissingVariableIsAddedAfterTheLastOneWithItsIndentation() throws SyntaxException {
    WorkflowDocument document = WorkflowDocument.parse(WORKFLOW);
    TextEdit edit = document.setVariable(document.task("cacheflow"), CodegenTask.TARGET, "generic");
    String edited = edit.applyTo(WORKFLOW);
    String last = "<dftools:variable name=\"Overrides\" value='Split.out=cow'/>";
    assertEquals(WORKFLOW.replace(last, last + "\n            <dftools:variable name=\"Target\" value=\"generic\"/>"),
        edited);
    assertEquals("generic", WorkflowDocument.parse(edited).task("cacheflow").value(CodegenTask.TARGET));
  }

  @Test
  void variablesAreAddedToEmptyAndMissingDataElements() throws SyntaxException {
    WorkflowDocument document = WorkflowDocument.parse(WORKFLOW);
    String gantt = document.setVariable(document.task("Display Gantt"), "k", "v").applyTo(WORKFLOW);
    assertEquals(WORKFLOW.replace("        <dftools:data key=\"variables\"/>\n",
        "        <dftools:data key=\"variables\">\n"
            + "            <dftools:variable name=\"k\" value=\"v\"/>\n"
            + "        </dftools:data>\n"), gantt);
    String bare = document.setVariable(document.task("bare"), "k", "v").applyTo(WORKFLOW);
    assertEquals(WORKFLOW.replace("    <dftools:task pluginId=\"pisdf-srdag\" taskId=\"bare\"/>\n",
        "    <dftools:task pluginId=\"pisdf-srdag\" taskId=\"bare\">\n"
            + "        <dftools:data key=\"variables\">\n"
            + "            <dftools:variable name=\"k\" value=\"v\"/>\n"
            + "        </dftools:data>\n"
            + "    </dftools:task>\n"), bare);
    assertEquals("v", WorkflowDocument.parse(bare).task("bare").value("k"));
  }

  @Test
  void theLastOfTwoEqualVariablesIsTheOneEdited() throws SyntaxException {
    String twice = WORKFLOW.replace("<dftools:variable name=\"Printer\" value=\"C\"/>",
        "<dftools:variable name=\"Printer\" value=\"C\"/><dftools:variable name=\"Printer\" value=\"D\"/>");
    WorkflowDocument document = WorkflowDocument.parse(twice);
    assertEquals("D", document.task("Code Generation").value("Printer"));
    String edited = document.setVariable(document.task("Code Generation"), "Printer", "E").applyTo(twice);
    assertEquals(twice.replace("value=\"D\"", "value=\"E\""), edited);
  }

  @Test
  void crlfFilesGetCrlfLines() throws SyntaxException {
    String crlf = WORKFLOW.replace("\n", "\r\n");
    WorkflowDocument document = WorkflowDocument.parse(crlf);
    String edited = document.setVariable(document.task("cacheflow"), CodegenTask.TARGET, "generic").applyTo(crlf);
    assertEquals(-1, edited.replace("\r\n", "").indexOf('\n'), "a bare LF was inserted");
  }

  @Test
  void addingACacheflowTaskInsertsItWithDefaultsAndItsDataTransfer(@TempDir Path directory)
      throws SyntaxException, IOException {
    String preesmOnly = WORKFLOW.substring(0, WORKFLOW.indexOf("    <dftools:task pluginId=\"org.cacheflow"))
        + WORKFLOW.substring(WORKFLOW.indexOf("    <dftools:task pluginId=\"org.ietr.preesm.codegen"));
    WorkflowDocument document = WorkflowDocument.parse(preesmOnly);
    assertTrue(document.cacheflowTasks().isEmpty());
    String id = document.unusedTaskId("bare");
    assertEquals("bare 2", id);
    String edited = document.addCacheflowTask(id).applyTo(preesmOnly);

    // everything that was there is still there, in order
    assertTrue(isSubsequence(preesmOnly, edited));
    Task added = WorkflowDocument.parse(edited).task(id);
    assertNotNull(added);
    assertEquals(CodegenTask.DESCRIPTOR.defaults().keySet().stream().toList(),
        added.variables().stream().map(WorkflowDocument.Variable::name).toList());
    assertTrue(edited.contains("\n    <dftools:dataTransfer from=\"scenario\" sourceport=\"scenario\" "
        + "targetport=\"scenario\" to=\"bare 2\"/>\n"), edited);

    // PREESM's reader and the task's settings check accept the result
    Path file = directory.resolve("w.workflow");
    Files.writeString(file, edited, StandardCharsets.UTF_8);
    Workflow workflow = WorkflowReader.read(file, new Diagnostics());
    WorkflowTask task = WorkflowReader.findTask(workflow, CodegenTask.PLUGIN_ID).orElseThrow();
    assertEquals(List.of(), CodegenSettings.problems(task));
  }

  @Test
  void addingATaskToAWorkflowWithoutTasksOrTransfers() throws SyntaxException {
    String empty = "<dftools:workflow xmlns:dftools=\"http://net.sf.dftools\">\n"
        + "  <dftools:scenario pluginId=\"org.ietr.preesm.scenario.task\"/>\n</dftools:workflow>\n";
    String edited = WorkflowDocument.parse(empty).addCacheflowTask("cacheflow").applyTo(empty);
    assertTrue(isSubsequence(empty, edited));
    assertTrue(edited.endsWith("  <dftools:dataTransfer from=\"scenario\" sourceport=\"scenario\" "
        + "targetport=\"scenario\" to=\"cacheflow\"/>\n</dftools:workflow>\n"), edited);
    assertTrue(edited.contains("\n  <dftools:task pluginId=\"org.cacheflow.workflow.codegen\" taskId=\"cacheflow\">"
        + "\n    <dftools:data key=\"variables\">\n      <dftools:variable name=\"Memory strategy\" value=\"Auto\"/>"),
        edited);
    assertEquals(1, WorkflowDocument.parse(edited).cacheflowTasks().size());
  }

  @Test
  void whatIsNotAWorkflowIsRejectedWithItsLine() {
    SyntaxException error = assertThrows(SyntaxException.class, () -> WorkflowDocument.parse("<?xml version='1.0'?>\n"
        + "<graphml/>"));
    assertEquals(2, error.line());
    assertEquals("not a PREESM workflow: the root element is <graphml>, expected <dftools:workflow>",
        error.getMessage());
    SyntaxException noId = assertThrows(SyntaxException.class, () -> WorkflowDocument.parse(
        "<w:workflow xmlns:w='x'>\n <w:task pluginId='p'/></w:workflow>"));
    assertEquals(2, noId.line());
  }

  /** Every corpus workflow: each task's first variable (or a new one) can be set, and only that changes. */
  @Test
  void corpusWorkflowsRoundTrip(@TempDir Path directory) throws IOException, SyntaxException {
    Path corpus = Path.of(System.getProperty("cacheflow.corpus", "../../../shared/corpus"), "preesm-apps");
    Assumptions.assumeTrue(Files.isDirectory(corpus), "corpus not found at " + corpus + "; skipped");
    List<Path> workflows;
    try (Stream<Path> walk = Files.walk(corpus)) {
      workflows = walk.filter(p -> p.toString().endsWith(".workflow")).sorted().toList();
    }
    assertTrue(workflows.size() >= 20, "expected the corpus workflows, found " + workflows.size());
    for (Path workflowFile : workflows) {
      String text = Files.readString(workflowFile, StandardCharsets.UTF_8);
      WorkflowDocument document = WorkflowDocument.parse(text);
      Workflow model = WorkflowReader.read(workflowFile, new Diagnostics());
      assertEquals(model.getTasks().stream().map(WorkflowTask::getName).toList(),
          document.tasks().stream().map(Task::taskId).toList(), workflowFile.toString());
      for (Task task : document.tasks()) {
        String name = task.variables().isEmpty() ? "Added" : task.variables().get(0).name();
        String edited = document.setVariable(task, name, "changed & <new>").applyTo(text);
        Path copy = directory.resolve("copy.workflow");
        Files.writeString(copy, edited, StandardCharsets.UTF_8);
        WorkflowTask read = WorkflowReader.read(copy, new Diagnostics()).getTasks().stream()
            .filter(t -> t.getName().equals(task.taskId())).findFirst().orElseThrow();
        assertEquals("changed & <new>", WorkflowReader.findVariable(read, name).orElseThrow().getValue(),
            workflowFile + " " + task.taskId());
        assertTrue(isSubsequence(text.replace(valueText(task, name), ""), edited), workflowFile + " " + task.taskId());
      }
    }
  }

  private static String valueText(Task task, String name) {
    WorkflowDocument.Variable variable = task.variable(name);
    return variable == null ? "\u0000never" : "value=\"" + variable.value() + "\"";
  }

  /** Whether every character of {@code original} appears in {@code edited} in the same order. */
  static boolean isSubsequence(String original, String edited) {
    int j = 0;
    for (int i = 0; i < original.length(); i++) {
      char c = original.charAt(i);
      while (j < edited.length() && edited.charAt(j) != c) {
        j++;
      }
      if (j == edited.length()) {
        return false;
      }
      j++;
    }
    return true;
  }
}
