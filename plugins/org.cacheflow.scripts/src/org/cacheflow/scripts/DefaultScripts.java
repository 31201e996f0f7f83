package org.cacheflow.scripts;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;

/**
 * The memory scripts of PREESM's special actors, written for cacheflow with PREESM's documented semantics:
 * fork and join lay their outputs (inputs) out as consecutive slices, broadcast lets every output alias the
 * input (wrapping when an output is larger), roundbuffer keeps the last tokens. Shipped as {@code scripts/*.bsh}
 * in the bundle and parsed once.
 */
public final class DefaultScripts {

  /** Special actors that have a default script. */
  public enum Kind {
    FORK("fork.bsh"), JOIN("join.bsh"), BROADCAST("broadcast.bsh"), ROUNDBUFFER("roundbuffer.bsh");

    public final String fileName;

    Kind(String fileName) {
      this.fileName = fileName;
    }
  }

  private static final Map<Kind, MemoryScript> SCRIPTS = new EnumMap<>(Kind.class);

  private DefaultScripts() {
  }

  /** The parsed default script of a special actor kind. */
  public static synchronized MemoryScript of(Kind kind) {
    return SCRIPTS.computeIfAbsent(kind, k -> MemoryScript.parse(source(k), "scripts/" + k.fileName));
  }

  /** The text of a default script, as shipped. */
  public static String source(Kind kind) {
    String resource = "/scripts/" + kind.fileName;
    try (InputStream in = DefaultScripts.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("default memory script " + resource + " is missing from the bundle");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
