/** Benchmarks run by hand (not unit tests): {@link org.cacheflow.bench.plan.ExpansionBenchmark}. */
package org.cacheflow.bench.plan;
