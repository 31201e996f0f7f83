package org.cacheflow.io.pisdf;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/** The shared test corpus, found through the system property the parent pom sets; tests skip without it. */
final class PiCorpus {

  private PiCorpus() {
  }

  static Path directory() {
    String property = System.getProperty("cacheflow.corpus");
    Path corpus = property == null ? null : Path.of(property);
    assumeTrue(corpus != null && Files.isDirectory(corpus.resolve("preesm-apps")),
        "corpus not found (system property cacheflow.corpus = " + property + "); skipping corpus tests");
    return corpus;
  }

  static Path app(String name) {
    return directory().resolve("preesm-apps").resolve(name);
  }
}
