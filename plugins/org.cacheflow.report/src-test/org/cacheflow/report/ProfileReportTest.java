package org.cacheflow.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.cacheflow.io.profile.ProfileFile;
import org.junit.jupiter.api.Test;

/** profile.md's picture: where an iteration's time goes, as bars to scale. */
class ProfileReportTest {

  private static ProfileFile.ActorProfile actor(String path, long firings, double medianNs) {
    return new ProfileFile.ActorProfile(path, firings, new ProfileFile.TimeStats(medianNs, medianNs, medianNs,
        medianNs, medianNs, 0), List.of());
  }

  private static ProfileFile profile(List<ProfileFile.ActorProfile> actors) {
    return new ProfileFile(ProfileFile.VERSION, "g", 2, 1, new ProfileFile.Instrumentation("time", List.of(), 0,
        false), actors, List.of(), List.of());
  }

  /** A bar's full blocks plus its last cell's eighths. */
  private static int eighths(String bar) {
    int full = (int) bar.chars().filter(c -> c == '\u2588').count();
    String partial = bar.replace("\u2588", "").strip();
    return 8 * full + (partial.isEmpty() ? 0 : " \u258f\u258e\u258d\u258c\u258b\u258a\u2589".indexOf(partial));
  }

  @Test
  void barsAreToScaleLargestFirstWithTheirShares() {
    // per iteration (2 iterations): B 4 firings x 1500 ns / 2 = 3000 ns, A 2 x 1000 / 2 = 1000 ns, C untimed
    ProfileFile profile = profile(List.of(actor("g/A", 2, 1000), actor("g/B", 4, 1500), actor("g/C", 0, 0)));
    String chart = ProfileReport.timeChart(profile);
    List<String> lines = chart.lines().filter(l -> l.startsWith("g/")).toList();
    assertEquals(2, lines.size(), chart);
    assertTrue(lines.get(0).startsWith("g/B ") && lines.get(1).startsWith("g/A "), chart);
    String barB = lines.get(0).substring(4, 4 + ProfileReport.BAR_WIDTH);
    String barA = lines.get(1).substring(4, 4 + ProfileReport.BAR_WIDTH);
    assertEquals(8 * ProfileReport.BAR_WIDTH, eighths(barB), "the largest fills the width");
    assertEquals(Math.round(1000.0 / 3000 * 8 * ProfileReport.BAR_WIDTH), eighths(barA), "A is a third of B");
    assertTrue(lines.get(0).endsWith(" 3.0 us (75.0%)"), lines.get(0));
    assertTrue(lines.get(1).endsWith(" 1.0 us (25.0%)"), lines.get(1));
    assertTrue(ProfileReport.markdown(profile, List.of(), List.of()).contains(chart), "profile.md has the picture");
    assertEquals("", ProfileReport.timeChart(profile(List.of(actor("g/C", 0, 0)))), "nothing timed, no picture");
  }
}
