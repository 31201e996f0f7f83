/** Reader of PREESM workflows (tasks and their variables). */
package org.cacheflow.io.workflow;
