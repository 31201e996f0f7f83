package org.cacheflow.scripts;

import org.cacheflow.model.diagnostics.SourceLocation;

/** A mark set by a script: on which FIFO, by which actor instance through which buffer, and where. */
public record MarkRecord(String fifoId, FifoMark mark, String vertexName, String bufferName,
    SourceLocation location) {
}
