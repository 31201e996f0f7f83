package org.cacheflow.cli;

import java.util.ArrayList;
import java.util.List;

/** A plain-text table with columns sized to their widest cell; numbers are right-aligned. */
public final class Table {

  private final String[] header;
  private final List<String[]> rows = new ArrayList<>();

  public Table(String... header) {
    this.header = header;
  }

  public void row(String... cells) {
    if (cells.length != header.length) {
      throw new IllegalArgumentException("expected " + header.length + " cells, got " + cells.length);
    }
    rows.add(cells);
  }

  public String render(String indent) {
    int[] widths = new int[header.length];
    boolean[] numeric = new boolean[header.length];
    for (int c = 0; c < header.length; c++) {
      widths[c] = header[c].length();
      numeric[c] = !rows.isEmpty();
      for (String[] row : rows) {
        widths[c] = Math.max(widths[c], row[c].length());
        numeric[c] &= row[c].matches("-?[0-9][0-9.,]*[x%?]?");
      }
    }
    StringBuilder text = new StringBuilder();
    line(text, indent, header, widths, numeric);
    for (String[] row : rows) {
      line(text, indent, row, widths, numeric);
    }
    return text.toString();
  }

  private static void line(StringBuilder text, String indent, String[] cells, int[] widths, boolean[] numeric) {
    StringBuilder line = new StringBuilder(indent);
    for (int c = 0; c < cells.length; c++) {
      String cell = cells[c];
      String pad = " ".repeat(widths[c] - cell.length());
      line.append(numeric[c] ? pad + cell : cell + pad);
      if (c + 1 < cells.length) {
        line.append("  ");
      }
    }
    text.append(line.toString().stripTrailing()).append('\n');
  }
}
