package org.cacheflow.scripts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.cacheflow.model.MemoryAnnotation;
import org.cacheflow.scripts.lang.ScriptObject;
import org.cacheflow.scripts.testing.BeanShellOracle;
import org.cacheflow.scripts.testing.ScriptRecords;
import org.junit.jupiter.api.Test;

/**
 * Property test: random scripts over the supported subset give the same recorded values, the same matches
 * and the same success or failure with our evaluator as with BeanShell 2.0b6.
 */
class GeneratedScriptPropertyTest {

  static final int SCRIPTS = 600;

  /** Odd seeds run with sizes in bits (16-bit tokens), even ones in bytes (2-byte tokens). */
  private static ScriptEnvironment environment(long seed) {
    boolean bits = seed % 2 == 1;
    long tokenSize = bits ? 16 : 2;
    return ScriptEnvironment.builder("Actor_3").parameter("n", 7).parameter("m", -3).alignment(0).sizesInBits(bits)
        .input(new BufferSpec("in", "f1", 12, tokenSize, MemoryAnnotation.NONE))
        .input(new BufferSpec("aux", "f3", 5, tokenSize, MemoryAnnotation.READ_ONLY))
        .output(new BufferSpec("out", "f2", 12, tokenSize, MemoryAnnotation.NONE)).build();
  }

  /** Our side of the probe: records values exactly as {@link BeanShellOracle.Probe} does. */
  private static final class ProbeObject implements ScriptObject {
    final List<String> records = new ArrayList<>();

    @Override
    public String typeName() {
      return "Probe";
    }

    @Override
    public Object invoke(String method, List<Object> arguments, CallSite site) {
      if (!method.equals("record") || arguments.size() != 1) {
        throw site.error("probe.record(value) only");
      }
      records.add(BeanShellOracle.Probe.describe(arguments.get(0)));
      return null;
    }
  }

  @Test
  void generatedScriptsBehaveAsInBeanShell() {
    int succeeded = 0;
    int failedAlike = 0;
    long matches = 0;
    for (long seed = 0; seed < SCRIPTS; seed++) {
      String source = ScriptGenerator.generate(seed);
      BeanShellOracle.Result reference = BeanShellOracle.run(source, environment(seed), Map.of());
      ProbeObject probe = new ProbeObject();
      String ourError = null;
      ScriptRun run = null;
      try {
        run = MemoryScript.parse(source, "generated.bsh").evaluate(environment(seed), 1_000_000,
            Map.of("probe", probe));
      } catch (ScriptException e) {
        ourError = e.describe();
      }
      String context = "seed " + seed + "\n" + source + "\nBeanShell error: " + reference.error()
          + "\nour error: " + ourError;
      assertEquals(reference.error() == null, ourError == null, context);
      assertEquals(reference.probe(), probe.records, context);
      if (run != null) {
        assertEquals(reference.matches(), ScriptRecords.matches(run), context);
        matches += run.matches().size();
        succeeded++;
      } else {
        failedAlike++;
      }
    }
    // the generator must mostly produce scripts that run, or the comparison says little
    assertTrue(succeeded > SCRIPTS / 2, "only " + succeeded + " of " + SCRIPTS + " generated scripts ran");
    assertTrue(matches > SCRIPTS / 4, "too few matches compared: " + matches);
    assertEquals(SCRIPTS, succeeded + failedAlike);
  }
}
