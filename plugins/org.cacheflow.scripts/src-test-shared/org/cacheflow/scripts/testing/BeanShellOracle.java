package org.cacheflow.scripts.testing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.cacheflow.scripts.BufferSpec;
import org.cacheflow.scripts.ScriptEnvironment;

import bsh.EvalError;
import bsh.Interpreter;

/**
 * Runs a script with the real BeanShell 2.0b6 interpreter the way PREESM's ScriptRunner does: the same
 * variables (one Long per parameter, alignment, i_/o_ buffers, parameters, inputs, outputs), but with
 * {@link RecordingBuffer}s. The reference our evaluator is compared with, by the scripts bundle's tests and by
 * the plan bundle's tests on the environments the planner builds (this folder is compiled into both).
 */
public final class BeanShellOracle {

  /** What BeanShell produced; {@code error} is null when the script ran to its end. */
  public record Result(List<String> matches, List<String> marks, List<String> probe, String error) {
  }

  private BeanShellOracle() {
  }

  /** Runs with a time limit: BeanShell has no step budget, a test must not hang on a looping script. */
  public static Result run(String source, ScriptEnvironment environment, Map<String, Object> extraGlobals) {
    ExecutorService executor = Executors.newSingleThreadExecutor(task -> {
      Thread thread = new Thread(task, "beanshell-oracle");
      thread.setDaemon(true);
      return thread;
    });
    try {
      return executor.submit(() -> runNow(source, environment, extraGlobals)).get(20, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError("BeanShell did not finish within 20 s:\n" + source);
    } catch (InterruptedException | ExecutionException e) {
      throw new AssertionError(e);
    } finally {
      executor.shutdownNow();
    }
  }

  private static Result runNow(String source, ScriptEnvironment environment, Map<String, Object> extraGlobals) {
    List<String> matches = new ArrayList<>();
    List<String> marks = new ArrayList<>();
    Probe probe = new Probe();
    Interpreter interpreter = new Interpreter();
    try {
      interpreter.eval("import java.util.List;");
      Map<String, Long> parameters = new LinkedHashMap<>(environment.parameters());
      parameters.put("alignment", environment.alignment());
      for (Map.Entry<String, Long> parameter : parameters.entrySet()) {
        interpreter.set(parameter.getKey(), parameter.getValue());
      }
      List<RecordingBuffer> inputs = new ArrayList<>();
      for (BufferSpec spec : environment.inputs()) {
        RecordingBuffer buffer = new RecordingBuffer("i_" + spec.port(), environment.vertexName(), spec.nbTokens(),
            spec.tokenSize(), environment.sizesInBits(), matches, marks);
        inputs.add(buffer);
        interpreter.set("i_" + spec.port(), buffer);
      }
      List<RecordingBuffer> outputs = new ArrayList<>();
      for (BufferSpec spec : environment.outputs()) {
        RecordingBuffer buffer = new RecordingBuffer("o_" + spec.port(), environment.vertexName(), spec.nbTokens(),
            spec.tokenSize(), environment.sizesInBits(), matches, marks);
        outputs.add(buffer);
        interpreter.set("o_" + spec.port(), buffer);
      }
      interpreter.set("parameters", parameters);
      interpreter.set("inputs", inputs);
      interpreter.set("outputs", outputs);
      interpreter.set("probe", probe);
      for (Map.Entry<String, Object> extra : extraGlobals.entrySet()) {
        interpreter.set(extra.getKey(), extra.getValue());
      }
      interpreter.eval(source);
      return new Result(matches, marks, probe.records, null);
    } catch (EvalError error) {
      return new Result(matches, marks, probe.records, String.valueOf(error.getMessage()));
    } catch (RuntimeException | StackOverflowError error) {
      return new Result(matches, marks, probe.records, error.toString());
    }
  }

  /** Records values with their Java type, e.g. {@code Integer:3}, on both sides of property tests. */
  public static final class Probe {
    final List<String> records = new ArrayList<>();

    public void record(Object value) {
      records.add(describe(value));
    }

    public static String describe(Object value) {
      return value == null ? "null" : value.getClass().getSimpleName() + ":" + value;
    }
  }
}
