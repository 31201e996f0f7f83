package org.cacheflow.io.scenario;

import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * One value written in a scenario (a file path, the main core's name) with the place it was written,
 * so that a later problem with the value — an absent file, an unknown core — can name the scenario line.
 */
public record ScenarioSetting(String value, SourceLocation location) {
}
