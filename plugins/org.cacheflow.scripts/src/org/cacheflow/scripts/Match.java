package org.cacheflow.scripts;

/**
 * One call of {@code matchWith}, {@code byteMatchWith} or {@code bitMatchWith}: {@code length} bits of the
 * local buffer from {@code localStart} may share memory with the remote buffer from {@code remoteStart}. Indices
 * are in bits (so token, byte and bit matches compare alike) and may be negative or past the end of a buffer
 * ("virtual tokens") on one side.
 */
public record Match(ScriptBuffer local, long localStart, ScriptBuffer remote, long remoteStart, long length) {

  public long localEnd() {
    return localStart + length;
  }

  public long remoteEnd() {
    return remoteStart + length;
  }

  /** The same match seen from the remote buffer. */
  public Match reciprocal() {
    return new Match(remote, remoteStart, local, localStart, length);
  }

  /** E.g. {@code o_out[0..64) <-> i_in[16..80) bytes}, in bytes when every bound is byte-aligned. */
  @Override
  public String toString() {
    return local.scriptName() + range(localStart, localEnd()) + " <-> " + remote.scriptName()
        + range(remoteStart, remoteEnd()) + (byteAligned() ? " bytes" : " bits");
  }

  public boolean byteAligned() {
    return localStart % 8 == 0 && remoteStart % 8 == 0 && length % 8 == 0;
  }

  private String range(long start, long end) {
    return byteAligned() ? "[" + start / 8 + ".." + end / 8 + ")" : "[" + start + ".." + end + ")";
  }
}
