package org.cacheflow.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fingerprint changes exactly when something the generation reads changes. */
class InputFingerprintTest {

  @TempDir
  Path project;
  Path output;

  @BeforeEach
  void smallProject() throws IOException {
    Files.createDirectories(project.resolve("Algo"));
    Files.writeString(project.resolve("Algo/top.pi"), "<graph/>");
    Files.writeString(project.resolve(".ci.yaml"), "config: []\n");
    output = project.resolve("Code/generated");
    Files.createDirectories(output);
  }

  private String fingerprint(String settings) {
    return InputFingerprint.of(List.of(project), List.of(output), settings);
  }

  @Test
  void sameInputsSameFingerprint() {
    assertEquals(fingerprint("--cores 2"), fingerprint("--cores 2"));
  }

  @Test
  void aChangedGraphOrSettingChangesIt() throws IOException {
    String before = fingerprint("--cores 2");
    assertNotEquals(before, fingerprint("--cores 4"));
    Files.writeString(project.resolve("Algo/top.pi"), "<graph name='x'/>");
    assertNotEquals(before, fingerprint("--cores 2"));
  }

  @Test
  void hiddenFilesCountHiddenFoldersAndTheOutputDoNot() throws IOException {
    String before = fingerprint("");
    Files.writeString(output.resolve("main.c"), "int main(void) { return 0; }\n");
    Files.createDirectories(project.resolve(".git"));
    Files.writeString(project.resolve(".git/HEAD"), "ref: refs/heads/main\n");
    assertEquals(before, fingerprint(""));
    Files.writeString(project.resolve(".ci.yaml"), "config:\n- {scenario: a.scenario, workflow: b.workflow}\n");
    assertNotEquals(before, fingerprint(""));
  }

  @Test
  void aRenamedFileChangesIt() throws IOException {
    String before = fingerprint("");
    Files.move(project.resolve("Algo/top.pi"), project.resolve("Algo/other.pi"));
    assertNotEquals(before, fingerprint(""));
  }
}
