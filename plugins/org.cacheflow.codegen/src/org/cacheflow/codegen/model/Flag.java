package org.cacheflow.codegen.model;

/**
 * A rdy-ack flag of the runtime ({@code cf_flag}, runtime-c/include/cacheflow/flag.h): the events one core
 * signals to another, counted. Every cross-core dependency from core {@code from} to core {@code to} (data
 * ready, slot free) is one count of this flag; the flag is homed at {@code to}, the core that waits on it.
 *
 * @param from the raising core
 * @param to the waiting core (CorePrinter names its C variable, defined in that core's file)
 */
public record Flag(int from, int to) {
}
