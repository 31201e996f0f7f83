/**
 * Self-describing workflow tasks: a {@link org.cacheflow.workflow.descriptor.TaskDescriptor} declares a task's
 * plug-in id, ports, parameters (values with their effects, defaults, checks) and documented errors in one place;
 * {@link org.cacheflow.workflow.descriptor.ReferenceDoc} turns it into the Markdown reference, and editors build
 * their forms from it.
 */
package org.cacheflow.workflow.descriptor;
