package org.cacheflow.scripts;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.scripts.lang.Ast;
import org.cacheflow.scripts.lang.AstBuilder;
import org.cacheflow.scripts.lang.Interpreter;
import org.cacheflow.scripts.lang.ScriptObject;

/**
 * A parsed memory script. Parse once, evaluate for each actor instance: evaluation is deterministic and
 * sandboxed (see {@link Interpreter}).
 */
public final class MemoryScript {

  /** Steps a script may take by default before it is stopped as endless (see {@link Interpreter}). */
  public static final long DEFAULT_STEP_BUDGET = Interpreter.DEFAULT_STEP_BUDGET;

  private final String fileName;
  private final List<Ast.Statement> program;

  private MemoryScript(String fileName, List<Ast.Statement> program) {
    this.fileName = fileName;
    this.program = program;
  }

  /** Parses a script; {@code fileName} appears in messages. Throws {@link ScriptException} on bad syntax. */
  public static MemoryScript parse(String source, String fileName) {
    return new MemoryScript(fileName, AstBuilder.parse(source, fileName));
  }

  /** Reads and parses a script file. */
  public static MemoryScript read(Path file) {
    String source;
    try {
      source = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new InputException(SourceLocation.file(file), "cannot read memory script: " + e.getMessage(), e);
    }
    return parse(source, file.toString());
  }

  public String fileName() {
    return fileName;
  }

  /** Runs the script with the default step budget. */
  public ScriptRun evaluate(ScriptEnvironment environment) {
    return evaluate(environment, DEFAULT_STEP_BUDGET);
  }

  /**
   * Runs the script for one actor instance. Throws {@link ScriptException} when it fails; the location is the
   * script position where it failed.
   */
  public ScriptRun evaluate(ScriptEnvironment environment, long stepBudget) {
    return evaluate(environment, stepBudget, Map.of());
  }

  /** As {@link #evaluate(ScriptEnvironment, long)}, with extra host objects (tests use a value probe). */
  ScriptRun evaluate(ScriptEnvironment environment, long stepBudget, Map<String, ScriptObject> hostObjects) {
    ScriptRun.Recorder recorder = new ScriptRun.Recorder();
    List<ScriptBuffer> inputs = new ArrayList<>();
    List<ScriptBuffer> outputs = new ArrayList<>();
    Map<String, Object> globals = new LinkedHashMap<>();
    // same order as PREESM's ScriptRunner: parameters and alignment, buffers, then the lists and the map
    Map<String, Long> parameters = new LinkedHashMap<>(environment.parameters());
    parameters.put("alignment", environment.alignment());
    globals.putAll(parameters);
    for (BufferSpec spec : environment.inputs()) {
      ScriptBuffer buffer = new ScriptBuffer(spec, ScriptBuffer.Direction.INPUT, environment, recorder);
      inputs.add(buffer);
      globals.put("i_" + spec.port(), buffer);
    }
    for (BufferSpec spec : environment.outputs()) {
      ScriptBuffer buffer = new ScriptBuffer(spec, ScriptBuffer.Direction.OUTPUT, environment, recorder);
      outputs.add(buffer);
      globals.put("o_" + spec.port(), buffer);
    }
    globals.putIfAbsent("parameters", Collections.unmodifiableMap(parameters));
    globals.putIfAbsent("inputs", List.copyOf(inputs));
    globals.putIfAbsent("outputs", List.copyOf(outputs));
    globals.putAll(hostObjects);
    long steps = Interpreter.run(program, fileName, globals, stepBudget);
    return new ScriptRun(fileName, environment, List.copyOf(inputs), List.copyOf(outputs),
        List.copyOf(recorder.matches), List.copyOf(recorder.marks), steps);
  }
}
