package org.cacheflow.ui.workflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.cacheflow.ui.workflow.XmlScanner.Attribute;
import org.cacheflow.ui.workflow.XmlScanner.Element;
import org.cacheflow.ui.workflow.XmlScanner.SyntaxException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class XmlScannerTest {

  private static final String TEXT = """
      <?xml version="1.0"?>
      <!DOCTYPE a [ <!ENTITY x "y"> ]>
      <!-- a <comment> with tags -->
      <p:a xmlns:p="urn:x" one='1' two="a &amp; b &lt;&quot;&#65;&#x42;">
        <p:b k="v"/>
        <![CDATA[ <not-an-element/> ]]>
        <c>text</c>
      </p:a>
      """;

  @Test
  void elementsKnowTheirTagOffsetsAndLines() throws SyntaxException {
    Element root = XmlScanner.scan(TEXT);
    assertEquals("p:a", root.name());
    assertEquals("a", root.localName());
    assertEquals("p:", root.prefix());
    assertEquals(4, root.line());
    assertEquals(TEXT.indexOf("<p:a"), root.start());
    assertEquals(TEXT.indexOf("</p:a>"), root.endTagStart());
    assertEquals(TEXT.indexOf("</p:a>") + "</p:a>".length(), root.end());
    List<Element> children = root.children();
    assertEquals(List.of("p:b", "c"), children.stream().map(Element::name).toList());
    Element b = children.get(0);
    assertTrue(b.selfClosing());
    assertEquals(5, b.line());
    assertEquals(3, b.column());
    assertEquals("<p:b k=\"v\"/>", TEXT.substring(b.start(), b.end()));
    assertEquals("<c>text</c>", TEXT.substring(children.get(1).start(), children.get(1).end()));
  }

  @Test
  void attributeValuesAreUnescapedAndTheirRawSpanIsKept() throws SyntaxException {
    Element root = XmlScanner.scan(TEXT);
    Attribute two = root.attribute("two");
    assertEquals("a & b <\"AB", two.value());
    assertEquals("a &amp; b &lt;&quot;&#65;&#x42;", TEXT.substring(two.valueStart(), two.valueEnd()));
    assertEquals("1", root.attributeValue("one"));
  }

  @Test
  void escapingRoundTrips() throws SyntaxException {
    String value = "x=\"1\" & y<2 > 'z'\ttab";
    for (char quote : new char[] {'"', '\''}) {
      String text = "<a v=" + quote + XmlScanner.escapeAttribute(value, quote) + quote + "/>";
      assertEquals(value, XmlScanner.scan(text).attributeValue("v"), text);
    }
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
      "<a><b></a>|1|7|end tag </a> does not match <b> of line 1",
      "<a>\\n  <b x=1/></a>|2|8|the value of attribute 'x' must be quoted",
      "<a>\\n<!-- open\\n</a>|2|1|the comment is never closed",
      "<a/><b/>|1|5|a second root element",
      "text<a/>|1|1|text outside the root element",
      "<a x='1' x='2'/>|1|10|attribute 'x' is given twice",
      "<a x='&'/>|1|7|'&' starts no entity (write &amp;)",
      "<a x='&nbsp;'/>|1|7|unknown entity '&nbsp;'",
      "<a>\\n\\n<b>|3|1|<b> is never closed",
      "</a>|1|1|end tag </a> without a start tag",
      "<a x='1'y='2'/>|1|9|expected white space, '>' or '/>' in <a>",
      "\"  \"|1|3|no root element"})
  void malformedTextIsReportedAtItsLineAndColumn(String text, int line, int column, String message) {
    SyntaxException error = assertThrows(SyntaxException.class, () -> XmlScanner.scan(text.replace("\\n", "\n")));
    assertEquals(message, error.getMessage());
    assertEquals(line, error.line(), error.toString());
    assertEquals(column, error.column(), error.toString());
  }
}
