package org.cacheflow.io.pisdf;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.cacheflow.io.xml.XmlElement;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * The raw text of an XML file, to find where an element starts and where an attribute's value starts.
 * The XML reader knows only where a start tag ends (StAX reports the position after its {@code >}), but
 * an expression error should point into the attribute value, e.g. at the {@code /} of {@code h/n}.
 */
final class SourceText {

  private final Path file;
  private final String text;
  /** Offset of the first character of each line; line n (1-based) starts at lineStarts.get(n - 1). */
  private final List<Integer> lineStarts = new ArrayList<>();

  private SourceText(Path file, String text) {
    this.file = file;
    this.text = text;
    lineStarts.add(0);
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) == '\n') {
        lineStarts.add(i + 1);
      }
    }
  }

  static SourceText read(Path file) {
    try {
      return new SourceText(file, Files.readString(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      // the XML reader has already read this file, so this is rare; locations then fall back to tag ends
      throw new InputException(SourceLocation.file(file), "cannot read file: " + e.getMessage());
    }
  }

  /** Where the element's start tag begins (its '<'); the XML reader's location when it cannot be found. */
  SourceLocation elementStart(XmlElement element) {
    int start = tagStart(element);
    return start < 0 ? element.location() : locate(start);
  }

  /**
   * Where the value of an attribute of the element begins (just after its opening quote); the element's
   * start when the attribute is not found in the raw text.
   */
  SourceLocation attributeValue(XmlElement element, String attribute) {
    int start = tagStart(element);
    if (start < 0) {
      return element.location();
    }
    int end = text.indexOf('>', start);
    if (end < 0) {
      end = text.length();
    }
    Matcher matcher = Pattern.compile("\\s" + Pattern.quote(attribute) + "\\s*=\\s*[\"']")
        .matcher(text.subSequence(start, end));
    return matcher.find() ? locate(start + matcher.end()) : locate(start);
  }

  /** Where the text content of an element begins (after its start tag), for messages about that text. */
  SourceLocation content(XmlElement element) {
    int start = tagStart(element);
    if (start < 0) {
      return element.location();
    }
    int end = text.indexOf('>', start);
    return end < 0 ? locate(start) : locate(end + 1);
  }

  /**
   * The offset of the '<' opening the element's start tag: scanning back from where the tag ends. Attribute
   * values cannot contain a raw '<', so the first one found is the tag's.
   */
  private int tagStart(XmlElement element) {
    SourceLocation end = element.location();
    if (end == null || end.line() <= 0 || end.line() > lineStarts.size()) {
      return -1;
    }
    int offset = Math.min(lineStarts.get(end.line() - 1) + Math.max(end.column() - 1, 0), text.length());
    for (int i = offset - 1; i >= 0; i--) {
      if (text.charAt(i) == '<') {
        return i;
      }
    }
    return -1;
  }

  private SourceLocation locate(int offset) {
    int line = 0;
    int low = 0;
    int high = lineStarts.size() - 1;
    while (low <= high) {
      int middle = (low + high) >>> 1;
      if (lineStarts.get(middle) <= offset) {
        line = middle;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    return SourceLocation.of(file, line + 1, offset - lineStarts.get(line) + 1);
  }
}
