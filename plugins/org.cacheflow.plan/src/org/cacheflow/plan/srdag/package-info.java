/**
 * Single-rate expansion: {@link org.cacheflow.plan.srdag.SingleRateExpansion} turns a
 * {@link org.cacheflow.plan.analysis.FlatGraph} into an {@link org.cacheflow.plan.srdag.Srdag}, one vertex
 * per firing plus the fork, join, init and end vertices PREESM's {@code PiMMSRVerticesLinker} inserts,
 * stored in primitive arrays so that millions of vertices fit.
 */
package org.cacheflow.plan.srdag;
