/**
 * The static schedule: {@link org.cacheflow.plan.schedule.ListScheduler} maps every single-rate vertex to a
 * core and orders each core's vertices; the result is a {@link org.cacheflow.plan.schedule.Schedule}.
 */
package org.cacheflow.plan.schedule;
