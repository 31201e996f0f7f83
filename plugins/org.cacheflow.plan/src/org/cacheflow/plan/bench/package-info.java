/** Benchmarks run by hand (not unit tests): {@link org.cacheflow.plan.bench.ExpansionBenchmark}. */
package org.cacheflow.plan.bench;
