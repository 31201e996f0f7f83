package org.cacheflow.scripts;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What PREESM gives a memory script for one single-rate actor instance: a {@code Long} per config input port,
 * {@code alignment}, {@code i_<port>}/{@code o_<port>} buffers, {@code inputs}/{@code outputs} lists in port
 * order and a {@code parameters} map. Built by the planner per instance; independent of any graph class so the
 * scripts bundle can be tested alone.
 */
public final class ScriptEnvironment {

  private final String vertexName;
  private final boolean sizesInBits;
  private final long alignment;
  private final Map<String, Long> parameters;
  private final List<BufferSpec> inputs;
  private final List<BufferSpec> outputs;

  private ScriptEnvironment(Builder builder) {
    this.vertexName = builder.vertexName;
    this.sizesInBits = builder.sizesInBits;
    this.alignment = builder.alignment;
    this.parameters = Collections.unmodifiableMap(new LinkedHashMap<>(builder.parameters));
    this.inputs = List.copyOf(builder.inputs);
    this.outputs = List.copyOf(builder.outputs);
  }

  public static Builder builder(String vertexName) {
    return new Builder(vertexName);
  }

  /** Name of the single-rate actor instance, returned by {@code getVertexName()}. */
  public String vertexName() {
    return vertexName;
  }

  /** True when token sizes are in bits (the scenario's {@code sizesAreInBit}), else bytes. */
  public boolean sizesInBits() {
    return sizesInBits;
  }

  /** The alignment scripts see: the configured alignment in the scenario's unit, or -1 without alignment. */
  public long alignment() {
    return alignment;
  }

  /** Resolved config input parameter values, in port order. */
  public Map<String, Long> parameters() {
    return parameters;
  }

  public List<BufferSpec> inputs() {
    return inputs;
  }

  public List<BufferSpec> outputs() {
    return outputs;
  }

  /** Builds an environment. */
  public static final class Builder {
    private final String vertexName;
    private boolean sizesInBits;
    private long alignment = -1;
    private final Map<String, Long> parameters = new LinkedHashMap<>();
    private final List<BufferSpec> inputs = new ArrayList<>();
    private final List<BufferSpec> outputs = new ArrayList<>();

    private Builder(String vertexName) {
      this.vertexName = vertexName;
    }

    public Builder sizesInBits(boolean value) {
      this.sizesInBits = value;
      return this;
    }

    /** Alignment; zero or negative means none (scripts then see -1, as in PREESM). */
    public Builder alignment(long value) {
      this.alignment = value <= 0 ? -1 : value;
      return this;
    }

    public Builder parameter(String name, long value) {
      parameters.put(name, value);
      return this;
    }

    public Builder input(BufferSpec buffer) {
      inputs.add(buffer);
      return this;
    }

    public Builder output(BufferSpec buffer) {
      outputs.add(buffer);
      return this;
    }

    public ScriptEnvironment build() {
      return new ScriptEnvironment(this);
    }
  }
}
