package org.cacheflow.io.xml;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.xml.stream.Location;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * Reads an XML file into {@link XmlElement}s that carry their line and column. Uses StAX with external
 * entities and DTDs disabled (inputs are untrusted project files). Malformed XML becomes an
 * {@link InputException} at the parser's position, e.g. for a truncated file.
 */
public final class LocatedXmlReader {

  private LocatedXmlReader() {
  }

  public static XmlElement read(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      return read(in, file);
    } catch (NoSuchFileException e) {
      throw new InputException(SourceLocation.file(file), "file not found");
    } catch (IOException e) {
      throw new InputException(SourceLocation.file(file), "cannot read file: " + e.getMessage());
    }
  }

  public static XmlElement read(InputStream in, Path file) {
    byte[] bytes;
    try {
      bytes = in.readAllBytes();
    } catch (IOException e) {
      throw new InputException(SourceLocation.file(file), "cannot read file: " + e.getMessage());
    }
    checkUtf8(bytes, file);
    return parse(new ByteArrayInputStream(bytes), file);
  }

  /** An XML declaration naming its encoding, as the first thing in a file. */
  private static final Pattern DECLARED_ENCODING =
      Pattern.compile("^<\\?xml[^>]*?\\sencoding\\s*=\\s*[\"']([A-Za-z0-9._-]+)[\"']");

  /**
   * A file in UTF-8 (the XML default, or declared) must be valid UTF-8: the JDK's parser would also reject it,
   * but print {@code [Fatal Error] :-1:-1: Invalid byte ...} on standard error besides. The error is at the
   * first byte that is not UTF-8. Files declaring another encoding, or starting with a UTF-16 byte order mark,
   * are left to the parser.
   */
  private static void checkUtf8(byte[] bytes, Path file) {
    if (bytes.length >= 2 && ((bytes[0] == (byte) 0xFE && bytes[1] == (byte) 0xFF)
        || (bytes[0] == (byte) 0xFF && bytes[1] == (byte) 0xFE))) {
      return;
    }
    String prolog = new String(bytes, 0, Math.min(bytes.length, 200), StandardCharsets.ISO_8859_1);
    int start = prolog.startsWith("\u00EF\u00BB\u00BF") ? 3 : 0; // a UTF-8 byte order mark
    Matcher declared = DECLARED_ENCODING.matcher(prolog.substring(start));
    if (declared.find() && !declared.group(1).replace("-", "").equalsIgnoreCase("UTF8")) {
      return;
    }
    CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer input = ByteBuffer.wrap(bytes);
    CharBuffer output = CharBuffer.allocate(bytes.length);
    CoderResult result = decoder.decode(input, output, true);
    if (!result.isError()) {
      return;
    }
    int bad = input.position();
    int line = 1;
    int lineStart = 0;
    for (int i = 0; i < bad; i++) {
      if (bytes[i] == '\n') {
        line++;
        lineStart = i + 1;
      }
    }
    int column = new String(bytes, lineStart, bad - lineStart, StandardCharsets.UTF_8).length() + 1;
    throw new InputException(SourceLocation.of(file, line, column), String.format(
        "malformed XML: byte 0x%02X is not UTF-8 (the file's encoding, as it declares no other)", bytes[bad] & 0xFF));
  }

  private static XmlElement parse(InputStream in, Path file) {
    XMLInputFactory factory = XMLInputFactory.newFactory();
    factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    factory.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
    XMLStreamReader reader = null;
    try {
      reader = factory.createXMLStreamReader(in);
      Deque<XmlElement> open = new ArrayDeque<>();
      XmlElement root = null;
      while (reader.hasNext()) {
        int event = reader.next();
        switch (event) {
          case XMLStreamConstants.START_ELEMENT -> {
            Location at = reader.getLocation();
            XmlElement element = new XmlElement(reader.getLocalName(),
                SourceLocation.of(file, at.getLineNumber(), at.getColumnNumber()));
            for (int i = 0; i < reader.getAttributeCount(); i++) {
              element.putAttribute(reader.getAttributeLocalName(i), reader.getAttributeValue(i));
            }
            if (open.isEmpty()) {
              root = element;
            } else {
              open.peek().addChild(element);
            }
            open.push(element);
          }
          case XMLStreamConstants.END_ELEMENT -> open.pop();
          case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA -> {
            if (!open.isEmpty()) {
              open.peek().appendText(reader.getText());
            }
          }
          default -> {
            // comments, processing instructions and whitespace outside elements carry nothing we use
          }
        }
      }
      if (root == null) {
        throw new InputException(SourceLocation.file(file), "no XML element found (empty file?)");
      }
      return root;
    } catch (XMLStreamException e) {
      Location at = e.getLocation();
      String message = e.getMessage();
      // StAX prefixes "ParseError at [row,col]:[l,c]\nMessage: "; keep only the message.
      int cut = message == null ? -1 : message.indexOf("Message: ");
      if (cut >= 0) {
        message = message.substring(cut + "Message: ".length());
      }
      SourceLocation where = at == null ? SourceLocation.file(file)
          : SourceLocation.of(file, at.getLineNumber(), at.getColumnNumber());
      throw new InputException(where, "malformed XML: " + message);
    } finally {
      if (reader != null) {
        try {
          reader.close();
        } catch (XMLStreamException e) {
          // nothing left to release that matters
        }
      }
    }
  }
}
