package org.cacheflow.io.xml;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;

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
