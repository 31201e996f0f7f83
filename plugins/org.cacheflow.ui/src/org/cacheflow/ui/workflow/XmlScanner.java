package org.cacheflow.ui.workflow;

import java.util.ArrayList;
import java.util.List;

/**
 * A lossless XML scanner: it records where every element and attribute value sits in the text instead of
 * building a DOM, so an editor can change one attribute value and leave every other character of the file
 * (comments, formatting, attributes and elements it does not know) exactly as it was. It checks
 * well-formedness as far as an editor needs: tags nest, attributes are quoted, comments and sections end.
 */
public final class XmlScanner {

  /** An attribute; {@link #valueStart}..{@link #valueEnd} is the raw text between the quotes. */
  public record Attribute(String name, int valueStart, int valueEnd, String value) {
  }

  /** An element with the offsets of its tags. */
  public static final class Element {
    private final String name;
    private final int start;
    private final int line;
    private final int column;
    private final List<Attribute> attributes = new ArrayList<>();
    private final List<Element> children = new ArrayList<>();
    private int startTagEnd;
    private boolean selfClosing;
    private int endTagStart;
    private int end;

    Element(String name, int start, int line, int column) {
      this.name = name;
      this.start = start;
      this.line = line;
      this.column = column;
    }

    /** The qualified name as written, e.g. {@code dftools:task}. */
    public String name() {
      return name;
    }

    /** The name without its namespace prefix. */
    public String localName() {
      int colon = name.indexOf(':');
      return colon < 0 ? name : name.substring(colon + 1);
    }

    /** The prefix with its colon ({@code dftools:}), or empty. */
    public String prefix() {
      int colon = name.indexOf(':');
      return colon < 0 ? "" : name.substring(0, colon + 1);
    }

    /** Offset of the {@code <} that opens the start tag. */
    public int start() {
      return start;
    }

    /** 1-based line of the start tag. */
    public int line() {
      return line;
    }

    /** 1-based column of the start tag. */
    public int column() {
      return column;
    }

    /** Offset just after the {@code >} of the start tag. */
    public int startTagEnd() {
      return startTagEnd;
    }

    /** Whether the element is written {@code <x/>}. */
    public boolean selfClosing() {
      return selfClosing;
    }

    /** Offset of the {@code </} of the end tag; for a self-closing element, its start. */
    public int endTagStart() {
      return endTagStart;
    }

    /** Offset just after the element. */
    public int end() {
      return end;
    }

    public List<Attribute> attributes() {
      return attributes;
    }

    public List<Element> children() {
      return children;
    }

    /** The attribute named {@code name}, or null. */
    public Attribute attribute(String attributeName) {
      for (Attribute attribute : attributes) {
        if (attribute.name().equals(attributeName)) {
          return attribute;
        }
      }
      return null;
    }

    /** The value of attribute {@code name}, or null. */
    public String attributeValue(String attributeName) {
      Attribute attribute = attribute(attributeName);
      return attribute == null ? null : attribute.value();
    }

    /** The child elements with that local name, in document order. */
    public List<Element> children(String localName) {
      return children.stream().filter(child -> child.localName().equals(localName)).toList();
    }
  }

  /** The text is not well-formed XML. */
  public static final class SyntaxException extends Exception {
    private static final long serialVersionUID = 1L;
    private final int line;
    private final int column;

    SyntaxException(int line, int column, String message) {
      super(message);
      this.line = line;
      this.column = column;
    }

    public int line() {
      return line;
    }

    public int column() {
      return column;
    }

    @Override
    public String toString() {
      return line + ":" + column + ": " + getMessage();
    }
  }

  private final String text;
  private int position;
  private int countedTo;
  private int countedLine = 1;
  private int countedLineStart;

  private XmlScanner(String text) {
    this.text = text;
  }

  /** The root element of {@code text}. */
  public static Element scan(String text) throws SyntaxException {
    return new XmlScanner(text).document();
  }

