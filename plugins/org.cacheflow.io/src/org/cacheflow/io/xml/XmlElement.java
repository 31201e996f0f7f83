package org.cacheflow.io.xml;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * An XML element that remembers where it starts, so readers can say {@code FILE:LINE:COL} in every
 * message. A deliberately small tree: local names, attributes, children and text.
 */
public final class XmlElement {

  private final String name;
  private final SourceLocation location;
  private final Map<String, String> attributes = new LinkedHashMap<>();
  private final List<XmlElement> children = new ArrayList<>();
  private final StringBuilder text = new StringBuilder();

  XmlElement(String name, SourceLocation location) {
    this.name = name;
    this.location = location;
  }

  public String name() {
    return name;
  }

  public SourceLocation location() {
    return location;
  }

  public Map<String, String> attributes() {
    return Collections.unmodifiableMap(attributes);
  }

  public Optional<String> attribute(String key) {
    return Optional.ofNullable(attributes.get(key));
  }

  /** The attribute's value, or an error naming this element's location when it is missing or blank. */
  public String requireAttribute(String key) {
    String value = attributes.get(key);
    if (value == null || value.isBlank()) {
      throw error("<" + name + "> has no '" + key + "' attribute");
    }
    return value;
  }

  public List<XmlElement> children() {
    return Collections.unmodifiableList(children);
  }

  public List<XmlElement> children(String childName) {
    List<XmlElement> named = new ArrayList<>();
    for (XmlElement child : children) {
      if (child.name.equals(childName)) {
        named.add(child);
      }
    }
    return named;
  }

  public Optional<XmlElement> child(String childName) {
    for (XmlElement child : children) {
      if (child.name.equals(childName)) {
        return Optional.of(child);
      }
    }
    return Optional.empty();
  }

  /** Text content directly inside this element, trimmed. */
  public String text() {
    return text.toString().trim();
  }

  public InputException error(String message) {
    return new InputException(location, message);
  }

  void putAttribute(String key, String value) {
    attributes.put(key, value);
  }

  void addChild(XmlElement child) {
    children.add(child);
  }

  void appendText(String chars) {
    text.append(chars);
  }

  @Override
  public String toString() {
    return "<" + name + "> at " + location;
  }
}
