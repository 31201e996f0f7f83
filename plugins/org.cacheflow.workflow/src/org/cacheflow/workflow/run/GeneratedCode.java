package org.cacheflow.workflow.run;

import java.nio.file.Path;

/**
 * What a generation produced.
 *
 * @param directory the project written
 * @param summary one line for users (cores, strategy, buffers...)
 */
public record GeneratedCode(Path directory, String summary) {
}
