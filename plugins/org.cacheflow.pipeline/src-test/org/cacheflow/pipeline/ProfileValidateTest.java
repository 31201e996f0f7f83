package org.cacheflow.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --validate} of a program generated with a profile names the bytes of a sink's digest that no actor wrote:
 * the code generator's test project (tiny.pi), with a profile saying that Scale leaves byte 3 of its 4-byte output
 * unwritten, generated, built and run.
 */
class ProfileValidateTest {

  private static final Path TINY = Path.of("../org.cacheflow.codegen/src-test/resources/tiny");
  private static final Path RUNTIME = Path.of("../../runtime-c");
  private static final Pattern DIGEST = Pattern.compile("^(\\S.* -> .*\\S) : ([0-9a-f]{32})$");
  private static final String NOTE = "note: the digest of Scale.out -> Collect.scaled covers bytes 3 (1 of 4 per "
      + "firing) that tiny/Scale never wrote in the profiled run: it depends on the memory layout";

  @TempDir
  Path dir;

  @Test
  void theDigestOfASinkWithUnwrittenBytesIsFollowedByANoteNamingThem() throws Exception {
    assumeTrue(available("cmake") && available("cc"), "cmake or cc missing: generated program not built");
    assumeFalse("none".equals(System.getProperty("cacheflow.e2e")), "end-to-end tests disabled");
    Path profile = Files.writeString(dir.resolve("profile.json"), """
        {"cacheflowProfile": 1, "graph": "tiny", "iterations": 1, "cores": 1, "buffers": [],
         "actors": [
           {"actor": "tiny/Scale", "firings": 4,
            "time": {"medianNs": 100, "q1Ns": 100, "q3Ns": 100, "minNs": 100, "maxNs": 100, "cv": 0},
            "ports": [
              {"port": "out", "input": false, "bytesPerFiring": 4, "declared": "NONE", "measured": "WRITE_ONLY",
               "firings": 4, "writtenFirings": 4, "storedFirings": 0, "readFirstFirings": 0,
               "writtenBytesPerFiring": 3, "readBytesPerFiring": -1, "unwrittenBytes": 1,
               "unwrittenRanges": [[3, 4]]}]}
         ]}
        """);
    Path plain = dir.resolve("plain");
    new Pipeline().generate(GenerateOptions.of(Input.of(TINY), plain, RUNTIME).withSyntheticActors(true));
    try (var files = Files.list(plain)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".c")).toList()) {
        assertFalse(Files.readString(file).contains("note: the digest"), file + ": no profile, no note");
      }
    }

    Path out = dir.resolve("profiled");
    new Pipeline().generate(GenerateOptions.of(Input.of(TINY).withProfile(profile), out, RUNTIME)
        .withSyntheticActors(true));
    run(out, "cmake", "-S", out.toString(), "-B", out.resolve("build").toString(), "-DCACHEFLOW_BUNDLED_RUNTIME=ON");
    run(out, "cmake", "--build", out.resolve("build").toString(), "-j", "2");
    List<String> lines = run(out, out.resolve("build/tiny").toString(), "--iterations", "2", "--validate").lines()
        .toList();
    int digest = -1;
    List<String> sinks = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      var matcher = DIGEST.matcher(lines.get(i));
      if (matcher.matches()) {
        sinks.add(matcher.group(1));
        digest = matcher.group(1).equals("Scale.out -> Collect.scaled") ? i : digest;
      }
    }
    assertTrue(digest >= 0 && sinks.size() >= 2, lines.toString());
    assertEquals(NOTE, lines.get(digest + 1), "the note follows the digest line");
    assertEquals(1, lines.stream().filter(l -> l.startsWith("note: the digest")).count(), "no other sink is noted");
  }

  private static String run(Path dir, String... command) throws Exception {
    Path log = Files.createTempFile(dir.getParent(), "run", ".log");
    Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    if (!process.waitFor(600, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(String.join(" ", command) + " took too long");
    }
    String text = Files.readString(log, StandardCharsets.UTF_8);
    assertEquals(0, process.exitValue(), String.join(" ", command) + ":\n" + text);
    return text;
  }

  private static boolean available(String tool) {
    for (String folder : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (Files.isExecutable(Path.of(folder, tool))) {
        return true;
      }
    }
    return false;
  }
}
