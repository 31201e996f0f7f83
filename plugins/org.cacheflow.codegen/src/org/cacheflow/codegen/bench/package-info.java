/** Benchmarks of code generation and of the generated programs ({@link org.cacheflow.codegen.bench.CodegenBenchmark}). */
package org.cacheflow.codegen.bench;
