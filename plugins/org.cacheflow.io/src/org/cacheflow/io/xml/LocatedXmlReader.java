package org.cacheflow.io.xml;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
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
    return parse(new StringReader(decode(bytes, file)), file);
  }

  /** The XML declaration's encoding, when the file starts with one. */
  private static final Pattern DECLARED_ENCODING =
      Pattern.compile("^<\\?xml\\s[^>]*?\\bencoding\\s*=\\s*[\"']([A-Za-z0-9][A-Za-z0-9._:+-]*)[\"']");

  /**
   * The file's text, decoded here rather than by the JDK's parser, which prints {@code [Fatal Error] :-1:-1:
   * Invalid byte ...} on standard error for bytes not in the file's encoding besides throwing. The encoding is the
   * byte order mark's, else the XML declaration's, else UTF-8 (as XML says); bytes not in it are an error at the
   * first of them.
   */
  private static String decode(byte[] bytes, Path file) {
    Charset charset = StandardCharsets.UTF_8;
    int skip = 0;
    String how = "the file's encoding, as it declares no other";
    if (startsWith(bytes, 0xEF, 0xBB, 0xBF)) {
      skip = 3;
      how = "the encoding its byte order mark says";
    } else if (startsWith(bytes, 0xFE, 0xFF) || startsWith(bytes, 0x00, 0x3C, 0x00, 0x3F)) {
      charset = StandardCharsets.UTF_16BE;
      skip = bytes[0] == 0 ? 0 : 2;
      how = "the encoding its first bytes say";
    } else if (startsWith(bytes, 0xFF, 0xFE) || startsWith(bytes, 0x3C, 0x00, 0x3F, 0x00)) {
      charset = StandardCharsets.UTF_16LE;
      skip = bytes[0] == 0x3C ? 0 : 2;
      how = "the encoding its first bytes say";
    } else {
      String prolog = new String(bytes, 0, Math.min(bytes.length, 200), StandardCharsets.ISO_8859_1);
      Matcher declared = DECLARED_ENCODING.matcher(prolog);
      if (declared.find()) {
        String name = declared.group(1);
        if (!Charset.isSupported(name)) {
          throw new InputException(SourceLocation.of(file, 1, declared.start(1) + 1),
              "unknown encoding '" + name + "'");
        }
        charset = Charset.forName(name);
        how = "the encoding the file declares";
      }
    }
    CharsetDecoder decoder = charset.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer input = ByteBuffer.wrap(bytes, skip, bytes.length - skip);
    CharBuffer output = CharBuffer.allocate(Math.max(1, (int) (bytes.length * (double) decoder.maxCharsPerByte())));
    CoderResult result = decoder.decode(input, output, true);
    if (!result.isError()) {
      result = decoder.flush(output);
    }
    if (result.isError()) {
      int line = 1;
      int column = 1;
      for (int i = 0; i < output.position(); i++) {
        boolean newLine = output.get(i) == '\n';
        line += newLine ? 1 : 0;
        column = newLine ? 1 : column + 1;
      }
      throw new InputException(SourceLocation.of(file, line, column), String.format(
          "malformed XML: byte 0x%02X is not %s (%s)", bytes[input.position()] & 0xFF, charset.name(), how));
    }
    output.flip();
    return output.toString();
  }

  private static boolean startsWith(byte[] bytes, int... prefix) {
    if (bytes.length < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if ((bytes[i] & 0xFF) != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  private static XmlElement parse(Reader in, Path file) {
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
