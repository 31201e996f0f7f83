package org.cacheflow.bench.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The benchmarks' shared command line: values, defaults and the errors of bad use. */
class BenchOptionsTest {

  private static final List<String> FLAGS = List.of("--quick");
  private static final List<String> VALUED = List.of("--runs", "--csv", "--corpus");

  private static BenchOptions parse(String... args) {
    return BenchOptions.parse(args, FLAGS, VALUED);
  }

  @Test
  void givenValuesAndFlagsAreRead() {
    BenchOptions options = parse("--runs", "7", "--quick", "--csv", "out/rows.csv", "--corpus", "corpus");
    assertTrue(options.flag("--quick"));
    assertEquals(7, options.positive("--runs", 5));
    assertEquals(Path.of("out/rows.csv"), options.path("--csv"));
    assertEquals("corpus", options.value("--corpus", "elsewhere"));
    assertFalse(options.help());
  }

  @Test
  void absentOptionsFallBack() {
    BenchOptions options = parse();
    assertFalse(options.flag("--quick"));
    assertEquals(5, options.positive("--runs", 5));
    assertNull(options.path("--csv"));
    assertEquals("elsewhere", options.value("--corpus", "elsewhere"));
  }

  @Test
  void theLastOfARepeatedOptionWins() {
    assertEquals(4, parse("--runs", "2", "--runs", "4").positive("--runs", 1));
  }

  @Test
  void helpAnywhereIsHelpEvenAfterAnUnknownArgument() {
    assertTrue(parse("--bogus", "-h").help());
    assertTrue(parse("--runs", "3", "--help").help());
  }

  @Test
  void badUseSaysWhatIsWrong() {
    assertEquals("unknown argument '--run' (try --help)",
        assertThrows(BenchOptions.UsageError.class, () -> parse("--run", "3")).getMessage());
    assertEquals("--csv needs a value",
        assertThrows(BenchOptions.UsageError.class, () -> parse("--quick", "--csv")).getMessage());
    assertEquals("unknown argument '5' (try --help)",
        assertThrows(BenchOptions.UsageError.class, () -> parse("--quick", "5")).getMessage());
  }

  @Test
  void countsMustBeWholeNumbersOfAtLeastOne() {
    for (String bad : new String[] {"0", "-2", "three", "2.5", ""}) {
      BenchOptions options = parse("--runs", bad);
      BenchOptions.UsageError error = assertThrows(BenchOptions.UsageError.class, () -> options.positive("--runs", 5),
          bad);
      assertEquals("--runs takes a whole number of at least 1, not '" + bad + "'", error.getMessage());
    }
  }

  @Test
  void csvIsWrittenIntoANewFolderAndAnnounced(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("results/bench.csv");
    ByteArrayOutputStream said = new ByteArrayOutputStream();
    BenchOptions.writeCsv(file, "a,b\n1,2\n", new PrintStream(said, true, StandardCharsets.UTF_8));
    assertEquals("a,b\n1,2\n", Files.readString(file));
    assertEquals("CSV written to " + file + System.lineSeparator(), said.toString(StandardCharsets.UTF_8));
  }
}
