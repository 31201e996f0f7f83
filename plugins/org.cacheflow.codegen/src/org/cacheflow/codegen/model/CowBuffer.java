package org.cacheflow.codegen.model;

/**
 * A copy-on-write buffer: its producer writes it, each of {@code views} consumers opens a private view.
 *
 * @param index position in {@link CodeProject#cowBuffers()}
 * @param name C identifier of the buffer variable; views are {@code name_view[i]}
 * @param bytes size
 * @param views number of consumer views
 * @param description what it carries
 */
public record CowBuffer(int index, String name, long bytes, int views, String description) {
}
