package org.cacheflow.ui.editor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The workflow editor's overrides table shows whole-program settings as settings, not as FIFOs. */
class OverrideRowsTest {

  @Test
  void settingsAreRowsOfTheirOwnKind() {
    List<String[]> rows = OverrideRows.rows("pipelining=off; slots=2;Blur.in = cow\n*.out=channel:4");
    assertEquals(4, rows.size());
    assertArrayEquals(new String[] {"pipelining", "off"}, rows.get(0));
    assertArrayEquals(new String[] {"Blur.in", "cow"}, rows.get(2));
    assertEquals(List.of(OverrideRows.SETTING, OverrideRows.SETTING, OverrideRows.FIFO, OverrideRows.FIFO),
        rows.stream().map(OverrideRows::kind).toList());
    // a row the user renames becomes what its name says
    assertEquals(OverrideRows.SETTING, OverrideRows.kind(new String[] {"slots", ""}));
    assertEquals(OverrideRows.FIFO, OverrideRows.kind(new String[] {"slotsActor.in", "cow"}));
    assertEquals(OverrideRows.FIFO, OverrideRows.kind(new String[] {"Actor.port", "cow"}));
  }

  @Test
  void theWrittenTextIsKept() {
    String written = "pipelining=off; slots=2; Blur.in=cow; *.out=channel:4";
    assertEquals(written, OverrideRows.text(OverrideRows.rows(written)));
    assertEquals("", OverrideRows.text(OverrideRows.rows(null)));
    assertEquals("pipelining=on; A.b=memcpy", OverrideRows.text(OverrideRows.rows(" pipelining = on ;A.b=memcpy ")));
  }
}
