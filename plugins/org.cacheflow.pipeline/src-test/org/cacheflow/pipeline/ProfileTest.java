package org.cacheflow.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Set;
import java.util.stream.Stream;

import org.cacheflow.io.profile.ProfileFile;
import org.cacheflow.io.profile.ProfileFileReader;
import org.cacheflow.plan.memoryplan.FifoPlan;
import org.cacheflow.plan.strategy.Strategy;
import org.cacheflow.plan.strategy.StrategyPreset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Pipeline#profile} on the code generator's test project (tiny.pi and its actors), changed so that the run has
 * something to find: Sum's frame input, which the actor clears after reading it, is declared READ_ONLY, and Scale
 * leaves the last byte of its output unwritten. One program built and run (plain, timed, canaries, pages).
 */
class ProfileTest {

  private static final Path TINY = Path.of("../org.cacheflow.codegen/src-test/resources/tiny");
  private static final Path STEREO = Path.of("../../examples/stereo");
  private static final Path RUNTIME = Path.of("../../runtime-c");
  private static final int ITERATIONS = 5;

  @TempDir
  Path dir;

  @Test
  void findsWrittenInputsUnwrittenBytesAndTimes() throws IOException {
    assumeTrue(onPath("cmake"), "cmake is not installed");
    Path project = copy(TINY, dir.resolve("tiny"));
    Path graph = project.resolve("Algo/tiny.pi");
    String pi = Files.readString(graph);
    String frame = "<port annotation=\"NONE\" expr=\"size\" kind=\"input\" name=\"frame\"/>";
    assertTrue(pi.contains(frame), "tiny.pi's Sum changed");
    Files.writeString(graph, pi.replace(frame, frame.replace("NONE", "READ_ONLY")));
    Path actors = project.resolve("Code/src/tiny.c");
    String code = Files.readString(actors);
    String loop = "for (int i = 0; i < slice; i++) out[i]";
    assertTrue(code.contains(loop), "tiny.c's scale changed");
    Files.writeString(actors, code.replace(loop, "for (int i = 0; i < slice - 1; i++) out[i]"));

    Path out = dir.resolve("profile");
    ProfileResult result = new Pipeline().profile(new ProfileOptions(GenerateOptions.of(Input.of(project),
        out.resolve("program"), RUNTIME), ITERATIONS, out));
    ProfileFile profile = result.profile();

    // the written READ_ONLY input: measured, and a contradiction naming actor and port
    ProfileFile.PortProfile sumFrame = profile.actor("tiny/Sum").port("frame");
    assertEquals("READ_ONLY", sumFrame.declared());
    assertEquals("NONE", sumFrame.measured());
    assertEquals(ITERATIONS, sumFrame.writtenFirings());
    assertEquals(16.0, sumFrame.writtenBytesPerFiring(), 1e-9); // every byte cleared (the frame is never all zeros)
    assertTrue(result.findings().stream().anyMatch(f -> f.startsWith("tiny/Sum.frame is declared READ_ONLY but the "
        + "actor writes it") && f.contains("copy-on-write")), result.findings().toString());
    assertTrue(result.diagnostics().stream().anyMatch(d -> d.severity() == Diagnostic.Severity.WARNING
        && d.message().contains("tiny/Sum.frame")), result.diagnostics().toString());

    // Scale reads its input only, writes all but the last byte of its output, never reads the output first
    ProfileFile.ActorProfile scale = profile.actor("tiny/Scale");
    assertEquals(4L * ITERATIONS, scale.firings());
    assertEquals("READ_ONLY", scale.port("in").measured());
    assertEquals(0, scale.port("in").writtenFirings());
    ProfileFile.PortProfile scaleOut = scale.port("out");
    assertEquals(1, scaleOut.unwrittenBytes());
    assertEquals(List.of(List.of(3L, 4L)), scaleOut.unwrittenRanges());
    assertEquals(3.0, scaleOut.writtenBytesPerFiring(), 1e-9);
    assertEquals("WRITE_ONLY", scaleOut.measured());
    assertTrue(result.findings().contains("tiny/Scale.out: WRITE_ONLY"), result.findings().toString());
    // the sink digest --validate prints over Scale's output covers that byte
    assertEquals(1, profile.unwrittenDigests().size(), profile.unwrittenDigests().toString());
    assertTrue(profile.unwrittenDigests().get(0).startsWith("the --validate digest of Scale.out -> Collect.scaled "
        + "covers 1 of the 4 bytes of each firing's output that tiny/Scale never writes (from byte 3)"),
        profile.unwrittenDigests().toString());
    // Collect ignores both its inputs
    assertEquals("UNUSED", profile.actor("tiny/Collect").port("scaled").measured());

    // times: every firing timed, quartiles in order
    ProfileFile.TimeStats time = profile.actor("tiny/Sum").time();
    assertEquals(ITERATIONS, profile.actor("tiny/Sum").firings());
    assertTrue(time.minNs() > 0 && time.minNs() <= time.q1Ns() && time.q1Ns() <= time.medianNs()
        && time.medianNs() <= time.q3Ns() && time.q3Ns() <= time.maxNs(), time.toString());
    assertEquals(List.of("plain", "time", "canary", "pages"), profile.instrumentation().runs().stream()
        .map(ProfileFile.RunCost::mode).toList());

    // the timings as a PREESM scenario's section
    String timings = Files.readString(out.resolve("timings.scenario.xml"));
    assertTrue(timings.contains("time=\"" + Math.round(time.medianNs()) + "\" vertexname=\"tiny/Sum\"/>"), timings);

    // the file reads back as written; the report says it
    assertEquals(profile, ProfileFileReader.read(result.json()));
    String md = Files.readString(result.markdown());
    assertTrue(md.contains("- tiny/Sum.frame is declared READ_ONLY but the actor writes it"), md);
    assertTrue(md.contains("| tiny/Scale.out | out | 4 | 3 |"), md);

    // planned with the profile: no copy-on-write on the written input, a warning naming actor and port, the
    // measured annotations and timings with their sources in the report
    PlanOptions declared = new PlanOptions(Input.of(project), new PlatformOptions(null, 2), StrategyPreset.COW, null,
        List.of(), null, null);
    // declared READ_ONLY, the written input shares the broadcast's buffer (aliased or copy-on-write)
    Set<Strategy> shared = Set.of(Strategy.COW, Strategy.ALIAS);
    assertTrue(shared.contains(sumFrame(new Pipeline().plan(declared)).strategy()), "the declared plan shares it");
    Path report = dir.resolve("report");
    PlanResult planned = new Pipeline().plan(new PlanOptions(Input.of(project).withProfile(result.json()),
        new PlatformOptions(null, 2), StrategyPreset.COW, null, List.of(), null, report));
    assertFalse(shared.contains(sumFrame(planned).strategy()), sumFrame(planned).toString());
    assertTrue(planned.diagnostics().stream().anyMatch(d -> d.severity() == Diagnostic.Severity.WARNING
        && d.message().startsWith("tiny/Sum.frame is declared READ_ONLY but the profile shows the actor writing it")
        && d.message().contains("no copy-on-write")), planned.diagnostics().toString());
    String planMd = Files.readString(report.resolve("plan.md"));
    assertTrue(planMd.contains("| tiny/Sum.frame | NONE | measured (declared READ_ONLY contradicted) |"), planMd);
    assertTrue(planMd.contains("| tiny/Scale.out | WRITE_ONLY | measured |"), planMd);
    assertTrue(planMd.contains("| tiny/Scale.in | READ_ONLY | declared |"), planMd);
    assertTrue(planMd.contains("| tiny/Sum | " + Math.round(profile.actor("tiny/Sum").time().medianNs())
        + " ns | measured |"), planMd);
    assertTrue(Files.readString(report.resolve("plan.json")).contains("\"facts\""));
  }

