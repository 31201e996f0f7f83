package org.cacheflow.scripts.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import org.cacheflow.model.MemoryAnnotation;
import org.cacheflow.scripts.BufferSpec;
import org.cacheflow.scripts.MemoryScript;
import org.cacheflow.scripts.ScriptEnvironment;
import org.cacheflow.scripts.ScriptException;
import org.cacheflow.scripts.lang.AstBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of the memory-script parser and evaluator: any text, parsed and run for one actor
 * instance within a step budget, gives matches and marks or a {@link ScriptException} naming the script, line and
 * cause. Anything else escaping (a Java exception of the interpreter, a stack overflow, running out of memory) fails
 * the target. Seeds and regression inputs:
 * {@code fuzz-inputs/org/cacheflow/scripts/fuzz/MemoryScriptFuzzTestInputs/fuzz/}; docs/reliability.md.
 */
class MemoryScriptFuzzTest {

  private static final String FILE = "Code/Scripts/fuzz.bsh";
  /** Steps a run may take, as a planner gives; an endless script is stopped with a located error. */
  private static final long STEP_BUDGET = 100_000;
  private static final ScriptEnvironment ENVIRONMENT = ScriptEnvironment.builder("Split_0").parameter("n", 4)
      .parameter("m", 3)
      .input(new BufferSpec("in", "f1", 16, 1, MemoryAnnotation.READ_ONLY))
      .input(new BufferSpec("words", "f3", 4, 1, MemoryAnnotation.NONE))
      .output(new BufferSpec("out", "f2", 8, 1, MemoryAnnotation.WRITE_ONLY))
      .output(new BufferSpec("out2", "f4", 8, 1, MemoryAnnotation.NONE)).build();
  private static final AtomicLong INPUTS = new AtomicLong();
  private static final AtomicLong REJECTED = new AtomicLong();

  @FuzzTest
  void fuzz(byte[] input) {
    INPUTS.incrementAndGet();
    String source = new String(input, StandardCharsets.UTF_8);
    try {
      MemoryScript.parse(source, FILE).evaluate(ENVIRONMENT, STEP_BUDGET);
    } catch (ScriptException e) {
      REJECTED.incrementAndGet();
      assertNotNull(e.location(), () -> "no location: " + e.getMessage());
      assertEquals(FILE, e.location().file(), e::describe);
      assertNotNull(e.getMessage(), "no message");
      assertFalse(e.getMessage().isBlank(), "blank message");
    }
  }

  /** The seeds parse and run without error, so that fuzzing starts from working scripts. */
  @Test
  void theSeedsAreValidScripts() throws IOException {
    List<Path> seeds = inputs("seed-");
    assertFalse(seeds.isEmpty());
    for (Path seed : seeds) {
      MemoryScript.parse(Files.readString(seed), seed.getFileName().toString()).evaluate(ENVIRONMENT, STEP_BUDGET);
    }
  }

  /** Finding: parentheses nested thousands deep overflowed the parser's stack. */
  @Test
  void deeplyNestedParenthesesAreAnErrorAtTheFirstTooDeep() throws IOException {
    Path input = inputs("regression-nested-parentheses.bsh").get(0);
    ScriptException error = assertThrows(ScriptException.class,
        () -> MemoryScript.parse(Files.readString(input), FILE).evaluate(ENVIRONMENT, STEP_BUDGET));
    assertEquals(FILE + ":1:" + (8 + AstBuilder.MAX_NESTING), error.location().toString());
    assertEquals("nested more than 256 levels deep (brackets and unary operators)", error.getMessage());
  }

  /** The files of this target's inputs folder whose names start with {@code prefix}, by name. */
  static List<Path> inputs(String prefix) {
    URL folder = MemoryScriptFuzzTest.class.getResource("MemoryScriptFuzzTestInputs/fuzz");
    assertNotNull(folder, "no inputs folder");
    try (Stream<Path> files = Files.list(Path.of(folder.toURI()))) {
      return files.filter(path -> path.getFileName().toString().startsWith(prefix)).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  @AfterAll
  static void summary() {
    System.out.println("fuzz target MemoryScriptFuzzTest: " + INPUTS.get() + " inputs read, " + REJECTED.get()
        + " rejected with a located error");
  }
}
