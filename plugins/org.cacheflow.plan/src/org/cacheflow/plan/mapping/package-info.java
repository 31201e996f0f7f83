/**
 * What mapping works with: the cores ({@link org.cacheflow.plan.mapping.Platform}), each actor's execution
 * times and allowed cores from the scenario ({@link org.cacheflow.plan.mapping.MappingInputs}), and the
 * mapping policy ({@link org.cacheflow.plan.mapping.MappingPolicy}). The list scheduler that maps and orders
 * the single-rate graph is {@link org.cacheflow.plan.schedule.ListScheduler}.
 */
package org.cacheflow.plan.mapping;
