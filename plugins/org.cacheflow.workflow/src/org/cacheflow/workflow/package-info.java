/**
 * The cacheflow task of PREESM workflows ({@link org.cacheflow.workflow.CodegenTask}, plug-in id
 * {@code org.cacheflow.workflow.codegen}).
 */
package org.cacheflow.workflow;
