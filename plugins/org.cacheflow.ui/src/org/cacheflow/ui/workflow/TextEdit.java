package org.cacheflow.ui.workflow;

/**
 * Replace {@code length} characters at {@code offset} with {@code text}: one change of a workflow's text, as an
 * editor's document applies it (so it is one step to undo).
 */
public record TextEdit(int offset, int length, String text) {

  /** {@code document} with this edit made. */
  public String applyTo(String document) {
    return document.substring(0, offset) + text + document.substring(offset + length);
  }
}
