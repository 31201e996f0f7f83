/** Eclipse integration of cacheflow: the PREESM workflow editor, the launch shortcut, problem markers and the plan
 * report. */
package org.cacheflow.ui;
