/**
 * Reports of a memory plan: JSON ({@link org.cacheflow.report.PlanJson}), Markdown
 * ({@link org.cacheflow.report.PlanMarkdown}), the graph as DOT and laid-out SVG
 * ({@link org.cacheflow.report.GraphDrawing}) and a Gantt chart of the schedule
 * ({@link org.cacheflow.report.GanttChart}); {@link org.cacheflow.report.ReportWriter} writes them all.
 */
package org.cacheflow.report;
