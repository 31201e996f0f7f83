package org.cacheflow.io.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.cacheflow.model.diagnostics.InputException;
import org.junit.jupiter.api.Test;

/** The profile's syntax: a good file reads, a bad one is an error at its file, line and column. */
class ProfileFileReaderTest {

  private static final Path FILE = Path.of("profile.json");

  private static final String GOOD = """
      {
        "cacheflowProfile": 1,
        "graph": "g",
        "iterations": 2,
        "cores": 1,
        "actors": [
          {
            "actor": "g/A",
            "firings": 2,
            "time": {"medianNs": 5.0, "q1Ns": 4.0, "q3Ns": 6.0, "minNs": 3.0, "maxNs": 7.0, "cv": 0.1},
            "ports": [{"port": "out", "input": false, "bytesPerFiring": 4, "declared": "NONE",
                       "measured": "WRITE_ONLY", "unwrittenRanges": []}]
          }
        ],
        "buffers": [],
        "unwrittenDigests": []
      }
      """;

  @Test
  void readsAProfile() {
    ProfileFile profile = ProfileFileReader.parse(FILE, GOOD);
    assertEquals("WRITE_ONLY", profile.actor("g/A").port("out").measured());
    assertEquals(5.0, profile.actor("g/A").time().medianNs());
  }

  @Test
  void badJsonIsAnErrorAtItsLine() {
    InputException e = assertThrows(InputException.class, () -> ProfileFileReader.parse(FILE,
        GOOD.replace("\"cores\": 1,", "\"cores\": 1,,")));
    assertEquals(5, e.location().line(), e.describe());
  }

  @Test
  void aMissingFieldNamesTheActorsLine() {
    InputException e = assertThrows(InputException.class, () -> ProfileFileReader.parse(FILE,
        GOOD.replace("\"measured\": \"WRITE_ONLY\", ", "")));
    assertEquals(8, e.location().line(), e.describe());
    assertTrue(e.getMessage().contains("a port of g/A lacks"), e.getMessage());
  }

  @Test
  void anEmptyEntryIsAnError() {
    InputException e = assertThrows(InputException.class, () -> ProfileFileReader.parse(FILE,
        "{\"cacheflowProfile\": 1, \"graph\": \"g\",\n \"actors\": [,]}"));
    assertEquals(2, e.location().line(), e.describe());
  }

  @Test
  void anotherVersionIsRefused() {
    InputException e = assertThrows(InputException.class, () -> ProfileFileReader.parse(FILE,
        GOOD.replace("\"cacheflowProfile\": 1", "\"cacheflowProfile\": 7")));
    assertTrue(e.getMessage().contains("not a profile of version 1"), e.getMessage());
  }
}
