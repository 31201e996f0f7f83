package org.cacheflow.plan.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** Which actor a name the user gave means: its name, its path below the top graph or its path from the top graph. */
class ActorNamesTest {

  @Test
  void aNameIsThePathOrItsLastSegments() {
    for (String name : List.of("Blur", "sub/Blur", "top/sub/Blur")) {
      assertTrue(ActorNames.names(name, "top/sub/Blur"), name);
    }
    // a segment is matched whole, and every segment of the name must be the path's
    for (String name : List.of("lur", "b/Blur", "other/sub/Blur", "x/top/sub/Blur", "sub", "top", "", "Blur/")) {
      assertFalse(ActorNames.names(name, "top/sub/Blur"), name);
    }
  }

  @Test
  void belowTheTopGraphOneMoreLeadingSegmentIsTheTopGraphsName() {
    for (String name : List.of("Blur", "sub/Blur", "top/sub/Blur", "filter_bank/sub/Blur")) {
      assertTrue(ActorNames.namesBelowTop(name, "sub/Blur"), name);
    }
    assertTrue(ActorNames.namesBelowTop("filter_bank/Blur", "Blur"));
    // two segments more cannot be the path from the top graph to it
    for (String name : List.of("a/top/sub/Blur", "a/b/Blur", "ub/Blur", "sub")) {
      assertFalse(ActorNames.namesBelowTop(name, name.equals("a/b/Blur") ? "Blur" : "sub/Blur"), name);
    }
  }

  @Test
  void aFiringIsNamedByItsActorOrItself() {
    assertEquals("Blur", ActorNames.naming(List.of("Scale", "Blur"), "sub/Blur_3"));
    assertEquals("top/sub/Blur", ActorNames.naming(List.of("top/sub/Blur"), "sub/Blur_3"));
    assertEquals("Blur_3", ActorNames.naming(List.of("Blur_3"), "sub/Blur_3"));
    assertEquals("sub/Blur_3", ActorNames.naming(List.of("sub/Blur_3"), "sub/Blur_3"));
    // the first name that does, in the order given
    assertEquals("sub/Blur", ActorNames.naming(List.of("sub/Blur", "Blur"), "sub/Blur_0"));
    assertNull(ActorNames.naming(List.of("Blur_2", "Blu", "Scale"), "sub/Blur_3"));
    // an actor whose name ends with digits: only the last _N is the firing's
    assertEquals("Tap_2", ActorNames.naming(List.of("Tap_2"), "Tap_2_0"));
    assertNull(ActorNames.naming(List.of("Tap"), "Tap_2_0"));
  }
}
