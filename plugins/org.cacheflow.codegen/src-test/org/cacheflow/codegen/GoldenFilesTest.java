package org.cacheflow.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.cacheflow.codegen.model.ActorSources;
import org.cacheflow.codegen.model.CodeProject;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The generated files of the test graph, compared with reviewed copies in src-test/resources/golden. After an
 * intended change, regenerate them with {@code -Dcacheflow.golden.update=true} (it also deletes files no longer
 * generated), review the diff, commit.
 */
class GoldenFilesTest {

  private static final Path GOLDEN = Path.of("src-test/resources/golden");

  @ParameterizedTest(name = "{0}")
  @CsvSource({"tiny-baseline-2-real, baseline, 2, false, ''", "tiny-auto-2-synthetic, auto, 2, true, ''",
      "tiny-cow-1-synthetic, cow, 1, true, size=8192 slice=2048"})
  void generatedFilesMatchTheReviewedOnes(String name, String strategy, int cores, boolean synthetic,
      String parameters) throws IOException {
    // two-page frames give the cow project a copy-on-write view; large slices keep it short
    Map<String, String> values = new TreeMap<>();
    for (String assignment : parameters.trim().split("\\s+")) {
      if (!assignment.isEmpty()) {
        values.put(assignment.substring(0, assignment.indexOf('=')), assignment.substring(assignment.indexOf('=') + 1));
      }
    }
    CodeProject project = TestInputs.model(TestInputs.srdag(TestInputs.TINY.resolve("Algo/tiny.pi"), null, values),
        cores, strategy, synthetic);
    Map<String, String> files = ProjectWriter.print(project, synthetic ? ActorSources.NONE
        : new ActorSources("../Code/src", List.of("../Code/include")));
    Path folder = GOLDEN.resolve(name);
    if (Boolean.getBoolean("cacheflow.golden.update")) {
      // files no longer generated go too, so that the set of files is compared afresh
      if (Files.isDirectory(folder)) {
        try (Stream<Path> walk = Files.walk(folder)) {
          for (Path stale : walk.filter(Files::isRegularFile).filter(p -> !files.containsKey(folder.relativize(p)
              .toString().replace('\\', '/'))).toList()) {
            Files.delete(stale);
          }
        }
      }
      for (Map.Entry<String, String> file : files.entrySet()) {
        Path path = folder.resolve(file.getKey());
        Files.createDirectories(path.getParent());
        Files.writeString(path, file.getValue(), StandardCharsets.UTF_8);
      }
    }
    TreeSet<String> expected = new TreeSet<>();
    try (Stream<Path> walk = Files.walk(folder)) {
      walk.filter(Files::isRegularFile).forEach(p -> expected.add(folder.relativize(p).toString().replace('\\', '/')));
    }
    assertEquals(expected, new TreeSet<>(files.keySet()), "the set of generated files");
    for (Map.Entry<String, String> file : files.entrySet()) {
      assertEquals(Files.readString(folder.resolve(file.getKey()), StandardCharsets.UTF_8), file.getValue(),
          name + "/" + file.getKey() + " differs from the reviewed copy (-Dcacheflow.golden.update=true to accept)");
    }
  }

  @ParameterizedTest(name = "{0} cores")
  @CsvSource({"1", "2", "4"})
  void outputIsIdenticalAcrossRunsAndNamesNoPathOfThisMachine(int cores) {
    Path graph = TestInputs.TINY.resolve("Algo/tiny.pi");
    Map<String, String> first = ProjectWriter.print(TestInputs.model(TestInputs.srdag(graph, null), cores, "auto",
        true), ActorSources.NONE);
    Map<String, String> second = ProjectWriter.print(TestInputs.model(TestInputs.srdag(graph, null), cores, "auto",
        true), ActorSources.NONE);
    assertEquals(first, second);
    String home = Path.of("").toAbsolutePath().getRoot().resolve("work").toString();
    for (Map.Entry<String, String> file : first.entrySet()) {
      assertTrue(!file.getValue().contains(TestInputs.TINY.toString()) && !file.getValue().contains(home + "/"),
          file.getKey() + " names an absolute path");
    }
  }
}