  private Element document() throws SyntaxException {
    Element root = null;
    List<Element> open = new ArrayList<>();
    while (position < text.length()) {
      int lt = text.indexOf('<', position);
      if (lt < 0) {
        checkNoText(position, text.length(), open);
        position = text.length();
        break;
      }
      checkNoText(position, lt, open);
      position = lt;
      if (text.startsWith("<!--", position)) {
        skipPast("-->", "comment");
      } else if (text.startsWith("<![CDATA[", position)) {
        if (open.isEmpty()) {
          throw error(position, "character data outside the root element");
        }
        skipPast("]]>", "CDATA section");
      } else if (text.startsWith("<?", position)) {
        skipPast("?>", "processing instruction");
      } else if (text.startsWith("<!", position)) {
        skipDeclaration();
      } else if (text.startsWith("</", position)) {
        int tagStart = position;
        position += 2;
        String name = name();
        skipSpace();
        expect('>');
        if (open.isEmpty()) {
          throw error(tagStart, "end tag </" + name + "> without a start tag");
        }
        Element element = open.remove(open.size() - 1);
        if (!element.name.equals(name)) {
          throw error(tagStart, "end tag </" + name + "> does not match <" + element.name + "> of line "
              + element.line);
        }
        element.endTagStart = tagStart;
        element.end = position;
      } else {
        if (open.isEmpty() && root != null) {
          throw error(position, "a second root element");
        }
        Element element = startTag();
        if (open.isEmpty()) {
          root = element;
        } else {
          open.get(open.size() - 1).children.add(element);
        }
        if (!element.selfClosing) {
          open.add(element);
        }
      }
    }
    if (!open.isEmpty()) {
      Element unclosed = open.get(open.size() - 1);
      throw error(unclosed.start, "<" + unclosed.name + "> is never closed");
    }
    if (root == null) {
      throw error(text.length(), "no root element");
    }
    return root;
  }

  private Element startTag() throws SyntaxException {
    int tagStart = position;
    position++;
    int[] lineColumn = lineColumn(tagStart);
    Element element = new Element(name(), tagStart, lineColumn[0], lineColumn[1]);
    while (true) {
      boolean spaced = skipSpace();
      if (position >= text.length()) {
        throw error(tagStart, "the tag <" + element.name + " is never closed");
      }
      char c = text.charAt(position);
      if (c == '>') {
        position++;
        element.startTagEnd = position;
        return element;
      }
      if (c == '/') {
        position++;
        expect('>');
        element.startTagEnd = position;
        element.selfClosing = true;
        element.endTagStart = tagStart;
        element.end = position;
        return element;
      }
      if (!spaced) {
        throw error(position, "expected white space, '>' or '/>' in <" + element.name + ">");
      }
      int nameStart = position;
      String attributeName = name();
      skipSpace();
      expect('=');
      skipSpace();
      if (position >= text.length() || (text.charAt(position) != '"' && text.charAt(position) != '\'')) {
        throw error(position, "the value of attribute '" + attributeName + "' must be quoted");
      }
      char quote = text.charAt(position);
      int valueStart = position + 1;
      int valueEnd = text.indexOf(quote, valueStart);
      if (valueEnd < 0) {
        throw error(position, "the value of attribute '" + attributeName + "' is never closed");
      }
      String raw = text.substring(valueStart, valueEnd);
      if (raw.indexOf('<') >= 0) {
        throw error(valueStart + raw.indexOf('<'), "'<' in the value of attribute '" + attributeName + "'");
      }
      if (element.attribute(attributeName) != null) {
        throw error(nameStart, "attribute '" + attributeName + "' is given twice");
      }
      element.attributes.add(new Attribute(attributeName, valueStart, valueEnd, unescape(raw, valueStart)));
      position = valueEnd + 1;
    }
  }

  private String name() throws SyntaxException {
    int start = position;
    while (position < text.length()) {
      char c = text.charAt(position);
      if (Character.isLetterOrDigit(c) || c == ':' || c == '_' || c == '-' || c == '.') {
        position++;
      } else {
        break;
      }
    }
    if (start == position) {
      throw error(start, "expected a name");
    }
    return text.substring(start, position);
  }

  private boolean skipSpace() {
    int start = position;
    while (position < text.length() && Character.isWhitespace(text.charAt(position))) {
      position++;
    }
    return position > start;
  }

