package org.cacheflow.scripts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.cacheflow.model.MemoryAnnotation;
import org.cacheflow.scripts.testing.BeanShellOracle;
import org.cacheflow.scripts.testing.ScriptRecords;
import org.junit.jupiter.api.Test;

/**
 * Every corpus script and every default script gives the same matches with our evaluator as with the real
 * BeanShell interpreter. Environments use the parameter values and rates of the graphs that reference the
 * scripts (the difference application ships split.bsh without using it: it gets sobel-morpho's values).
 */
class CorpusDifferentialTest {

  private static final MemoryAnnotation NONE = MemoryAnnotation.NONE;

  /** The environment of an actor running {@code script} (a path relative to the corpus). */
  private static ScriptEnvironment environmentFor(String script) {
    String name = script.substring(script.lastIndexOf('/') + 1);
    if (name.equals("split.bsh")) {
      long width;
      long height;
      long nbSlice;
      long overlap;
      if (script.contains("preesm.sobel/")) {
        width = 352;
        height = 288;
        nbSlice = 8;
        overlap = 1;
      } else if (script.contains("stereo")) {
        width = 434;
        height = 380;
        nbSlice = 20;
        overlap = 1;
      } else {
        width = 1920;
        height = 1080;
        nbSlice = 12;
        overlap = 5;
      }
      ScriptEnvironment.Builder builder = ScriptEnvironment.builder("Split").parameter("width", width)
          .parameter("height", height).parameter("nbSlice", nbSlice);
      if (!script.contains("preesm.sobel/")) {
        builder.parameter("overlap", overlap);
      }
      return builder.input(new BufferSpec("input", "in", height * width, 1, NONE))
          .output(new BufferSpec("output", "out", nbSlice * (height / nbSlice + 2 * overlap) * width, 1, NONE))
          .build();
    }
    switch (name) {
      case "rgb2gray.bsh": {
        long size = 380 * 434;
        return ScriptEnvironment.builder("RGB2Gray_R").parameter("size", size)
            .input(new BufferSpec("rgb", "rgb", 3 * size, 1, NONE))
            .output(new BufferSpec("gray", "gray", size, 4, NONE)).build();
      }
      case "disparitySelect.bsh": {
        long height = 380;
        long width = 434;
        return ScriptEnvironment.builder("DisparitySelect").parameter("scale", 4).parameter("width", width)
            .parameter("height", height).parameter("minDisparity", 0).parameter("nbDisparities", 60)
            .input(new BufferSpec("aggregatedDisparity", "a", height * width, 4, NONE))
            .input(new BufferSpec("disparity", "d", 1, 1, MemoryAnnotation.READ_ONLY))
            .input(new BufferSpec("bestCostFeed", "b", height * width + 1, 4, NONE))
            .output(new BufferSpec("result", "r", height * width, 1, NONE))
            .output(new BufferSpec("backBestCost", "bb", height * width + 1, 4, NONE)).build();
      }
      case "fft.bsh":
        return ScriptEnvironment.builder("FFT_2").parameter("size", 4096)
            .input(new BufferSpec("in", "i", 4096, 8, NONE)).output(new BufferSpec("out", "o", 4096, 8, NONE))
            .build();
      case "transpose.bsh":
        return ScriptEnvironment.builder("Transpose_1").parameter("nbRows", 64).parameter("nbCols", 64)
            .input(new BufferSpec("in", "i", 64 * 64, 8, NONE)).output(new BufferSpec("out", "o", 64 * 64, 8, NONE))
            .build();
      case "twiddle.bsh":
        return ScriptEnvironment.builder("Twiddle_4").parameter("nbCols", 64)
            .input(new BufferSpec("rowId", "r", 1, 4, NONE)).input(new BufferSpec("in", "i", 64, 8, NONE))
            .output(new BufferSpec("out", "o", 64, 8, NONE)).build();
      default:
        return null;
    }
  }

  @Test
  void everyCorpusScriptMatchesLikeBeanShell() throws IOException {
    Path root = Corpus.root();
    List<Path> scripts = Corpus.scripts();
    assertFalse(scripts.isEmpty(), "the corpus has memory scripts");
    List<String> compared = new ArrayList<>();
    for (Path script : scripts) {
      String relative = root.relativize(script).toString().replace('\\', '/');
      ScriptEnvironment environment = environmentFor(relative);
      assertNotNull(environment, "no test environment for corpus script " + relative);
      String source = Files.readString(script);
      ScriptRun ours = MemoryScript.parse(source, relative).evaluate(environment);
      BeanShellOracle.Result reference = BeanShellOracle.run(source, environment, Map.of());
      assertNull(reference.error(), relative + " fails in BeanShell");
      assertFalse(reference.matches().isEmpty(), relative + " matches something");
      assertEquals(reference.matches(), ScriptRecords.matches(ours), relative);
      assertEquals(reference.marks(), ScriptRecords.marks(ours), relative);
      compared.add(relative);
    }
    assertEquals(scripts.size(), compared.size());
  }

