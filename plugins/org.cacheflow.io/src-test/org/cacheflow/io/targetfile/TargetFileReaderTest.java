package org.cacheflow.io.targetfile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The target file's syntax: key = value lines or one flat JSON object, each value located; errors at file:line:col. */
class TargetFileReaderTest {

  @TempDir
  Path temp;

  private Path write(String name, String text) throws IOException {
    Path file = temp.resolve(name);
    Files.writeString(file, text, StandardCharsets.UTF_8);
    return file;
  }

  private static Map<String, String> values(TargetFile target) {
    Map<String, String> values = new LinkedHashMap<>();
    target.settings().forEach((key, setting) -> values.put(key, setting.value()));
    return values;
  }

  private static InputException error(Path file) {
    return assertThrows(InputException.class, () -> TargetFileReader.read(file));
  }

  /** Reading a file {@code name} of {@code text} fails with {@code message} at {@code line}:{@code column}. */
  private void assertError(String name, String text, String message, int line, int column) throws IOException {
    Path file = write(name, text);
    InputException error = error(file);
    assertEquals(message, error.getMessage());
    assertEquals(SourceLocation.of(file, line, column), error.location());
  }

  @Test
  void keyValueLinesInFileOrderWithTheirValuesLocated() throws IOException {
    Path file = write("board.target", """
        # a small board
        base = zen4-vm

          l2=512K     # private
        llc =   2.5 MiB
        name = cœur
        anything = goes # keys are the planner's business
        """);
    TargetFile target = TargetFileReader.read(file);
    assertEquals(file, target.file());
    assertEquals(List.of("base", "l2", "llc", "name", "anything"), List.copyOf(target.settings().keySet()));
    assertEquals(Map.of("base", "zen4-vm", "l2", "512K", "llc", "2.5 MiB", "name", "cœur", "anything", "goes"),
        values(target));
    assertEquals(SourceLocation.of(file, 2, 8), target.settings().get("base").location());
    assertEquals(SourceLocation.of(file, 4, 6), target.settings().get("l2").location(), "right after '='");
    assertEquals(SourceLocation.of(file, 5, 9), target.settings().get("llc").location(), "after the blanks");
  }

  @Test
  void commentsBlankLinesAndCarriageReturnsAreNotSettings() throws IOException {
    TargetFile target = TargetFileReader.read(write("crlf.target", "# only = a comment\r\n\r\nl2 = 1M\r\n   \n"));
    assertEquals(Map.of("l2", "1M"), values(target));
    assertEquals(3, target.settings().get("l2").location().line());
    assertEquals(Map.of(), values(TargetFileReader.read(write("empty.target", ""))));
  }

  @Test
  void theSettingsCannotBeChanged() throws IOException {
    TargetFile target = TargetFileReader.read(write("t.target", "l2 = 1M\n"));
    assertThrows(UnsupportedOperationException.class, () -> target.settings().put("l1d", target.settings().get("l2")));
  }

  @Test
  void aLineWithoutEqualsIsAnErrorAtItsFirstCharacter() throws IOException {
    assertError("bad.target", "l1d = 32K\n   l2 1M   # no '='\n", "expected 'key = value', got 'l2 1M'", 2, 4);
  }

  @Test
  void aKeySetTwiceIsAnErrorNamingTheFirst() throws IOException {
    assertError("twice.target", "l2 = 1M\n# again\n l2 = 2M\n",
        "'l2' is set twice (first at " + temp.resolve("twice.target") + ":1:6)", 3, 2);
  }

  @Test
  void jsonObjectInFileOrderWithQuotedValuesAtTheirOpeningQuote() throws IOException {
    Path file = write("t.json", "{\n  \"name\": \"b\\u0021\",\n  \"l2\": 2097152,\n  \"l1d\": 48K,\n"
        + "  \"llc\":   \"64M\",\n  \"x\": true, \"y\": null\n}\n");
    TargetFile target = TargetFileReader.read(file);
    assertEquals(List.of("name", "l2", "l1d", "llc", "x", "y"), List.copyOf(target.settings().keySet()));
    assertEquals(Map.of("name", "b!", "l2", "2097152", "l1d", "48K", "llc", "64M", "x", "true", "y", "null"),
        values(target), "a bare size as in key = value lines; booleans and null as text");
    assertEquals(SourceLocation.of(file, 2, 11), target.settings().get("name").location());
    // a number, and a bare size: at their first character (gson's reader is past a number by then)
    assertEquals(SourceLocation.of(file, 3, 9), target.settings().get("l2").location());
    assertEquals(SourceLocation.of(file, 4, 10), target.settings().get("l1d").location());
    assertEquals(SourceLocation.of(file, 5, 12), target.settings().get("llc").location());
  }

  @Test
  void jsonKeySetTwiceIsAnErrorAtTheSecondKey() throws IOException {
    assertError("t.json", "{\"l2\": 1,\n \"l2\": 2}", "'l2' is set twice", 2, 2);
  }

  @Test
  void jsonSyntaxErrorsAreLocated() throws IOException {
    assertError("comma.json", "{\n  \"l2\": \"1M\"\n  \"llc\": 4\n}", "expected ',' or '}' in the target object", 3,
        3);
    // at the '{' (gson has read past it)
    assertError("nested.json", "{\"l2\": 1,\n  \"llc\": {\"size\": 4}}", "expected a string or a number for 'llc'", 2,
        10);
    assertError("unclosed.json", "{\"l2\": 1,\n", "expected ',' or '}' in the target object", 2, 1);
    // where the ':' should be (gson stopped past the 1)
    assertError("colon.json", "{\"l2\" 1}", "expected a value", 1, 7);
    // a lenient '=' and blanks before the value; the value on the next line
    Path spaced = write("spaced.json", "{\"l2\" =   \"1M\", 'llc':\n    4}");
    assertEquals(SourceLocation.of(spaced, 1, 11), TargetFileReader.read(spaced).settings().get("l2").location());
    assertEquals(SourceLocation.of(spaced, 2, 5), TargetFileReader.read(spaced).settings().get("llc").location());
  }

  @Test
  void jsonTrailingTextIsAnError() throws IOException {
    assertError("a.json", "{\"l2\": 1}\n\n x", "unexpected text after the target object", 3, 2);
  }

  @Test
  void aMissingOrUnreadableFileIsAnErrorAtTheFile() throws IOException {
    Path missing = temp.resolve("missing.target");
    InputException absent = error(missing);
    assertEquals(SourceLocation.file(missing), absent.location());
    assertTrue(absent.getMessage().startsWith("cannot read target file: "), absent.getMessage());
    assertTrue(absent.getMessage().contains("missing.target"), absent.getMessage());
    Path directory = Files.createDirectory(temp.resolve("dir.target"));
    InputException unreadable = error(directory);
    assertEquals(SourceLocation.file(directory), unreadable.location());
    assertTrue(unreadable.getMessage().startsWith("cannot read target file: "), unreadable.getMessage());
  }
}
