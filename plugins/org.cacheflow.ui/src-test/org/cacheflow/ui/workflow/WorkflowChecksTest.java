package org.cacheflow.ui.workflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.cacheflow.ui.workflow.WorkflowProblem.Severity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkflowChecksTest {

  @TempDir
  Path directory;

  private List<WorkflowProblem> check(String text) throws IOException {
    Path file = directory.resolve("Codegen.workflow");
    Files.writeString(file, text, StandardCharsets.UTF_8);
    return WorkflowChecks.check(file);
  }

  @Test
  void aGoodWorkflowHasNoProblems() throws IOException {
    assertEquals(List.of(), check(WorkflowDocumentTest.WORKFLOW));
  }

  @Test
  void badValuesAndUnknownVariablesAreErrorsAtTheirLines() throws IOException {
    String text = WorkflowDocumentTest.WORKFLOW.replace("value=\"Auto\"", "value=\"cow\"")
        .replace("name=\"Overrides\" value='Split.out=cow'", "name=\"Overides\" value='Split.out=cow'");
    List<WorkflowProblem> problems = check(text);
    assertEquals(2, problems.size(), problems.toString());
    WorkflowProblem strategy = problems.get(0);
    assertEquals(Severity.ERROR, strategy.severity());
    assertEquals(10, strategy.line());
    assertTrue(strategy.message().startsWith("'cow' is not a value of 'Memory strategy'"), strategy.message());
    assertTrue(strategy.message().contains("'CopyOnWrite'"), strategy.message());
    WorkflowProblem unknown = problems.get(1);
    assertEquals(14, unknown.line());
    assertTrue(unknown.message().contains("did you mean 'Overrides'?"), unknown.message());
  }

  @Test
  void malformedXmlIsOneErrorAtItsPosition() throws IOException {
    String text = WorkflowDocumentTest.WORKFLOW.replace("<dftools:data key=\"other\"><keep>me</keep>",
        "<dftools:data key=\"other\"><keep>me</kept>");
    List<WorkflowProblem> problems = check(text);
    assertEquals(1, problems.size(), problems.toString());
    assertEquals(Severity.ERROR, problems.get(0).severity());
    assertEquals(16, problems.get(0).line());
    assertEquals("end tag </kept> does not match <keep> of line 16", problems.get(0).message());
  }

  @Test
  void aDuplicateTaskIdIsReportedByTheReader() throws IOException {
    String text = WorkflowDocumentTest.WORKFLOW.replace("taskId=\"bare\"", "taskId=\"Display Gantt\"");
    List<WorkflowProblem> problems = check(text);
    assertEquals(1, problems.size(), problems.toString());
    assertEquals(23, problems.get(0).line());
    assertEquals("workflow task 'Display Gantt' is defined twice", problems.get(0).message());
  }

  @Test
  void aPreesmOnlyWorkflowGetsANoteAndOneWithoutCodeGenerationAWarning() throws IOException {
    String text = WorkflowDocumentTest.WORKFLOW.replace("org.cacheflow.workflow.codegen", "some.other.task");
    List<WorkflowProblem> problems = check(text);
    assertEquals(1, problems.size(), problems.toString());
    assertEquals(Severity.INFO, problems.get(0).severity());
    assertEquals(18, problems.get(0).line());
    List<WorkflowProblem> none = check(text.replace("org.ietr.preesm.codegen.xtend.task.CodegenTask", "x"));
    assertEquals(1, none.size(), none.toString());
    assertEquals(Severity.WARNING, none.get(0).severity());
    assertTrue(none.get(0).message().startsWith("the workflow generates no code"), none.get(0).message());
  }
}