  private void expect(char c) throws SyntaxException {
    if (position >= text.length() || text.charAt(position) != c) {
      throw error(position, "expected '" + c + "'");
    }
    position++;
  }

  private void skipPast(String terminator, String what) throws SyntaxException {
    int end = text.indexOf(terminator, position + 2);
    if (end < 0) {
      throw error(position, "the " + what + " is never closed");
    }
    position = end + terminator.length();
  }

  /** {@code <!DOCTYPE ...>}, possibly with an internal subset in brackets. */
  private void skipDeclaration() throws SyntaxException {
    int start = position;
    int depth = 0;
    for (int i = position + 2; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '[') {
        depth++;
      } else if (c == ']') {
        depth--;
      } else if (c == '>' && depth <= 0) {
        position = i + 1;
        return;
      }
    }
    throw error(start, "the declaration is never closed");
  }

  /** Only white space may stand outside the root element. */
  private void checkNoText(int from, int to, List<Element> open) throws SyntaxException {
    if (!open.isEmpty()) {
      return;
    }
    for (int i = from; i < to; i++) {
      if (!Character.isWhitespace(text.charAt(i)) && text.charAt(i) != '\uFEFF') {
        throw error(i, "text outside the root element");
      }
    }
  }

  private String unescape(String raw, int offset) throws SyntaxException {
    if (raw.indexOf('&') < 0) {
      return raw;
    }
    StringBuilder value = new StringBuilder();
    int i = 0;
    while (i < raw.length()) {
      char c = raw.charAt(i);
      if (c != '&') {
        value.append(c);
        i++;
        continue;
      }
      int semicolon = raw.indexOf(';', i);
      if (semicolon < 0) {
        throw error(offset + i, "'&' starts no entity (write &amp;)");
      }
      String entity = raw.substring(i + 1, semicolon);
      switch (entity) {
        case "amp" -> value.append('&');
        case "lt" -> value.append('<');
        case "gt" -> value.append('>');
        case "quot" -> value.append('"');
        case "apos" -> value.append('\'');
        default -> {
          try {
            if (entity.startsWith("#x")) {
              value.appendCodePoint(Integer.parseInt(entity.substring(2), 16));
            } else if (entity.startsWith("#")) {
              value.appendCodePoint(Integer.parseInt(entity.substring(1)));
            } else {
              throw error(offset + i, "unknown entity '&" + entity + ";'");
            }
          } catch (IllegalArgumentException e) { // includes NumberFormatException
            throw error(offset + i, "bad character reference '&" + entity + ";'");
          }
        }
      }
      i = semicolon + 1;
    }
    return value.toString();
  }

  /** {@code value} escaped for an attribute quoted with {@code quote}. */
  public static String escapeAttribute(String value, char quote) {
    StringBuilder escaped = new StringBuilder(value.length());
    for (char c : value.toCharArray()) {
      switch (c) {
        case '&' -> escaped.append("&amp;");
        case '<' -> escaped.append("&lt;");
        case '>' -> escaped.append("&gt;");
        case '"' -> escaped.append(quote == '"' ? "&quot;" : "\"");
        case '\'' -> escaped.append(quote == '\'' ? "&apos;" : "'");
        case '\n' -> escaped.append("&#10;");
        case '\r' -> escaped.append("&#13;");
        case '\t' -> escaped.append("&#9;");
        default -> escaped.append(c);
      }
    }
    return escaped.toString();
  }

  private SyntaxException error(int offset, String message) {
    int[] lineColumn = lineColumn(offset);
    return new SyntaxException(lineColumn[0], lineColumn[1], message);
  }

  /** Line and column of {@code offset}; start tags come in document order, so counting resumes where it stopped. */
  private int[] lineColumn(int offset) {
    int limit = Math.min(offset, text.length());
    if (limit < countedTo) {
      countedTo = 0;
      countedLine = 1;
      countedLineStart = 0;
    }
    for (int i = countedTo; i < limit; i++) {
      if (text.charAt(i) == '\n') {
        countedLine++;
        countedLineStart = i + 1;
      }
    }
    countedTo = limit;
    return new int[] {countedLine, offset - countedLineStart + 1};
  }
}
