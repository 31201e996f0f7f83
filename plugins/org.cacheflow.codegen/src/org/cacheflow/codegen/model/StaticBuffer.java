package org.cacheflow.codegen.model;

/**
 * A buffer allocated once for the whole run: a global array, 64-byte aligned, zero at start.
 *
 * @param name C identifier
 * @param bytes size of one copy
 * @param copies 1, or 2 for the state of a persistent delay (iterations alternate between the copies)
 * @param description which single-rate edges live in it
 */
public record StaticBuffer(String name, long bytes, int copies, String description) {
}
