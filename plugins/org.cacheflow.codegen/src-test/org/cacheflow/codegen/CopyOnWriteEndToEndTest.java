package org.cacheflow.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.cacheflow.codegen.model.CodeProject;
import org.cacheflow.codegen.model.ActorSources;
import org.cacheflow.analysis.srdag.Srdag;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Copy-on-write where merging cannot help: the bundled stereo example with its READ_ONLY annotations and
 * read-mostly marks removed (derived here), so the broadcasts' consumers may write. Synthetic actors scribble on
 * every input that is not READ_ONLY, so each view's consumer writes all its pages: they must become private, the
 * next iteration must see the producer's data again, and every output must equal the baseline's. A 256x256
 * frame (64 KiB images: the runtime copies buffers below 64 KiB instead of mapping them), 2 cores, under
 * ThreadSanitizer, AddressSanitizer + UBSan and, when available, aarch64 under
 * qemu-user.
 */
class CopyOnWriteEndToEndTest {

  private static final Path WORK = Path.of(System.getProperty("cacheflow.e2e.work", "target/e2e")).toAbsolutePath()
      .resolve("cow-unannotated");
  private static final Path EXAMPLE = Path.of("../../examples/stereo").toAbsolutePath().normalize();
  private static final Map<String, String> FRAME = Map.of("width", "256", "height", "256", "nbDisparities", "6");
  private static final Pattern STATS = Pattern.compile("cow pages shared (\\d+), faulted (\\d+), re-shared (\\d+)");
  private static final Pattern CORE_STATS = Pattern.compile(
      "stats core (\\d+): cow pages shared (\\d+), faulted (\\d+), re-shared (\\d+)");
  /** The copy-on-write paper's stereo shape, small: one memory written slice by slice on several cores. */
  private static final Path WEIGHTS = Path.of("src-test/resources/weights/weights.pi").toAbsolutePath();

  private record Case(String strategy, EndToEndTest.Build build) {
    String name() {
      return "stereo-unannotated-" + strategy + "-2-" + build.name().toLowerCase();
    }
  }

