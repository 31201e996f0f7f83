package org.cacheflow.workflow.descriptor;

/** What kind of value a task parameter takes, so an editor can offer the right control. */
public enum ValueKind {
  /** One of {@link TaskParameter#values()} (a drop-down). */
  CHOICE,
  /** {@code true} or {@code false} (a check box). */
  BOOLEAN,
  /** A positive integer. */
  POSITIVE_INTEGER,
  /** One of {@link TaskParameter#values()} or the path of a file (a drop-down that also takes a file). */
  NAME_OR_FILE,
  /** A list of {@code actor.port=STRATEGY} entries separated by {@code ;} (a table editor). */
  LIST,
  /** A list of entries separated by {@code ;}, each one word or path (a text field). */
  ENTRIES,
  /** A directory, which need not exist yet. */
  DIRECTORY,
  /** A file, which must exist when the task runs. */
  FILE
}
