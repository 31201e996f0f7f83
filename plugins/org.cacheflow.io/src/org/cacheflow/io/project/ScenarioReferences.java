package org.cacheflow.io.project;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The files a scenario names, as found in the project; a reference is empty when the scenario does not
 * give it or when the file does not exist (which is then reported).
 */
public record ScenarioReferences(Optional<Path> algorithm, Optional<Path> architecture,
    Optional<Path> codegenDirectory) {
}
