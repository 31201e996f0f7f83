package org.cacheflow.workflow.descriptor;

/**
 * An error the task reports, as users see it, and what to do about it.
 *
 * @param message the message, with {@code <...>} standing for the parts that vary
 * @param remedy why it happens and how to fix it
 */
public record DocumentedError(String message, String remedy) {
}
