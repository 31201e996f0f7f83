package org.cacheflow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.cacheflow.scripts.testing.ScriptedProjects;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cacheflow scripts}: graphs, projects, scenarios, JSON, errors and exit statuses. */
class ScriptsCommandTest {

  /** The chain A -> B -> C of 8 ints where B runs {@code scriptName}; B's script is named on graph line 11. */
  private static Path project(Path directory, String scriptName, String script) throws IOException {
    ScriptedProjects.writeChain(directory, "int", scriptName, script);
    return directory;
  }

  private static Path corpusApp(String name) {
    String corpus = System.getProperty("cacheflow.corpus");
    Path app = corpus == null ? null : Path.of(corpus, "preesm-apps", name);
    Assumptions.assumeTrue(app != null && Files.isDirectory(app), name + " absent from the corpus; skipped");
    return app;
  }

  @Test
  void stereoExampleScriptsEvaluateWithMarksAndMatches() {
    Examples.Run run = Examples.run("scripts", "../../examples/stereo");
    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().contains("graph stereo"), run.out());
    assertTrue(run.out().contains(" read-mostly"), run.out());
    assertTrue(run.out().contains("  match "), run.out());
  }

  /**
   * B's script matches the first n/2 = 4 tokens of its output (ints, 4 bytes) with the last 4 of its input:
   * local bytes [0..16) with remote bytes [16..32), reported with the remote FIFO; the mark is reported on
   * the instance and on the FIFO.
   */
  @Test
  void projectDirectoryReportsMatchesInBytesAndMarks(@TempDir Path directory) throws IOException {
    Path project = project(directory, "half.bsh", "o_out.matchWith(0, i_in, n / 2, n / 2);\ni_in.markReadMostly();\n");
    Examples.Run run = Examples.run("scripts", project.toString());
    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().contains("top/B_0  (" + project.resolve("Code/Scripts/half.bsh")), run.out());
    assertTrue(run.out().contains("  match o_out[0..16) <-> top/A_0.out->top/B_0.in (i_in)[16..32)\n"), run.out());
    assertTrue(run.out().contains("  mark i_in read-mostly\n"), run.out());
    assertTrue(run.out().contains("  top/A_0.out->top/B_0.in: read-mostly\n"), run.out());

    Examples.Run json = Examples.run("scripts", project.toString(), "--json");
    assertEquals(0, json.status(), json.err());
    assertTrue(json.out().startsWith("[\n{\"source\":\""), json.out());
    assertTrue(json.out().contains("\"localRange\":{\"startByte\":0,\"endByte\":16,\"startBit\":0,\"endBit\":128},"
        + "\"remote\":\"i_in\",\"remoteFifo\":\"top/A_0.out->top/B_0.in\",\"remoteRange\":{\"startByte\":16,"
        + "\"endByte\":32,\"startBit\":128,\"endBit\":256}"), json.out());
    assertTrue(json.out().contains("\"marks\":{\"top/A_0.out->top/B_0.in\":[\"read-mostly\"]}"), json.out());
  }

  /** The graph line that names the script: line 11, the {@code <data key="memoryScript">} of B. */
  @Test
  void missingScriptIsAnErrorAtTheGraphLine(@TempDir Path directory) throws IOException {
    Path project = project(directory, "absent.bsh", null);
    Examples.Run run = Examples.run("scripts", project.toString());
    assertEquals(Main.BAD_INPUT, run.status(), run.out());
    assertTrue(run.out().contains("  error: " + project.resolve("Algo/top.pi") + ":11:"), run.out());
    assertTrue(run.out().contains("memory script 'Code/Scripts/absent.bsh' of actor top/B does not exist"), run.out());
    assertTrue(run.err().contains("error: 1 memory-script error (listed in the report)"), run.err());
  }

  @Test
  void failingScriptIsAnErrorAtItsPosition(@TempDir Path directory) throws IOException {
    Path project = project(directory, "bad.bsh", "x = 1;\no_out.matchWith(0, i_in, n, 1);\n");
    Examples.Run run = Examples.run("scripts", project.resolve("Algo/top.pi").toString());
    assertEquals(Main.BAD_INPUT, run.status(), run.out());
    assertTrue(run.out().contains("  error: " + project.resolve("Code/Scripts/bad.bsh") + ":2:7: cannot match "
        + "top/B_0.o_out[0..1) with top/B_0.i_in[8..9) (tokens): no real token of top/B_0.i_in [0..8) is matched"),
        run.out());
  }

  /** A match the remote side does not see (two outputs matched): rejected, in detail or in summary. */
  @Test
  void checkPolicyDecidesHowMuchIsSaid(@TempDir Path directory) throws IOException {
    Path project = project(directory, "twice.bsh",
        "o_out.matchWith(0, i_in, 0, 4);\no_out.matchWith(2, i_in, 4, 4);\n");
    Examples.Run thorough = Examples.run("scripts", project.toString());
    assertTrue(thorough.out().contains("  rejected: range [8..16) bytes of output top/B_0.o_out is matched more than "
        + "once"),
        thorough.out());
    Examples.Run fast = Examples.run("scripts", project.toString(), "--check", "fast");
    assertTrue(fast.out().contains("  rejected: matching a range of an output buffer more than once is not allowed"),
        fast.out());
    Examples.Run none = Examples.run("scripts", project.toString(), "--check", "none");
    assertFalse(none.out().contains("rejected:"), none.out());
    assertEquals(Main.USAGE, Examples.run("scripts", project.toString(), "--check", "some").status());
  }

  /**
   * sobel's split.bsh with the graph's values (width 352, height 288, 8 slices): each slice has
   * 288 / 8 + 2 = 38 rows of 352 bytes = 13376 bytes, and the first starts one row (352 bytes) before the
   * input image, in virtual tokens.
   */
  @Test
  void corpusSobelSplitMatchesAreHandDerived() {
    Path sobel = corpusApp("org.ietr.preesm.sobel");
    Examples.Run run = Examples.run("scripts", sobel.toString());
    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().contains("  match o_output[0..13376) <-> top_sobel_memory/Read_YUV_0.y->"
        + "top_sobel_memory/Split_0.input (i_input)[-352..13024)\n"), run.out());
    assertTrue(run.out().contains("  match o_output[93632..107008) <-> top_sobel_memory/Read_YUV_0.y->"
        + "top_sobel_memory/Split_0.input (i_input)[88352..101728)\n"), run.out());
  }

  /** stereo's lowMaxDisparity scenario sets maxDisparity to 4: 4 disparitySelect firings instead of 60. */
  @Test
  void scenarioParameterValuesAreUsed() {
    Path stereo = corpusApp("org.ietr.preesm.stereo");
    Examples.Run low = Examples.run("scripts", stereo.toString(), "--scenario",
        stereo.resolve("Scenarios/lowMaxDisparity.scenario").toString());
    assertEquals(0, low.status(), low.err());
    assertTrue(low.out().contains("\nstereo_top/Cost_Parallel_Work/disparitySelect_3  ("), low.out());
    assertFalse(low.out().contains("\nstereo_top/Cost_Parallel_Work/disparitySelect_4  ("), low.out());

    Examples.Run all = Examples.run("scripts", stereo.toString());
    assertEquals(0, all.status(), all.err());
    assertTrue(all.out().contains("Scenarios/lowMaxDisparity.scenario)\n"), all.out());
    assertTrue(all.out().contains("\nstereo_top/Cost_Parallel_Work/disparitySelect_59  ("), all.out());
  }

  @Test
  void missingGraphIsBadInput() {
    assertEquals(Main.BAD_INPUT, Examples.run("scripts", "no/such.pi").status());
  }
}
