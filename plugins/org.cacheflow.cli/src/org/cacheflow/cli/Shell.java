package org.cacheflow.cli;

/** Words of the shell commands cacheflow prints for users to copy. */
final class Shell {

  private Shell() {
  }

  /** {@code word} as one POSIX shell word: as it is when it is plain, else in single quotes. */
  static String quote(String word) {
    if (!word.isEmpty() && word.matches("[A-Za-z0-9_./:=+,@%-]+")) {
      return word;
    }
    return "'" + word.replace("'", "'\\''") + "'";
  }
}
