/**
 * Single-rate expansion: {@link org.cacheflow.analysis.srdag.SingleRateExpansion} turns a
 * {@link org.cacheflow.analysis.FlatGraph} into an {@link org.cacheflow.analysis.srdag.Srdag}, one vertex
 * per firing plus the fork, join, init and end vertices PREESM's {@code PiMMSRVerticesLinker} inserts,
 * stored in primitive arrays so that millions of vertices fit.
 */
package org.cacheflow.analysis.srdag;
