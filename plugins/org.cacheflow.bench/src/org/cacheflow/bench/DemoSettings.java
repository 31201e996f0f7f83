package org.cacheflow.bench;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** What the command line asked for, and where the example and the C runtime's sources are. */
record DemoSettings(Path work, Path stereo, List<String> strategies, List<String> missStrategies,
    int iterations, int runs, Map<String, String> params, DemoFrame frame, DemoFrame missFrame, int missScale,
    boolean measureMisses, List<DemoCache> caches, List<DemoCache> simulatedCaches, Path runtimeSources) {
}
