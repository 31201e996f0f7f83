/** PREESM project discovery: project files, .ci.yaml runs, workspace paths, loading a scenario with all it names. */
package org.cacheflow.io.project;
