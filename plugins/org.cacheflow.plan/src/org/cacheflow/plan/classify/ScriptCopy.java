package org.cacheflow.plan.classify;

/**
 * A range an actor's own memory script says one of its outputs repeats from one of its inputs (a match between
 * an input and an output of the actor, within both buffers' real tokens): the actor leaves
 * {@code output[outputByte, outputByte + bytes)} equal to {@code input[inputByte, inputByte + bytes)}. Memory
 * merging relies on it; synthetic actor bodies honour it so every strategy computes the same data.
 *
 * @param inputPort the input's port
 * @param inputByte first byte in the input
 * @param outputPort the output's port
 * @param outputByte first byte in the output
 * @param bytes length
 */
public record ScriptCopy(String inputPort, long inputByte, String outputPort, long outputByte, long bytes) {
}
