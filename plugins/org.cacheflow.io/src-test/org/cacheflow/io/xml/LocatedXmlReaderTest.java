package org.cacheflow.io.xml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.junit.jupiter.api.Test;

/** The file's encoding: the byte order mark's, the declared one, or UTF-8; bytes outside it are a located error. */
class LocatedXmlReaderTest {

  private static final Path FILE = Path.of("g.xml");

  private static XmlElement read(byte[] bytes) {
    return LocatedXmlReader.read(new ByteArrayInputStream(bytes), FILE);
  }

  private static byte[] bytes(String text, Charset charset) {
    return text.getBytes(charset);
  }

  @Test
  void theDeclaredEncodingTheByteOrderMarkOrUtf8() {
    String text = "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<a name=\"été\"/>";
    assertEquals("été", read(bytes(text, StandardCharsets.ISO_8859_1)).attribute("name").orElseThrow());
    String plain = "<a name=\"été\"/>";
    assertEquals("été", read(bytes(plain, StandardCharsets.UTF_8)).attribute("name").orElseThrow());
    assertEquals("été", read(bytes("\uFEFF" + plain, StandardCharsets.UTF_16LE)).attribute("name").orElseThrow());
    assertEquals("été", read(bytes("\uFEFF" + plain, StandardCharsets.UTF_8)).attribute("name").orElseThrow());
  }

  @Test
  void bytesOutsideTheEncodingAreAnErrorAtTheFirstWithNothingPrinted() {
    PrintStream standardError = System.err;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    System.setErr(new PrintStream(printed, true, StandardCharsets.UTF_8));
    try {
      InputException notUtf8 = assertThrows(InputException.class,
          () -> read(bytes("<a>\n  <b name=\"été\"/></a>", StandardCharsets.ISO_8859_1)));
      assertEquals(new SourceLocation("g.xml", 2, 12), notUtf8.location());
      assertEquals("malformed XML: byte 0xE9 is not UTF-8 (the file's encoding, as it declares no other)",
          notUtf8.getMessage());
      InputException notAscii = assertThrows(InputException.class, () -> read(bytes(
          "<?xml version=\"1.0\" encoding=\"US-ASCII\"?>\n<a name=\"été\"/>", StandardCharsets.UTF_8)));
      assertEquals(new SourceLocation("g.xml", 2, 10), notAscii.location());
      assertEquals("malformed XML: byte 0xC3 is not US-ASCII (the encoding the file declares)", notAscii.getMessage());
      InputException unknown = assertThrows(InputException.class,
          () -> read(bytes("<?xml version=\"1.0\" encoding=\"UTF-9\"?>\n<a/>", StandardCharsets.UTF_8)));
      assertEquals(new SourceLocation("g.xml", 1, 31), unknown.location());
      assertEquals("unknown encoding 'UTF-9'", unknown.getMessage());
    } finally {
      System.setErr(standardError);
    }
    assertEquals("", printed.toString(StandardCharsets.UTF_8));
  }
}