  /**
   * The bundled stereo example with every annotation removed, profiled, then planned with the profile (auto, the
   * scenario's two cores): every FIFO gets the strategy of the hand-annotated plan. About a minute (the program is
   * built and run four times), so only with {@code -Dcacheflow.e2e=full}.
   */
  @Test
  void stereoWithoutAnnotationsPlansAsAnnotatedOnceProfiled() throws IOException {
    assumeTrue("full".equals(System.getProperty("cacheflow.e2e")), "-Dcacheflow.e2e=full runs it");
    assumeTrue(onPath("cmake"), "cmake is not installed");
    Path project = copy(STEREO, dir.resolve("stereo"));
    int removed = 0;
    try (Stream<Path> graphs = Files.list(project.resolve("Algo"))) {
      for (Path graph : graphs.filter(g -> g.toString().endsWith(".pi")).toList()) {
        String text = Files.readString(graph);
        String bare = text.replaceAll("annotation=\"(READ_ONLY|WRITE_ONLY|UNUSED)\"", "annotation=\"NONE\"");
        removed += text.length() - bare.length();
        Files.writeString(graph, bare);
      }
    }
    assertTrue(removed > 0, "stereo's graphs carry no annotations any more");
    Path out = dir.resolve("profile");
    ProfileResult profiled = new Pipeline().profile(new ProfileOptions(GenerateOptions.of(Input.of(project),
        out.resolve("program"), RUNTIME), 3, out));
    assertTrue(profiled.profile().unwrittenDigests().isEmpty(), profiled.profile().unwrittenDigests().toString());
    PlanResult annotated = new Pipeline().plan(PlanOptions.of(Input.of(STEREO)));
    PlanResult measured = new Pipeline().plan(PlanOptions.of(Input.of(project).withProfile(profiled.json())));
    PlanResult bare = new Pipeline().plan(PlanOptions.of(Input.of(project)));
    assertEquals(strategies(annotated), strategies(measured));
    assertTrue(!strategies(annotated).equals(strategies(bare)), "the annotations make no difference to the plan");
  }

  private static Map<String, Strategy> strategies(PlanResult result) {
    Map<String, Strategy> map = new TreeMap<>();
    result.plan().fifos().forEach(f -> map.put(f.source() + " -> " + f.target(), f.strategy()));
    return map;
  }

  private static FifoPlan sumFrame(PlanResult result) {
    return result.plan().fifos().stream().filter(f -> f.target().contains("Sum") && f.target().endsWith("frame"))
        .findFirst().orElseThrow(() -> new AssertionError(result.plan().fifos().toString()));
  }

  private static Path copy(Path from, Path to) throws IOException {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path path : paths.toList()) {
        Path target = to.resolve(from.relativize(path).toString());
        if (Files.isDirectory(path)) {
          Files.createDirectories(target);
        } else {
          Files.copy(path, target);
        }
      }
    }
    return to;
  }

  private static boolean onPath(String program) {
    for (String folder : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (!folder.isEmpty() && Files.isExecutable(Path.of(folder, program))) {
        return true;
      }
    }
    return false;
  }
}
