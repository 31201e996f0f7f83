package org.cacheflow.plan.strategy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.cacheflow.model.diagnostics.InputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Built-in targets and target files, with errors located at the offending value. */
class TargetCacheTest {

  @TempDir
  Path dir;

  private Path file(String name, String text) throws IOException {
    Path file = dir.resolve(name);
    Files.writeString(file, text);
    return file;
  }

  @Test
  void builtInProfiles() {
    assertSame(TargetCache.ZEN4_VM, TargetCache.resolve("zen4-vm"));
    assertEquals(32 << 10, TargetCache.ZEN4_VM.l1dBytes());
    assertEquals(1 << 20, TargetCache.ZEN4_VM.l2Bytes());
    assertEquals(32 << 20, TargetCache.ZEN4_VM.llcBytes());
    assertEquals(2, TargetCache.ZEN4_VM.cores());
    assertEquals(256 << 10, TargetCache.resolve("generic").l2Bytes());
    assertEquals("zen4-vm: L1D 32 KiB, L2 1 MiB, LLC 32 MiB, 64 B lines, 4 KiB pages", TargetCache.ZEN4_VM.describe());
  }

  @Test
  void keyValueFile() throws IOException {
    TargetCache target = TargetCache.resolve(file("board.target", """
        # a small board
        base = zen4-vm
        name = board
        l2 = 512K     # private
        llc = 2.5 MiB
        cores = 8
        prestore.max = 16K
        transfer.ns = 2.5
        transfer.spanning.ns = 0.8
        """).toString());
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
    TargetCache target = TargetCache.read(file("t.json", "{\n  \"name\": \"j\",\n  \"l2\": 2097152,\n  \"llc\": \"64M\"\n}\n"));
    assertEquals("j", target.name());
    assertEquals(2 << 20, target.l2Bytes());
    assertEquals(64 << 20, target.llcBytes());
    assertEquals(TargetCache.GENERIC.l1dBytes(), target.l1dBytes(), "unset keys come from generic");
  }

  @Test
  void jsonFileValuesAreLocated() throws IOException {
    TargetCache bare = TargetCache.read(file("bare.json", "{\"l1d\": 48K, \"name\": \"b\\u0021\"}"));
    assertEquals(48 << 10, bare.l1dBytes(), "a bare size, as in key = value lines");
    assertEquals("b!", bare.name());
    InputException value = assertThrows(InputException.class,
        () -> TargetCache.read(file("v.json", "{\n  \"l2\": 1,\n  \"llc\":   \"lots\"\n}")));
    assertEquals(3, value.location().line());
    assertEquals(12, value.location().column(), "at the value's opening quote");
    assertTrue(value.getMessage().contains("'llc' expects a size"), value.getMessage());
    InputException twice = assertThrows(InputException.class,
        () -> TargetCache.read(file("t.json", "{\"l2\": 1,\n \"l2\": 2}")));
    assertEquals(2, twice.location().line());
    assertEquals(2, twice.location().column());
    InputException after = assertThrows(InputException.class,
        () -> TargetCache.read(file("a.json", "{\"l2\": 1}\n\n x")));
    assertEquals("unexpected text after the target object", after.getMessage());
    assertEquals(3, after.location().line());
  }

  @Test
  void errorsNameFileLineAndColumn() throws IOException {
    Path bad = file("bad.target", "l1d = 32K\nl2 = lots\n");
    InputException value = assertThrows(InputException.class, () -> TargetCache.read(bad));
    assertEquals(2, value.location().line());
    assertEquals(6, value.location().column());
    assertTrue(value.getMessage().contains("'l2' expects a size such as 4096, 32K or 1MiB, got 'lots'"),
        value.getMessage());
    InputException key = assertThrows(InputException.class, () -> TargetCache.read(file("k.target", "l3 = 1M\n")));
    assertTrue(key.getMessage().startsWith("unknown key 'l3'"), key.getMessage());
    InputException twice = assertThrows(InputException.class,
        () -> TargetCache.read(file("twice.target", "l2 = 1M\nl2 = 2M\n")));
    assertEquals(2, twice.location().line());
    InputException zero = assertThrows(InputException.class, () -> TargetCache.read(file("z.target", "cores = 0\n")));
    assertTrue(zero.getMessage().contains("'cores' must be positive"), zero.getMessage());
    InputException json = assertThrows(InputException.class,
        () -> TargetCache.read(file("j.json", "{\n  \"l2\": \"1M\"\n  \"llc\": 4\n}")));
    assertEquals(3, json.location().line());
    assertTrue(json.getMessage().contains("expected ',' or '}'"), json.getMessage());
    InputException missing = assertThrows(InputException.class, () -> TargetCache.resolve("no-such-profile"));
    assertTrue(missing.getMessage().contains("built-in: zen4-vm, generic, sapphire-rapids-vm"), missing.getMessage());
  }
}
