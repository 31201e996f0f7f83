/**
 * Graph analysis before scheduling: flattening of the hierarchy with parameter resolution
 * ({@link org.cacheflow.analysis.Flattener}), the repetition vector with exact balance equations
 * ({@link org.cacheflow.analysis.BalanceEquations}), the liveness check
 * ({@link org.cacheflow.analysis.LivenessCheck}) and buffer sizes
 * ({@link org.cacheflow.analysis.FifoBuffer}). The entry point is
 * {@link org.cacheflow.analysis.GraphAnalysis#analyse}.
 *
 * <p>
 * The semantics are PREESM's, checked against its sources: {@code LCMBasedBRV} and
 * {@code PiBRV.updateRVWithInterfaces} (per-level repetition vectors scaled to interfaces),
 * {@code PiMMHelper.getHierarchichalRV} (flat counts), {@code PiSDFFlattener} (interfaces as broadcast /
 * round buffer), {@code PiSDFToSingleRate} and {@code BroadcastRoundBufferOptimization} (identity interfaces
 * dropped), {@code PiMMHelper.removePersistence} (delay persistence levels, and which of them allow a
 * delay setter / getter actor). Differences are documented where they occur: a delay may have only a setter or
 * only a getter in a sub-graph too, and PREESM's fork/join optimizations of the single-rate graph are not
 * applied.
 */
package org.cacheflow.analysis;
