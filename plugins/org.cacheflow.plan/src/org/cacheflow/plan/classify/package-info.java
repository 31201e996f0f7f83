/**
 * Classification of single-rate buffers: {@link org.cacheflow.plan.classify.Classifier} gives each buffer one
 * {@link org.cacheflow.plan.classify.BufferClass} (aliased, read-mostly, private, write-mostly) with the rule
 * that gave it, from the schedule and the memory scripts' facts ({@link org.cacheflow.plan.classify.MemoryFacts}).
 */
package org.cacheflow.plan.classify;
