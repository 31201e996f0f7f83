/**
 * The memory plan — what the C code generator consumes. {@link org.cacheflow.plan.memoryplan.MemoryPlanner#plan}
 * turns a single-rate graph and a {@link org.cacheflow.plan.memoryplan.PlanRequest} into a
 * {@link org.cacheflow.plan.memoryplan.MemoryPlan}: a static schedule per core, and per single-rate buffer a
 * {@link org.cacheflow.plan.memoryplan.BufferPlan} (class, strategy, its parameters, home core, reason), with
 * per-FIFO summaries and totals.
 */
package org.cacheflow.plan.memoryplan;
