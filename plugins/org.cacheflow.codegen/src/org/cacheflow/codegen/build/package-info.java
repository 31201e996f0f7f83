/**
 * From plan to code model: {@link org.cacheflow.codegen.build.ExecutionPlan} (mapping, per-core order, per-buffer
 * choices) behind which stands the memory plan ({@link org.cacheflow.codegen.build.PlannedExecution});
 * {@link org.cacheflow.codegen.build.CodePreset} presets;
 * {@link org.cacheflow.codegen.build.CodeModelBuilder}, which decides aliasing, copy-on-write, storage and
 * synchronisation.
 */
package org.cacheflow.codegen.build;