  /** The same environment as a scenario with sizes in bits gives it: token sizes in bits. */
  static ScriptEnvironment inBits(ScriptEnvironment environment) {
    ScriptEnvironment.Builder builder = ScriptEnvironment.builder(environment.vertexName()).sizesInBits(true)
        .alignment(environment.alignment());
    environment.parameters().forEach(builder::parameter);
    for (BufferSpec spec : environment.inputs()) {
      builder.input(new BufferSpec(spec.port(), spec.fifoId(), spec.nbTokens(), spec.tokenSize() * 8,
          spec.consumerAnnotation()));
    }
    for (BufferSpec spec : environment.outputs()) {
      builder.output(new BufferSpec(spec.port(), spec.fifoId(), spec.nbTokens(), spec.tokenSize() * 8,
          spec.consumerAnnotation()));
    }
    return builder.build();
  }

  /**
   * Scripts that use getTokenSize() or getBufferSize() see bits when the scenario says so (stereo's scenarios
   * do): the matches, normalised to bits, must still agree with BeanShell's and with the byte-sized run.
   */
  @Test
  void everyCorpusScriptMatchesLikeBeanShellWithSizesInBits() throws IOException {
    Path root = Corpus.root();
    int compared = 0;
    for (Path script : Corpus.scripts()) {
      String relative = root.relativize(script).toString().replace('\\', '/');
      ScriptEnvironment bytes = environmentFor(relative);
      assertNotNull(bytes, "no test environment for corpus script " + relative);
      ScriptEnvironment bits = inBits(bytes);
      String source = Files.readString(script);
      ScriptRun ours = MemoryScript.parse(source, relative).evaluate(bits);
      BeanShellOracle.Result reference = BeanShellOracle.run(source, bits, Map.of());
      assertNull(reference.error(), relative + " fails in BeanShell");
      assertEquals(reference.matches(), ScriptRecords.matches(ours), relative);
      assertEquals(ScriptRecords.matches(MemoryScript.parse(source, relative).evaluate(bytes)),
          ScriptRecords.matches(ours), relative + ": bits and bytes differ");
      compared++;
    }
    assertEquals(Corpus.scripts().size(), compared);
  }

  private static BufferSpec tokens(String port, long count, long size) {
    return new BufferSpec(port, port, count, size, NONE);
  }

  /** Environments that exercise the default scripts: equal, smaller, larger and non-multiple sizes. */
  static List<ScriptEnvironment> specialActorEnvironments(DefaultScripts.Kind kind) {
    List<ScriptEnvironment> environments = new ArrayList<>();
    switch (kind) {
      case FORK:
        environments.add(ScriptEnvironment.builder("fork").input(tokens("in", 12, 4)).output(tokens("out0", 5, 4))
            .output(tokens("out1", 7, 4)).build());
        environments.add(ScriptEnvironment.builder("fork").input(tokens("in", 9, 1)).output(tokens("a", 3, 1))
            .output(tokens("b", 3, 1)).output(tokens("c", 3, 1)).build());
        break;
      case JOIN:
        environments.add(ScriptEnvironment.builder("join").input(tokens("in0", 2, 8)).input(tokens("in1", 6, 8))
            .output(tokens("out", 8, 8)).build());
        break;
      case BROADCAST:
        environments.add(ScriptEnvironment.builder("bcast").input(tokens("in", 4, 2)).output(tokens("out0", 4, 2))
            .output(tokens("out1", 4, 2)).build());
        environments.add(ScriptEnvironment.builder("bcast").input(tokens("in", 4, 2)).output(tokens("out0", 10, 2))
            .output(tokens("out1", 3, 2)).build());
        break;
      case ROUNDBUFFER:
        environments.add(ScriptEnvironment.builder("rb").input(tokens("in0", 3, 4)).input(tokens("in1", 3, 4))
            .output(tokens("out", 4, 4)).build());
        environments.add(ScriptEnvironment.builder("rb").input(tokens("in", 8, 1)).output(tokens("out", 8, 1))
            .build());
        environments.add(ScriptEnvironment.builder("rb").input(tokens("in", 10, 1)).output(tokens("out", 3, 1))
            .build());
        break;
      default:
        break;
    }
    return environments;
  }

  @Test
  void everyDefaultScriptMatchesLikeBeanShell() {
    int compared = 0;
    for (DefaultScripts.Kind kind : DefaultScripts.Kind.values()) {
      String source = DefaultScripts.source(kind);
      for (ScriptEnvironment environment : specialActorEnvironments(kind)) {
        ScriptRun ours = DefaultScripts.of(kind).evaluate(environment);
        BeanShellOracle.Result reference = BeanShellOracle.run(source, environment, Map.of());
        assertNull(reference.error(), kind + " fails in BeanShell");
        assertEquals(reference.matches(), ScriptRecords.matches(ours), kind.fileName);
        compared++;
      }
    }
    assertEquals(8, compared);
  }
}
