package org.cacheflow.scripts;

import java.util.ArrayList;
import java.util.List;

import org.cacheflow.scripts.lang.ScriptObject;

/**
 * A buffer as a script sees it ({@code i_<port>} or {@code o_<port>}). Implements PREESM's Buffer API:
 * {@code matchWith(localIdx, remote, remoteIdx, size)} in tokens, {@code byteMatchWith}, {@code bitMatchWith},
 * {@code getNbTokens}, {@code getTokenSize}, {@code getBufferSize}, {@code getBufferSizeInBit},
 * {@code getBufferSizeInByte}, {@code getVertexName}, plus cacheflow's marks {@code markReadMostly()},
 * {@code markPrivate()} and {@code markWriteMostly()}. Matches are checked as PREESM checks them when they
 * are made: each side must cover at least one real token, and "virtual" tokens (before 0 or past the end)
 * may be matched on one side only.
 */
public final class ScriptBuffer implements ScriptObject {

  /** Which side of its actor the buffer is on. */
  public enum Direction {
    INPUT, OUTPUT
  }

  private final BufferSpec spec;
  private final Direction direction;
  private final String vertexName;
  private final long tokenBits;
  private final boolean sizesInBits;
  private final ScriptRun.Recorder recorder;
  private long minIndex;
  private long maxIndex;

  ScriptBuffer(BufferSpec spec, Direction direction, ScriptEnvironment environment, ScriptRun.Recorder recorder) {
    this.spec = spec;
    this.direction = direction;
    this.vertexName = environment.vertexName();
    this.sizesInBits = environment.sizesInBits();
    this.tokenBits = sizesInBits ? spec.tokenSize() : spec.tokenSize() * 8;
    this.recorder = recorder;
    this.maxIndex = realBits();
  }

  public BufferSpec spec() {
    return spec;
  }

  public Direction direction() {
    return direction;
  }

  public String vertexName() {
    return vertexName;
  }

  /** {@code i_<port>} or {@code o_<port>}. */
  public String scriptName() {
    return (direction == Direction.INPUT ? "i_" : "o_") + spec.port();
  }

  public long tokenBits() {
    return tokenBits;
  }

  /** Size of the real tokens in bits. */
  public long realBits() {
    return spec.nbTokens() * tokenBits;
  }

  /** Lowest bit index matched so far (negative when virtual tokens before the start were matched). */
  public long minIndex() {
    return minIndex;
  }

  /** One past the highest bit index matched so far (or the real size). */
  public long maxIndex() {
    return maxIndex;
  }

  @Override
  public String typeName() {
    return "Buffer";
  }

  @Override
  public String toString() {
    return vertexName + "." + scriptName();
  }

  @Override
  public Object invoke(String method, List<Object> arguments, CallSite site) {
    switch (method) {
      case "matchWith":
        return match(method, arguments, site, tokenBits, "tokens");
      case "byteMatchWith":
        return match(method, arguments, site, 8, "bytes");
      case "bitMatchWith":
        return match(method, arguments, site, 1, "bits");
      case "getNbTokens":
        noArguments(method, arguments, site);
        return spec.nbTokens();
      case "getTokenSize":
        noArguments(method, arguments, site);
        return spec.tokenSize();
      case "getBufferSize":
        noArguments(method, arguments, site);
        return spec.nbTokens() * spec.tokenSize();
      case "getBufferSizeInBit":
        noArguments(method, arguments, site);
        return realBits();
      case "getBufferSizeInByte":
        noArguments(method, arguments, site);
        return (realBits() + 7) / 8;
      case "getVertexName":
        noArguments(method, arguments, site);
        return vertexName;
      case "markReadMostly":
        return mark(FifoMark.READ_MOSTLY, arguments, site);
      case "markPrivate":
        return mark(FifoMark.PRIVATE, arguments, site);
      case "markWriteMostly":
        return mark(FifoMark.WRITE_MOSTLY, arguments, site);
      default:
        throw site.error("unknown method Buffer." + method + "() (known: bitMatchWith, byteMatchWith, "
            + "getBufferSize, getBufferSizeInBit, getBufferSizeInByte, getNbTokens, getTokenSize, getVertexName, "
            + "markPrivate, markReadMostly, markWriteMostly, matchWith)");
    }
  }

  private static void noArguments(String method, List<Object> arguments, CallSite site) {
    if (!arguments.isEmpty()) {
      throw site.error("Buffer." + method + "() takes no arguments, got " + arguments.size());
    }
  }

