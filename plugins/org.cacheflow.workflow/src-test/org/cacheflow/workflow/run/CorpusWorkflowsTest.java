package org.cacheflow.workflow.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.cacheflow.io.project.PreesmProject;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.junit.jupiter.api.Test;

/**
 * Every PREESM workflow of the corpus is read and planned without error: the tasks cacheflow does not implement
 * are reported once each, and a workflow asks for one generation exactly when it holds PREESM's static code
 * generation task (found here by searching the file text, independently of the reader).
 */
class CorpusWorkflowsTest {

  private static List<Path> projects() throws IOException {
    String property = System.getProperty("cacheflow.corpus");
    Path apps = property == null ? null : Path.of(property, "preesm-apps");
    assumeTrue(apps != null && Files.isDirectory(apps), "test corpus not found (system property cacheflow.corpus = "
        + property + "); skipping");
    try (Stream<Path> entries = Files.list(apps)) {
      return entries.filter(Files::isDirectory).sorted().toList();
    }
  }

  private static boolean hasStaticCodegen(Path workflow) throws IOException {
    String text = Files.readString(workflow);
    return TaskRole.PREESM_CODE_GENERATORS.stream().anyMatch(id -> text.contains("pluginId=\"" + id + "\""));
  }

  @Test
  void everyWorkflowIsReadAndPlanned() throws IOException {
    int workflows = 0;
    int generating = 0;
    for (Path directory : projects()) {
      PreesmProject project = PreesmProject.open(directory, new Diagnostics());
      assumeTrue(!project.scenarios().isEmpty(), "no scenario in " + directory);
      Path scenario = project.scenarios().get(0);
      for (Path workflow : project.workflows()) {
        RecordingGenerator recorder = new RecordingGenerator();
        WorkflowRunner runner = new WorkflowRunner(recorder, SettingsChange.NONE, recorder);
        List<Generation> planned = runner.plan(project, List.of(new WorkflowRunner.Pair(workflow, scenario)),
            new Diagnostics());
        workflows++;
        boolean expected = hasStaticCodegen(workflow);
        assertEquals(expected ? 1 : 0, planned.size(), workflow.toString());
        if (expected) {
          generating++;
          assertTrue(recorder.noteMessages().stream().anyMatch(note -> note.contains("runs as cacheflow code "
              + "generation with default settings")), workflow + ": " + recorder.noteMessages());
        } else {
          assertTrue(recorder.noteMessages().stream().anyMatch(note -> note.startsWith("the workflow generates no "
              + "code")), workflow + ": " + recorder.noteMessages());
        }
        assertTrue(recorder.noteMessages().stream().allMatch(note -> note.contains("not needed by cacheflow")
            || note.contains("runs as cacheflow") || note.startsWith("the workflow generates no code")),
            recorder.noteMessages().toString());
        assertTrue(recorder.requests.isEmpty(), "planning generates nothing");
      }
    }
    // the corpus README counts 131 workflows; most end in PREESM's code generation
    assertTrue(workflows >= 100, "only " + workflows + " workflows found");
    assertTrue(generating * 2 > workflows, generating + " of " + workflows);
  }

  @Test
  void ciPairsAreRunWithEachSkippedTaskReportedOnce() throws IOException {
    int projectsWithCi = 0;
    for (Path directory : projects()) {
      PreesmProject project = PreesmProject.open(directory, new Diagnostics());
      if (project.ciFile().isEmpty()) {
        continue;
      }
      projectsWithCi++;
      RecordingGenerator recorder = new RecordingGenerator();
      WorkflowRunner runner = new WorkflowRunner(recorder, SettingsChange.NONE, recorder);
      Diagnostics diagnostics = new Diagnostics();
      List<WorkflowRunner.Pair> pairs = project.ciRuns(diagnostics).isEmpty() ? List.of()
          : runner.select(project, null, null, diagnostics);
      runner.plan(project, pairs, diagnostics);
      Set<RecordingGenerator.Note> seen = new HashSet<>();
      for (RecordingGenerator.Note note : recorder.notes) {
        assertTrue(seen.add(note), "reported twice: " + note);
      }
      if (!pairs.isEmpty()) {
        assertFalse(recorder.notes.isEmpty(), directory.toString());
      }
    }
    assertTrue(projectsWithCi >= 5, "corpus projects with a .ci.yaml: " + projectsWithCi);
  }
}
