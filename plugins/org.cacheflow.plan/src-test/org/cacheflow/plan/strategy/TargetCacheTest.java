package org.cacheflow.plan.strategy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.cacheflow.io.targetfile.TargetFile;
import org.cacheflow.io.targetfile.TargetFileReader;
import org.cacheflow.io.targetfile.TargetSetting;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Built-in targets, and what a target file's settings mean, with errors located at the offending value. The
 * file's syntax is the reader's ({@code TargetFileReaderTest} in the readers' bundle).
 */
class TargetCacheTest {

  @TempDir
  Path dir;

  /** The target a file of {@code text} describes, read as the pipeline reads it. */
  private TargetCache read(String name, String text) throws IOException {
    Path file = dir.resolve(name);
    Files.writeString(file, text);
    return TargetCache.of(TargetFileReader.read(file));
  }

  private InputException error(String name, String text) {
    return assertThrows(InputException.class, () -> read(name, text));
  }

  /** A target file of one setting per pair {@code key, value}, each at its own line, column 1. */
  private static TargetFile settings(Path file, String... keysAndValues) {
    Map<String, TargetSetting> settings = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      settings.put(keysAndValues[i], new TargetSetting(keysAndValues[i + 1], SourceLocation.of(file, i / 2 + 1, 1)));
    }
    return new TargetFile(file, settings);
  }

  @Test
  void builtInProfiles() {
    assertSame(TargetCache.ZEN4_VM, TargetCache.builtIn("zen4-vm").orElseThrow());
    assertSame(TargetCache.SAPPHIRE_RAPIDS_VM, TargetCache.builtIn("sapphire-rapids-vm").orElseThrow());
    assertEquals(Optional.empty(), TargetCache.builtIn("no-such-profile"));
    assertEquals(Optional.empty(), TargetCache.builtIn("zen4-vm.target"), "a file name is no profile");
    assertEquals(List.of("zen4-vm", "generic", "sapphire-rapids-vm"), List.copyOf(TargetCache.BUILT_IN.keySet()));
    assertEquals(32 << 10, TargetCache.ZEN4_VM.l1dBytes());
    assertEquals(1 << 20, TargetCache.ZEN4_VM.l2Bytes());
    assertEquals(32 << 20, TargetCache.ZEN4_VM.llcBytes());
    assertEquals(2, TargetCache.ZEN4_VM.cores());
    assertEquals(256 << 10, TargetCache.builtIn("generic").orElseThrow().l2Bytes());
    assertEquals("zen4-vm: L1D 32 KiB, L2 1 MiB, LLC 32 MiB, 64 B lines, 4 KiB pages", TargetCache.ZEN4_VM.describe());
  }

  /** The benchmark figures reports quote stay with the measured break-even sizes, and go with them. */
  @Test
  void measuredFiguresBelongToTheMeasuredSizes() {
    assertSame(MeasuredFigures.ZEN4_VM, TargetCache.ZEN4_VM.costs().figures());
    Path file = dir.resolve("t.target");
    assertSame(MeasuredFigures.ZEN4_VM, TargetCache.of(settings(file, "base", "zen4-vm", "l2", "2M")).costs()
        .figures(), "other caches, the same measured sizes");
    for (String key : List.of("cow.readonly.min", "cow.readmostly.min", "ntm.min", "prestore.max")) {
      assertEquals(null, TargetCache.of(settings(file, "base", "zen4-vm", key, "8K")).costs().figures(), key);
    }
  }

  @Test
  void keyValueFile() throws IOException {
    TargetCache target = read("board.target", """
        # a small board
        base = zen4-vm
        name = board
        l2 = 512K     # private
        llc = 2.5 MiB
        cores = 8
        prestore.max = 16K
        transfer.ns = 2.5
        transfer.spanning.ns = 0.8
        """);
    assertEquals("board", target.name());
    assertEquals(32 << 10, target.l1dBytes(), "from the base profile");
    assertEquals(512 << 10, target.l2Bytes());
    assertEquals(5 << 19, target.llcBytes());
    assertEquals(8, target.cores());
    assertEquals(16 << 10, target.costs().prestoreMaxBytes());
    assertEquals(64 << 10, target.costs().cowReadOnlyMinBytes());
    assertEquals(2.5, target.costs().lineNanos());
    assertEquals(MeasuredCosts.LINE_NANOS, TargetCache.ZEN4_VM.costs().lineNanos(), "the measured figure by default");
    assertEquals(0.8, target.costs().spanningLineNanos());
    assertEquals(MeasuredCosts.SPANNING_LINE_NANOS, TargetCache.ZEN4_VM.costs().spanningLineNanos());
  }

  @Test
  void jsonFile() throws IOException {
    TargetCache target = read("t.json", "{\n  \"name\": \"j\",\n  \"l2\": 2097152,\n  \"llc\": \"64M\"\n}\n");
    assertEquals("j", target.name());
    assertEquals(2 << 20, target.l2Bytes());
    assertEquals(64 << 20, target.llcBytes());
    assertEquals(TargetCache.GENERIC.l1dBytes(), target.l1dBytes(), "unset keys come from generic");
    assertEquals(TargetCache.GENERIC.cores(), target.cores());
  }

  @Test
  void jsonValuesAreCheckedAtTheirLocation() throws IOException {
    TargetCache bare = read("bare.json", "{\"l1d\": 48K, \"name\": \"b\\u0021\"}");
    assertEquals(48 << 10, bare.l1dBytes(), "a bare size, as in key = value lines");
    assertEquals("b!", bare.name());
    InputException value = error("v.json", "{\n  \"l2\": 1,\n  \"llc\":   \"lots\"\n}");
    assertEquals(dir.resolve("v.json") + ":3:12", value.location().toString(), "at the value's opening quote");
    assertEquals("'llc' expects a size such as 4096, 32K or 1MiB, got 'lots'", value.getMessage());
  }

  @Test
  void sizesInBytesOrBinaryUnits() {
    Path file = Path.of("sizes.target");
    TargetCache target = TargetCache.of(settings(file, "l1d", "4096", "l2", "32 KiB", "llc", "1.5MiB", "page", "1g",
        "line", "128B", "ntm.min", "0", "handoff.ns", "2k"));
    assertEquals(4096, target.l1dBytes());
    assertEquals(32 << 10, target.l2Bytes());
    assertEquals(3 << 19, target.llcBytes());
    assertEquals(1L << 30, target.pageBytes());
    assertEquals(128, target.lineBytes());
    assertEquals(0, target.costs().ntmMinBytes(), "a break-even may be zero");
    assertEquals(2048, target.costs().handoffNanos());
    InputException overflow = assertThrows(InputException.class,
        () -> TargetCache.of(settings(file, "name", "n", "llc", "99999999999G")));
    assertEquals("'llc' expects a size such as 4096, 32K or 1MiB, got '99999999999G'", overflow.getMessage());
    assertEquals(SourceLocation.of(file, 2, 1), overflow.location());
  }

  @Test
  void theNameIsTheFileNameWithoutItsExtensionUnlessSet() throws IOException {
    assertEquals("my-board", read("my-board.target", "l2 = 1M\n").name());
    TargetCache direct = TargetCache.of(new TargetFile(Path.of("boards", "board.v2.json"), Map.of()));
    assertEquals("board.v2", direct.name());
    assertEquals(new TargetCache("board.v2", TargetCache.GENERIC.l1dBytes(), TargetCache.GENERIC.l2Bytes(),
        TargetCache.GENERIC.llcBytes(), TargetCache.GENERIC.lineBytes(), TargetCache.GENERIC.pageBytes(),
        TargetCache.GENERIC.cores(), TargetCache.GENERIC.costs(), TargetCache.GENERIC.memoryBytes()), direct,
        "no settings: generic");
    assertEquals("set", TargetCache.of(settings(Path.of("file.target"), "name", "set")).name());
  }

  @Test
  void theMemoryIsASizeAndDefaultsToTheBase() throws IOException {
    assertEquals(3L << 40, read("big.target", "memory = 3T\n").memoryBytes());
    assertEquals(512L << 20, read("small.target", "memory = 512 MiB\n").memoryBytes());
    assertEquals(TargetCache.ZEN4_VM.memoryBytes(), read("z.target", "base = zen4-vm\n").memoryBytes());
    assertEquals(24L << 30, TargetCache.ZEN4_VM.memoryBytes(), "this machine type's memory");
    InputException zero = error("zero.target", "memory = 0\n");
    assertEquals("'memory' must be positive, got '0'", zero.getMessage());
    assertEquals(1, zero.location().line());
  }

  @Test
  void theBaseIsABuiltInProfile() throws IOException {
    TargetCache sapphire = read("s.target", "base = sapphire-rapids-vm\ncores = 3\n");
    assertEquals(TargetCache.SAPPHIRE_RAPIDS_VM.llcBytes(), sapphire.llcBytes());
    assertEquals(3, sapphire.cores());
    InputException unknown = error("b.target", "l2 = 1M\nbase = zen5\n");
    assertEquals("no built-in target 'zen5' (built-in: zen4-vm, generic, sapphire-rapids-vm)", unknown.getMessage());
    assertEquals(dir.resolve("b.target") + ":2:8", unknown.location().toString());
  }

  @Test
  void errorsNameFileLineAndColumn() throws IOException {
    InputException value = error("bad.target", "l1d = 32K\nl2 = lots\n");
    assertEquals(dir.resolve("bad.target") + ":2:6", value.location().toString());
    assertEquals("'l2' expects a size such as 4096, 32K or 1MiB, got 'lots'", value.getMessage());
    InputException key = error("k.target", "l2 = 1M\n  l3 = 1M\n");
    assertEquals("unknown key 'l3' (known: base, name, l1d, l2, llc, line, page, cores, cow.readonly.min, "
        + "cow.readmostly.min, ntm.min, prestore.max, handoff.ns, transfer.ns, transfer.spanning.ns, timing.ns, "
        + "memory, measured.on, measured.at, memory.gbs)",
        key.getMessage());
    assertEquals(dir.resolve("k.target") + ":2:8", key.location().toString());
    InputException zero = error("z.target", "cores = 0\n");
    assertEquals("'cores' must be positive, got '0'", zero.getMessage());
    assertEquals(dir.resolve("z.target") + ":1:9", zero.location().toString());
    InputException negative = error("n.target", "ntm.min = -1K\n");
    assertEquals("'ntm.min' must be zero or more, got '-1K'", negative.getMessage());
    InputException many = error("c.target", "cores = 5000\n");
    assertEquals("at most 4096 cores, got 5000", many.getMessage());
    assertEquals(dir.resolve("c.target") + ":1:9", many.location().toString());
    assertEquals(4096, read("c4096.target", "cores = 4096\n").cores());
  }

  @Test
  void costsAreNumbersOfZeroOrMore() throws IOException {
    TargetCache target = read("ns.target", "timing.ns = 0.001\ntransfer.ns = 0\n");
    assertEquals(0.001, target.costs().timeUnitNanos());
    assertEquals(0.0, target.costs().lineNanos());
    for (String bad : List.of("-1", "fast", "NaN", "Infinity")) {
      InputException error = error("bad-ns.target", "l2 = 1M\ntransfer.ns = " + bad + "\n");
      assertEquals("'transfer.ns' expects a number of zero or more, such as 0.4, got '" + bad + "'",
          error.getMessage());
      assertEquals(dir.resolve("bad-ns.target") + ":2:15", error.location().toString(), bad);
    }
  }
}