  private Object mark(FifoMark mark, List<Object> arguments, CallSite site) {
    noArguments(mark.method, arguments, site);
    recorder.mark(new MarkRecord(spec.fifoId(), mark, vertexName, scriptName(), site.location()), site);
    return null;
  }

  private Object match(String method, List<Object> arguments, CallSite site, long unitBits, String unit) {
    if (arguments.size() != 4) {
      throw site.error("Buffer." + method + "() takes 4 arguments (localIndex, remoteBuffer, remoteIndex, size), got "
          + arguments.size());
    }
    long local = integer(method, arguments, 0, site);
    if (!(arguments.get(1) instanceof ScriptBuffer remote)) {
      throw site.error("Buffer." + method + "(): argument 2 must be a buffer, got "
          + (arguments.get(1) == null ? "null" : "a " + typeOf(arguments.get(1))));
    }
    long remoteIndex = integer(method, arguments, 2, site);
    long size = integer(method, arguments, 3, site);
    if (method.equals("matchWith") && remote.tokenBits != tokenBits) {
      throw site.error("cannot match " + this + " with " + remote + ": token sizes differ (" + tokenBits + " bits != "
          + remote.tokenBits + " bits); use byteMatchWith()");
    }
    if (size <= 0) {
      throw site.error("cannot match " + describe(this, local, size) + " with " + describe(remote, remoteIndex, size)
          + " " + unit + ": the size must be positive");
    }
    long localBit = local * unitBits;
    long remoteBit = remoteIndex * unitBits;
    long bits = size * unitBits;
    String what = describe(this, local, size) + " with " + describe(remote, remoteIndex, size) + " (" + unit + ")";
    if (localBit >= realBits() || localBit + bits <= 0) {
      throw site.error("cannot match " + what + ": no real token of " + this + " [0.." + realBits() / unitBits
          + ") is matched");
    }
    if (remoteBit >= remote.realBits() || remoteBit + bits <= 0) {
      throw site.error("cannot match " + what + ": no real token of " + remote + " [0.." + remote.realBits() / unitBits
          + ") is matched");
    }
    boolean bothBefore = localBit < 0 && remoteBit < 0;
    boolean bothAfter = localBit + bits > realBits() && remoteBit + bits > remote.realBits();
    boolean localShort = localBit >= 0 && realBits() - localBit <= -Math.min(0, remoteBit);
    boolean remoteShort = remoteBit >= 0 && remote.realBits() - remoteBit <= -Math.min(0, localBit);
    if (bothBefore || bothAfter || localShort || remoteShort) {
      throw site.error("cannot match " + what + ": virtual tokens (outside [0..size)) would be matched on both sides;"
          + " sizes are " + realBits() / unitBits + " and " + remote.realBits() / unitBits + " " + unit);
    }
    extend(localBit, bits);
    remote.extend(remoteBit, bits);
    recorder.match(new Match(this, localBit, remote, remoteBit, bits));
    return null;
  }

  private void extend(long start, long bits) {
    minIndex = Math.min(minIndex, start);
    maxIndex = Math.max(maxIndex, start + bits);
  }

  private static String describe(ScriptBuffer buffer, long start, long size) {
    return buffer + "[" + start + ".." + (start + size) + ")";
  }

  private static long integer(String method, List<Object> arguments, int index, CallSite site) {
    Object value = arguments.get(index);
    if (value instanceof Integer || value instanceof Long) {
      return ((Number) value).longValue();
    }
    throw site.error("Buffer." + method + "(): argument " + (index + 1) + " must be an int or long, got "
        + (value == null ? "null" : "a " + typeOf(value)));
  }

  private static String typeOf(Object value) {
    if (value instanceof ScriptObject object) {
      return object.typeName();
    }
    String name = value.getClass().getSimpleName();
    return switch (name) {
      case "Integer" -> "int";
      case "Long" -> "long";
      case "Double" -> "double";
      case "Float" -> "float";
      case "Boolean" -> "boolean";
      default -> name;
    };
  }

  /** All buffers of a run, inputs first, for reports. */
  static List<ScriptBuffer> concat(List<ScriptBuffer> inputs, List<ScriptBuffer> outputs) {
    List<ScriptBuffer> all = new ArrayList<>(inputs);
    all.addAll(outputs);
    return all;
  }
}
