package org.cacheflow.io.targetfile;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A target file as read by {@link TargetFileReader}: its keys and values in the order they were written, each
 * key once. What the keys mean, and which are known, is the planner's business
 * ({@code org.cacheflow.plan.strategy.TargetCache}).
 *
 * @param file the file read
 * @param settings the values by key, in file order (unmodifiable)
 */
public record TargetFile(Path file, Map<String, TargetSetting> settings) {

  public TargetFile {
    Objects.requireNonNull(file, "file");
    settings = Collections.unmodifiableMap(new LinkedHashMap<>(settings));
  }
}
