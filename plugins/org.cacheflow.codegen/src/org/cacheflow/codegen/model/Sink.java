package org.cacheflow.codegen.model;

/**
 * A FIFO whose data the validation mode digests: one MD5 context per consumer firing ({@code parts}); the
 * printed digest is the MD5 of the data itself when there is one part, else the MD5 of the parts' digests
 * in firing order.
 *
 * @param index position in {@link CodeProject#sinks()}
 * @param label the FIFO as users name it ({@code source.port -> target.port})
 * @param parts consumer firings
 * @param firstPart index of its first context in the generated array of all sinks' contexts
 */
public record Sink(int index, String label, int parts, int firstPart) {
}
