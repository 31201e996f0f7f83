package org.cacheflow.scripts.testing;

import java.util.List;

/**
 * The Buffer a script sees when the real BeanShell interpreter runs it in differential tests: same method
 * names and signatures as PREESM's Buffer, but it only records each call, normalised to bits, so that the
 * record can be compared with what our evaluator produced.
 */
public final class RecordingBuffer {

  private final String scriptName;
  private final String vertexName;
  private final long nbTokens;
  private final long tokenSize;
  private final long tokenBits;
  private final List<String> matches;
  private final List<String> marks;

  RecordingBuffer(String scriptName, String vertexName, long nbTokens, long tokenSize, boolean sizesInBits,
      List<String> matches, List<String> marks) {
    this.scriptName = scriptName;
    this.vertexName = vertexName;
    this.nbTokens = nbTokens;
    this.tokenSize = tokenSize;
    this.tokenBits = sizesInBits ? tokenSize : tokenSize * 8;
    this.matches = matches;
    this.marks = marks;
  }

  public void matchWith(long localIdx, RecordingBuffer remote, long remoteIdx, long size) {
    record(localIdx * tokenBits, remote, remoteIdx * tokenBits, size * tokenBits);
  }

  public void byteMatchWith(long localIdx, RecordingBuffer remote, long remoteIdx, long size) {
    record(localIdx * 8, remote, remoteIdx * 8, size * 8);
  }

  public void bitMatchWith(long localIdx, RecordingBuffer remote, long remoteIdx, long size) {
    record(localIdx, remote, remoteIdx, size);
  }

  private void record(long localBit, RecordingBuffer remote, long remoteBit, long bits) {
    matches.add(ScriptRecords.match(scriptName, localBit, remote.scriptName, remoteBit, bits));
  }

  public long getNbTokens() {
    return nbTokens;
  }

  public long getTokenSize() {
    return tokenSize;
  }

  public long getBufferSize() {
    return nbTokens * tokenSize;
  }

  public long getBufferSizeInBit() {
    return nbTokens * tokenBits;
  }

  public long getBufferSizeInByte() {
    return (nbTokens * tokenBits + 7) / 8;
  }

  public String getVertexName() {
    return vertexName;
  }

  public void markReadMostly() {
    marks.add(scriptName + ".markReadMostly");
  }

  public void markPrivate() {
    marks.add(scriptName + ".markPrivate");
  }

  public void markWriteMostly() {
    marks.add(scriptName + ".markWriteMostly");
  }

  @Override
  public String toString() {
    return vertexName + "." + scriptName;
  }
}
