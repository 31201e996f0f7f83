/**
 * The code model: a generated project as data — cores with their start-up steps and static schedule
 * ({@link org.cacheflow.codegen.model.Statement}: actor calls, copies, pre-stores, channel, copy-on-write,
 * semaphore and inter-node transfer operations, digests), buffers, channels, copy-on-write buffers, MPI transfers
 * between nodes, sinks, synthetic actor bodies. Every decision is made when the model is built; printers only
 * print it.
 */
package org.cacheflow.codegen.model;
