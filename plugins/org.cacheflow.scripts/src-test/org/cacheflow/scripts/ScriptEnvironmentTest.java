package org.cacheflow.scripts;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.cacheflow.model.MemoryAnnotation;
import org.cacheflow.scripts.lang.ScriptObject;
import org.cacheflow.scripts.testing.BeanShellOracle;
import org.cacheflow.scripts.testing.RecordingBuffer;
import org.cacheflow.scripts.testing.ScriptRecords;
import org.junit.jupiter.api.Test;

/**
 * What a script sees, value by value, against figures worked out by hand: the variables PREESM defines for an
 * actor instance and the buffer API in both size units. The same probe runs the same script in BeanShell
 * (with {@link RecordingBuffer}s), so the hand figures are also PREESM's.
 */
class ScriptEnvironmentTest {

  /** Records every value with its Java type, as {@link BeanShellOracle.Probe} does. */
  private static final class Probe implements ScriptObject {
    final List<String> records = new ArrayList<>();

    @Override
    public String typeName() {
      return "Probe";
    }

    @Override
    public Object invoke(String method, List<Object> arguments, CallSite site) {
      records.add(BeanShellOracle.Probe.describe(arguments.get(0)));
      return null;
    }
  }

  private static final String SCRIPT = """
      probe.record(width);
      probe.record(alignment);
      probe.record(parameters.get("width"));
      probe.record(parameters.get("alignment"));
      probe.record(parameters.size());
      probe.record(inputs.size());
      probe.record(inputs.get(0).getVertexName());
      probe.record(inputs.get(1) == i_second);
      probe.record(outputs.get(0) == o_out);
      for (b : inputs) {
        probe.record(b.getNbTokens());
        probe.record(b.getTokenSize());
        probe.record(b.getBufferSize());
        probe.record(b.getBufferSizeInBit());
        probe.record(b.getBufferSizeInByte());
      }
      """;

  /** Instance Filter_2: width 640, alignment 64, inputs first (5 tokens) and second (3 tokens), output out. */
  private static ScriptEnvironment environment(boolean sizesInBits, long firstTokenSize, long secondTokenSize) {
    return ScriptEnvironment.builder("Filter_2").sizesInBits(sizesInBits).alignment(64).parameter("width", 640)
        .input(new BufferSpec("first", "f1", 5, firstTokenSize, MemoryAnnotation.NONE))
        .input(new BufferSpec("second", "f2", 3, secondTokenSize, MemoryAnnotation.READ_ONLY))
        .output(new BufferSpec("out", "f3", 8, 1, MemoryAnnotation.NONE)).build();
  }

  private static List<String> ours(ScriptEnvironment environment) {
    Probe probe = new Probe();
    MemoryScript.parse(SCRIPT, "probe.bsh").evaluate(environment, 100_000, Map.of("probe", probe));
    return probe.records;
  }

  /** Sizes in bytes: first has 5 tokens of 4 bytes (20 bytes, 160 bits), second 3 of 2 (6 bytes, 48 bits). */
  @Test
  void sizesInBytes() {
    ScriptEnvironment environment = environment(false, 4, 2);
    List<String> expected = List.of("Long:640", "Long:64", "Long:640", "Long:64", "Integer:2", "Integer:2",
        "String:Filter_2", "Boolean:true", "Boolean:true",
        "Long:5", "Long:4", "Long:20", "Long:160", "Long:20",
        "Long:3", "Long:2", "Long:6", "Long:48", "Long:6");
    assertEquals(expected, ours(environment));
    assertEquals(expected, BeanShellOracle.run(SCRIPT, environment, Map.of()).probe());
  }

  /**
   * Sizes in bits (the scenario's sizesAreInBit): first has 5 tokens of 12 bits (60 bits, 8 bytes rounded up),
   * second 3 of 16 bits (48 bits, 6 bytes); getTokenSize and getBufferSize are then in bits.
   */
  @Test
  void sizesInBits() {
    ScriptEnvironment environment = environment(true, 12, 16);
    List<String> expected = List.of("Long:640", "Long:64", "Long:640", "Long:64", "Integer:2", "Integer:2",
        "String:Filter_2", "Boolean:true", "Boolean:true",
        "Long:5", "Long:12", "Long:60", "Long:60", "Long:8",
        "Long:3", "Long:16", "Long:48", "Long:48", "Long:6");
    assertEquals(expected, ours(environment));
    assertEquals(expected, BeanShellOracle.run(SCRIPT, environment, Map.of()).probe());
  }

  /** Without alignment scripts see -1, as in PREESM. */
  @Test
  void noAlignmentIsMinusOne() {
    ScriptEnvironment environment = ScriptEnvironment.builder("A").alignment(0).build();
    Probe probe = new Probe();
    MemoryScript.parse("probe.record(alignment);", "a.bsh").evaluate(environment, 100, Map.of("probe", probe));
    assertEquals(List.of("Long:-1"), probe.records);
  }

  /** In bits, byteMatchWith counts bytes and matchWith tokens: both land on the same bit ranges. */
  @Test
  void matchUnitsInBits() {
    ScriptEnvironment environment = ScriptEnvironment.builder("A").sizesInBits(true)
        .input(new BufferSpec("in", "f1", 8, 16, MemoryAnnotation.NONE))
        .output(new BufferSpec("out", "f2", 8, 16, MemoryAnnotation.NONE)).build();
    String script = "o_out.matchWith(1, i_in, 2, 3);\no_out.byteMatchWith(8, i_in, 8, 2);\n"
        + "o_out.bitMatchWith(0, i_in, 5, 16);\n";
    ScriptRun run = MemoryScript.parse(script, "m.bsh").evaluate(environment);
    List<String> expected = List.of("o_out[16+48]=i_in[32]", "o_out[64+16]=i_in[64]", "o_out[0+16]=i_in[5]");
    assertEquals(expected, ScriptRecords.matches(run));
    assertEquals(expected, BeanShellOracle.run(script, environment, Map.of()).matches());
  }
}
