/**
 * Reports of a memory plan: JSON ({@link org.cacheflow.plan.report.PlanJson}), Markdown
 * ({@link org.cacheflow.plan.report.PlanMarkdown}), the graph as DOT and laid-out SVG
 * ({@link org.cacheflow.plan.report.GraphDrawing}) and a Gantt chart of the schedule
 * ({@link org.cacheflow.plan.report.GanttChart}); {@link org.cacheflow.plan.report.ReportWriter} writes them all.
 */
package org.cacheflow.plan.report;
