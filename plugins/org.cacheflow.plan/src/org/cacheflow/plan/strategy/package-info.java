/**
 * Strategies per buffer: {@link org.cacheflow.plan.strategy.StrategySelector} chooses among alias, direct,
 * memcpy, copy-on-write view, non-temporal copy, pre-store and home-forwarded channel from the buffer's class,
 * the {@link org.cacheflow.plan.strategy.ReuseDistances} on the static schedule and the
 * {@link org.cacheflow.plan.strategy.TargetCache} with its {@link org.cacheflow.plan.strategy.MeasuredCosts};
 * per-FIFO {@link org.cacheflow.plan.strategy.StrategyOverride}s refine the choice.
 */
package org.cacheflow.plan.strategy;
