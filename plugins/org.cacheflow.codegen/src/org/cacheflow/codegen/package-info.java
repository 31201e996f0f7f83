/**
 * C code generation: {@link org.cacheflow.codegen.build.CodeModelBuilder} turns a plan into a typed code model
 * ({@link org.cacheflow.codegen.model}), one Xtend printer per output file prints it
 * ({@link org.cacheflow.codegen.printer}), and {@link org.cacheflow.codegen.ProjectWriter} writes the project with a
 * copy of the C runtime, replacing the output folder only once everything is written. See docs/generate.md.
 */
package org.cacheflow.codegen;
