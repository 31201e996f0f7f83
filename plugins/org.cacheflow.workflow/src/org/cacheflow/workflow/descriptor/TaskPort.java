package org.cacheflow.workflow.descriptor;

/**
 * An input or output of the task in a workflow's {@code dftools:dataTransfer} graph.
 *
 * @param name the port name used in {@code sourceport} / {@code targetport}
 * @param description what travels through it
 */
public record TaskPort(String name, String description) {
}