  @TestFactory
  Stream<DynamicTest> writingConsumersGetPrivatePagesAndOutputsStayIdentical(@TempDir Path temp) throws IOException {
    EndToEndTest.assumeBuildTools("copy-on-write end-to-end tests");
    // outside the bundle: a project is found by its nearest enclosing .project, and the bundle has one
    Path stereo = unannotated(EXAMPLE, temp);
    Srdag srdag = TestInputs.srdag(stereo, "2core.scenario", FRAME);
    List<Case> cases = new ArrayList<>(List.of(new Case("baseline", EndToEndTest.Build.PLAIN),
        new Case("cow", EndToEndTest.Build.TSAN), new Case("auto", EndToEndTest.Build.ASAN)));
    if (EndToEndTest.available("aarch64-linux-gnu-gcc") && EndToEndTest.available("qemu-aarch64")) {
      cases.add(new Case("cow", EndToEndTest.Build.AARCH64));
    }
    List<List<String>> reference = new ArrayList<>();
    return cases.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> {
      CodeProject project = TestInputs.model(stereo, srdag, 2, c.strategy(), true);
      // the implode gathering every winner-takes-all state feeds a round buffer keeping the last: the other
      // strategies copy only that (the rest is dead: nothing reads it), and the digests below must not change
      int[] implode = CodeModelBuilderTest.implodeIntoRoundBuffer(srdag);
      String name = srdag.vertexName(implode[0]);
      long copied = project.cores().stream().flatMap(core -> core.loop().stream())
          .filter(st -> st instanceof org.cacheflow.codegen.model.Statement.Copy copy && name.endsWith(copy.why()))
          .mapToLong(st -> ((org.cacheflow.codegen.model.Statement.Copy) st).bytes()).sum();
      assertEquals(c.strategy().equals("baseline") ? srdag.edgeBytes(implode[1])
          : srdag.edgeBytes(srdag.outgoingEdges(implode[2])[0]), copied, name);
      String output = buildAndRun(project, WORK.resolve(c.name()), c.build());
      List<String> digests = digests(output);
      assertFalse(digests.isEmpty(), output);
      if (reference.isEmpty()) {
        reference.add(digests);
      } else {
        assertEquals(reference.get(0), digests, c.name() + " prints other sink digests than the baseline");
      }
      Matcher stats = STATS.matcher(output);
      assertTrue(stats.find(), output);
      long shared = Long.parseLong(stats.group(1));
      long faulted = Long.parseLong(stats.group(2));
      long reshared = Long.parseLong(stats.group(3));
      if (c.strategy().equals("baseline")) {
        assertTrue(project.cowBuffers().isEmpty());
        assertEquals(0, shared + faulted + reshared, output);
      } else {
        // the image and census broadcasts to the matching-cost firings are views; their writes become private
        // pages, re-shared at every release
        assertFalse(project.cowBuffers().isEmpty(), c.name() + " has no copy-on-write buffer");
        assertTrue(shared > 0 && faulted > 0, output);
        assertEquals(faulted, reshared, output);
        assertTrue(faulted <= shared, output);
      }
    }));
  }

  /**
   * One memory that a data-parallel actor's firings write on every core (merged by the implode into the broadcast),
   * shared through views read on every core by consumers that write all their pages: each core begins and
   * publishes its part of the copy-on-write buffer, every view sees an iteration only once all parts are published,
   * and the outputs equal the baseline's, on 2 and 4 cores, under ThreadSanitizer, AddressSanitizer + UBSan and,
   * when available, aarch64 under qemu-user (in the full run).
   */
  @TestFactory
  Stream<DynamicTest> memoryWrittenOnSeveralCoresIsSharedWithViewsOnEveryCore() {
    EndToEndTest.assumeBuildTools("copy-on-write end-to-end tests");
    Srdag srdag = TestInputs.srdag(WEIGHTS, null);
    record OnCores(String strategy, int cores, EndToEndTest.Build build) {
    }
    List<OnCores> cases = new ArrayList<>();
    for (int cores : new int[] {2, 4}) {
      cases.add(new OnCores("baseline", cores, EndToEndTest.Build.PLAIN));
      cases.add(new OnCores("cow", cores, EndToEndTest.Build.TSAN));
      cases.add(new OnCores("auto", cores, EndToEndTest.Build.ASAN));
      // aarch64 in the full run only (18 s on 2 cores, 10 on 4, under qemu); the default run builds copy-on-write for
      // aarch64 in writingConsumersGetPrivatePagesAndOutputsStayIdentical
      if (EndToEndTest.available("aarch64-linux-gnu-gcc") && EndToEndTest.available("qemu-aarch64")
          && System.getProperty("cacheflow.e2e", "default").equals("full")) {
        cases.add(new OnCores("cow", cores, EndToEndTest.Build.AARCH64));
      }
    }
    Map<Integer, List<String>> reference = new HashMap<>();
    return cases.stream().map(c -> {
      String strategy = c.strategy();
      int cores = c.cores();
      EndToEndTest.Build build = c.build();
      String name = "weights-" + strategy + "-" + cores + "-" + build.name().toLowerCase();
      return DynamicTest.dynamicTest(name, () -> {
        CodeProject project = TestInputs.model(srdag, cores, strategy, true);
        String output = buildAndRun(project, WORK.resolve(name), build);
        List<String> digests = digests(output);
        assertFalse(digests.isEmpty(), output);
        if (strategy.equals("baseline")) {
          reference.put(cores, digests);
          assertTrue(project.cowBuffers().isEmpty());
          return;
        }
        assertEquals(reference.get(cores), digests, name + " prints other sink digests than the baseline");
        // the weights' memory: one buffer, written in place on several cores, each a part
        assertEquals(1, project.cowBuffers().size(), name);
        org.cacheflow.codegen.model.CowBuffer cow = project.cowBuffers().get(0);
        assertTrue(cow.writers() >= 2, name + ": the weights are written on " + cow.writers() + " core(s)");
        long parts = project.cores().stream().filter(core -> core.loop().stream().anyMatch(
            st -> st instanceof org.cacheflow.codegen.model.Statement.CowPublish)).count();
        assertEquals(cow.writers(), parts, name + ": cores publishing a part");
        // views read and written on at least two cores, each core's pages faulted and re-shared
        Matcher perCore = CORE_STATS.matcher(output);
        int viewCores = 0;
        while (perCore.find()) {
          long shared = Long.parseLong(perCore.group(2));
          long faulted = Long.parseLong(perCore.group(3));
          assertEquals(faulted, Long.parseLong(perCore.group(4)), output);
          if (shared > 0) {
            viewCores++;
            assertTrue(faulted > 0 && faulted <= shared, output);
          }
        }
        assertTrue(viewCores >= 2, name + ": views used on " + viewCores + " core(s)\n" + output);
      });
    });
  }

  /**
   * The copy-on-write paper's own graph: the corpus stereo application (skipped without the corpus) with its
   * READ_ONLY annotations removed, small (80x96 pixels, 8 disparities), on 2 cores: its memories used in place on
   * both cores become buffers with a part per core, and under ThreadSanitizer every sink digest equals the
   * baseline's while the synthetic consumers write every page of their views.
   */
  @TestFactory
  Stream<DynamicTest> corpusStereoWithoutReadOnlyKeepsTheBaselinesOutputs(@TempDir Path temp) throws IOException {
    EndToEndTest.assumeBuildTools("copy-on-write end-to-end tests");
    Path app = TestInputs.corpus().resolve("preesm-apps/org.ietr.preesm.stereo");
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(app), "corpus stereo absent; skipped");
    Path stereo = unannotated(app, temp);
    Srdag srdag = TestInputs.srdag(stereo, "4core.scenario", Map.of("height", "80", "width", "96",
        "maxDisparity", "8"));
    List<String> reference = new ArrayList<>();
    return Stream.of(new Case("baseline", EndToEndTest.Build.PLAIN), new Case("cow", EndToEndTest.Build.TSAN))
        .map(c -> DynamicTest.dynamicTest("corpus-" + c.name(), () -> {
          CodeProject project = TestInputs.model(stereo, srdag, 2, c.strategy(), true);
          String output = buildAndRun(project, WORK.resolve("corpus-" + c.name()), c.build());
          List<String> digests = digests(output);
          assertFalse(digests.isEmpty(), output);
          if (reference.isEmpty()) {
            reference.addAll(digests);
            return;
          }
          assertEquals(reference, digests, c.name() + " prints other sink digests than the baseline");
          assertTrue(project.cowBuffers().stream().anyMatch(cow -> cow.writers() > 1),
              "no copy-on-write buffer is used in place on both cores");
          Matcher stats = STATS.matcher(output);
          assertTrue(stats.find() && Long.parseLong(stats.group(2)) > 0, output);
        }));
  }

  /** The sink digests a program printed with --validate ("FIFO : md5" lines). */
  private static List<String> digests(String output) {
    return output.lines().filter(l -> l.matches(".* : [0-9a-f]{32}")).toList();
  }

  private static String buildAndRun(CodeProject project, Path dir, EndToEndTest.Build build) throws Exception {
    ProjectWriter.write(project, ActorSources.NONE, TestInputs.runtime(), dir);
    List<String> configure = new ArrayList<>(List.of("cmake", "-S", dir.toString(), "-B", dir.resolve("build")
        .toString(), "-G", "Ninja", "-DCACHEFLOW_WERROR=ON", "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
        "-DCMAKE_PREFIX_PATH=" + EndToEndTest.runtime(build)));
    if (!build.sanitize.isEmpty()) {
      configure.add("-DCACHEFLOW_SANITIZE=" + build.sanitize);
    }
    List<String> command = new ArrayList<>();
    if (build == EndToEndTest.Build.AARCH64) {
      configure.add("-DCMAKE_TOOLCHAIN_FILE=toolchains/aarch64-linux-gnu.cmake");
      command.addAll(List.of("qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"));
    }
    EndToEndTest.exec(dir, 300, configure);
    EndToEndTest.exec(dir, EndToEndTest.buildSeconds(dir), List.of("cmake", "--build", dir.resolve("build")
        .toString()));
    command.addAll(List.of(dir.resolve("build").resolve(project.identifier()).toString(), "--iterations", "3",
        "--validate"));
    return EndToEndTest.exec(dir, 300, command);
  }

  /** The example without READ_ONLY annotations (made NONE) and markReadMostly calls, in {@code parent}/stereo. */
  static Path unannotated(Path example, Path parent) throws IOException {
    Path copy = parent.resolve(example.getFileName().toString());
    try (Stream<Path> files = Files.walk(example)) {
      for (Path source : files.filter(Files::isRegularFile).toList()) {
        Path target = copy.resolve(example.relativize(source).toString());
        Files.createDirectories(target.getParent());
        String name = source.getFileName().toString();
        if (name.endsWith(".pi")) {
          Files.writeString(target, Files.readString(source).replace("annotation=\"READ_ONLY\"",
              "annotation=\"NONE\""));
        } else if (name.endsWith(".bsh")) {
          Files.writeString(target, Files.readString(source).lines().filter(l -> !l.contains(".markReadMostly("))
              .collect(Collectors.joining("\n", "", "\n")));
        } else {
          Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
    return copy;
  }
}
