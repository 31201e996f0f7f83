package org.cacheflow.ui.editor;

import java.util.ArrayList;
import java.util.List;

import org.cacheflow.pipeline.GenerateOptions;
import org.cacheflow.workflow.CodegenTask;

/**
 * The rows of the overrides table, without a display: an {@code Overrides} value split into {@code {name, value}}
 * rows and joined back as it is written. A row is a FIFO override ({@code actor.port=STRATEGY}) or a setting of the
 * whole program ({@code slots=K}, {@code pipelining=on|off}); {@link #kind} says which.
 */
final class OverrideRows {

  /** The kind of a row that sets the whole program. */
  static final String SETTING = "setting";
  /** The kind of a per-FIFO override. */
  static final String FIFO = "FIFO";

  private OverrideRows() {
  }

  /** The rows of a written {@code Overrides} value (null: none), each {@code {name, value}}. */
  static List<String[]> rows(String written) {
    List<String[]> rows = new ArrayList<>();
    for (String entry : CodegenTask.overrideEntries(written)) {
      int equals = entry.lastIndexOf('=');
      rows.add(equals < 0 ? new String[] {entry, ""}
          : new String[] {entry.substring(0, equals).trim(), entry.substring(equals + 1).trim()});
    }
    return rows;
  }

  /** {@link #SETTING} or {@link #FIFO}. */
  static String kind(String[] row) {
    return isSetting(row) ? SETTING : FIFO;
  }

  static boolean isSetting(String[] row) {
    return GenerateOptions.isSettingText(row[0] + "=" + row[1]);
  }

  /** The {@code Overrides} value of {@code rows}, as written to the workflow. */
  static String text(List<String[]> rows) {
    List<String> entries = new ArrayList<>();
    for (String[] row : rows) {
      entries.add(row[0] + "=" + row[1]);
    }
    return String.join("; ", entries);
  }
}
