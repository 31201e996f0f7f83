package org.cacheflow.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.codegen.model.CodeProject;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code --validate=preesm} names the sink buffers as PREESM's code generator does: the buffers the corpus's
 * applications list in their {@code .validation.hash} (kept by PREESM's CI), in the order the CI sorts them.
 */
class PreesmValidationNamesTest {

  @ParameterizedTest
  @CsvSource({"org.ietr.preesm.stereo, 4core.scenario", "org.ietr.preesm.stabilization, 4coreX86.scenario",
      "org.ietr.preesm.sobel-morpho, 4core.scenario"})
  void sinkBuffersAreTheOnesOfTheProjectsValidationFile(String app, String scenario) throws IOException {
    Path project = TestInputs.corpus().resolve("preesm-apps").resolve(app);
    Srdag srdag = TestInputs.srdag(project, scenario);
    CodeProject code = TestInputs.model(project, srdag, 2, "preesm", true);
    List<String> expected = Files.readAllLines(project.resolve(".validation.hash")).stream()
        .filter(line -> !line.isBlank()).map(line -> line.substring("preesm_md5_".length(), line.indexOf(" : ")))
        .toList();
    assertFalse(expected.isEmpty());
    assertEquals(expected, code.preesmDigests().stream().map(CodeProject.PreesmDigest::buffer).toList());
  }
}
