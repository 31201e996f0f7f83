package org.cacheflow.plan.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.cacheflow.io.pisdf.PiReader;
import org.cacheflow.io.project.PreesmProject;
import org.cacheflow.io.project.ScenarioRun;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.analysis.AnalysisResult;
import org.cacheflow.analysis.GraphAnalysis;
import org.cacheflow.scripts.merge.Piece;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The stereo application (the CoW/NTM paper's main one) with its 4-core scenario: sizes in bits, graph
 * default parameters (height 380, width 434, so an image is S = 164920 pixels; 60 disparities, 5 weight
 * iterations, 20 slices with a 1-row overlap). Every merged FIFO's memory is saved, minus what roots grow by.
 */
class StereoMemoryScriptsTest {

  private static final long S = 380 * 434;
  private static final long W = 434;

  private static ScriptReport report() {
    String corpus = System.getProperty("cacheflow.corpus");
    Path stereo = corpus == null ? null : Path.of(corpus, "preesm-apps", "org.ietr.preesm.stereo");
    Assumptions.assumeTrue(stereo != null && Files.isDirectory(stereo), "stereo application absent; skipped");
    Diagnostics diagnostics = new Diagnostics();
    PreesmProject project = PreesmProject.open(stereo, diagnostics);
    ScenarioRun run = project.load(stereo.resolve("Scenarios/4core.scenario"), PiReader::read, diagnostics);
    AnalysisResult analysis = GraphAnalysis.analyse(run.graph(), Map.of(), diagnostics);
    return MemoryScripts.evaluate(analysis, stereo, MemoryScripts.Options.defaults().withSizesInBits(true),
        diagnostics);
  }

  /**
   * Saved bytes, FIFO family by family (uchar = 1 byte, float = 4; every broadcast and explode output below
   * goes to a READ_ONLY port or a special actor, so all of them can alias their input):
   * <ul>
   * <li>top graph: Broadcast0's 3 outputs of 3S uchar; Read_PPM1's rgb (3S) at byte S of RGB2Gray_R's gray
   * (rgb2gray.bsh); broadcast1 and broadcast2, 2 outputs each of S floats; lum2RGB's 2 outputs of S;
   * Median_Filter's 20 outputs (S in all) inside lum2RGB's join; Split's output (20 slices of 21 rows) and the
   * 20 explode outputs, both inside Cost_Parallel_Work's rawDisparity (split.bsh); rawDisparity into Split
   * (S).</li>
   * <li>Cost_Parallel_Work: cenL and cenR interfaces (60 images of S uchar, then 60 explode outputs of S),
   * grayL and grayR (the same in floats); rgbL (5 images of 3S: the interface FIFO, 5 explode outputs, and
   * Broadcast1's 2 outputs per firing); the 2 x 5 weight FIFOs (3S floats each) inside the joins before
   * Broadcast2/3; Broadcast2/3's outputs (60 x 15S floats: the paper's weight copies) and their 60 explode
   * outputs each; OffsetGen's broadcast (60 x 20 bytes to the explode of AggregateCost's offsets, and 5 x 4
   * bytes twice, plus 5 explode outputs of 4 bytes twice); DisparityGen's broadcast (2 x 60 bytes, and 2 x 60
   * explode outputs of 1 byte); Broadcast5's 60 images into the rawDisparity roundbuffer join; the 8 one-byte
   * back tokens the join before the delay's END gathers; the disparitySelect chain (S + 1 floats, in place):
   * 59 FIFOs between the 60 firings live in the last one, 58 guests.</li>
   * <li>growth: the last split slice ends one row (W bytes) after rawDisparity, which sits at the end of its
   * root (the roundbuffer keeps the last image); the first starts one row before, still inside the root.</li>
   * </ul>
   */
  @Test
  void memorySavedMatchesTheHandDerivedFigure() {
    long top = 3 * 3 * S + 3 * S + 4 * (4 * S) + 2 * S + S + 20 * 21 * W + 20 * 21 * W + S;
    long costParallelWork = 4 * (60 * S) + 4 * (60 * 4 * S) + 4 * (5 * 3 * S) + 2 * (5 * 3 * S * 4)
        + 4 * (60 * 15 * S * 4) + (60 * 20 + 4 * 20) + 4 * 60 + 60 * S + 8 + 58 * 4 * (S + 1);
    long growth = W;
    long handDerived = top + costParallelWork - growth;
    assertEquals(2_656_237_566L, handDerived);
    ScriptReport report = report();
    assertEquals(List.of(), report.errors());
    assertEquals(handDerived, report.bytesSaved());
    assertEquals(report.bytesBefore() - report.bytesAfter(), report.bytesSaved());
    assertTrue(report.toText().endsWith(" bytes after merging, " + handDerived + " bytes saved\n"));
  }

  @Test
  void rgb2grayPutsTheColourImageAtTheEndOfTheGrayOne() {
    ScriptReport report = report();
    String rgb = "stereo_top/Read_PPM1_0.rgb->stereo_top/RGB2Gray_R_0.rgb";
    List<Piece> pieces = report.merge().layout().get(rgb);
    // gray (4S bytes) hosts rgb (3S bytes) from byte S; gray itself hosts broadcast2's outputs
    assertEquals(List.of(new Piece(0, 3 * S * 8, "stereo_top/RGB2Gray_R_0.gray->stereo_top/broadcast2_0.in", S * 8)),
        pieces);
  }

  @Test
  void everyScriptedInstanceIsReported() {
    ScriptReport report = report();
    long scripted = report.instances().stream().filter(i -> i.script().startsWith("/") || i.script().contains(
        "Code/Scripts")).count();
    // rgb2gray (RGB2Gray_R only), split (1 firing), disparitySelect (60 firings)
    assertEquals(1 + 1 + 60, scripted);
    assertTrue(report.instances().stream().allMatch(i -> i.error() == null && i.problems().isEmpty()));
  }
}
