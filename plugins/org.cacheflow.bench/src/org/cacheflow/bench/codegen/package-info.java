/** Benchmarks of code generation and of the generated programs ({@link org.cacheflow.bench.codegen.CodegenBenchmark}).
 * */
package org.cacheflow.bench.codegen;
