/**
 * Headless runs of PREESM workflows: which workflow x scenario pairs to run ({@link
 * org.cacheflow.workflow.run.WorkflowRunner#select}), the settings of each cacheflow task checked against the task
 * descriptor ({@link org.cacheflow.workflow.run.CodegenSettings}), and the generations they ask for, carried out by
 * a {@link org.cacheflow.workflow.run.CodeGenerator}.
 */
package org.cacheflow.workflow.run;
