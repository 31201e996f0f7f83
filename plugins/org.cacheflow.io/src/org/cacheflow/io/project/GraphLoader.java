package org.cacheflow.io.project;

import java.nio.file.Path;

import org.cacheflow.model.Graph;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;

/**
 * Reads the algorithm a scenario names, typically {@code PiReader}'s read method for {@code .pi} files.
 * Implementations report bad input as {@link InputException} and warnings through {@code diagnostics}.
 */
@FunctionalInterface
public interface GraphLoader {

  Graph load(Path algorithmFile, Diagnostics diagnostics);
}
