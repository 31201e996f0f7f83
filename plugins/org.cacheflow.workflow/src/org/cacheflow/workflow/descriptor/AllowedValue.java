package org.cacheflow.workflow.descriptor;

/**
 * One value a parameter accepts and what choosing it does.
 *
 * @param name the value as written in the workflow
 * @param effect what the task does with it, one or two sentences
 */
public record AllowedValue(String name, String effect) {
}
