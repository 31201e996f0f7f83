package org.cacheflow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.cacheflow.cli.Examples.Run;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cacheflow profile} and {@code --profile} as users meet them when something is wrong (the profile itself is
 * tested in the pipeline bundle, ProfileTest): a graph without actor code, a profile that is not one.
 */
class ProfileCommandTest {

  @TempDir
  Path temp;

  @BeforeAll
  static void runtimeFromTheCheckout() {
    Examples.useCheckoutRuntime();
  }

  @Test
  void aGraphWithoutActorCodeCannotBeProfiled() {
    Run run = Examples.run("profile", "../../examples/filter-bank", "--out", temp.resolve("p").toString());
    assertEquals(CalibrateCommand.FAILED, run.status(), run.err());
    assertTrue(run.err().contains("error: a profile runs the actors' own code, and ../../examples/filter-bank has "
        + "none (no Code/src): give the folder of their C sources with --sources"), run.err());
    assertTrue(!Files.exists(temp.resolve("p/profile.json")));
  }

  @Test
  void missingOutIsAUsageError() {
    assertEquals(Main.USAGE, Examples.run("profile", "../../examples/stereo").status());
  }

  @Test
  void aBadProfileIsAnErrorAtItsLine() throws IOException {
    Path bad = temp.resolve("profile.json");
    Files.writeString(bad, "{\n  \"cacheflowProfile\": 1,\n  \"actors\": [,]\n}\n");
    Run run = Examples.run("plan", "../../examples/filter-bank", "--profile", bad.toString());
    assertEquals(Main.BAD_INPUT, run.status(), run.err());
    assertTrue(run.err().contains("error: " + bad + ":3:15: not a profile written by cacheflow profile: malformed "
        + "JSON"), run.err());
    assertTrue(!run.err().contains("Exception") && !run.err().contains("https"), run.err());
  }
}
