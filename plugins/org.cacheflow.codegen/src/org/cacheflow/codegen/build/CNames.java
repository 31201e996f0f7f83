package org.cacheflow.codegen.build;

/** Turning names from graphs into C identifiers (comment text is the printers' job: CTemplate). */
public final class CNames {

  private CNames() {
  }

  /** Letters, digits and underscores only, not starting with a digit; never empty. */
  public static String identifier(String name) {
    StringBuilder id = new StringBuilder(name.length());
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      id.append((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ? c : '_');
    }
    if (id.length() == 0 || Character.isDigit(id.charAt(0))) {
      id.insert(0, '_');
    }
    return id.toString();
  }
}
