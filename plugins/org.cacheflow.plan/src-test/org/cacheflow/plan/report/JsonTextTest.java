package org.cacheflow.plan.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The one JSON writer, indented and compact, on the same value tree. */
class JsonTextTest {

  private static Map<String, Object> tree() {
    Map<String, Object> inner = new LinkedHashMap<>();
    inner.put("bits", 12L);
    inner.put("ratio", 0.25);
    inner.put("whole", 3.0);
    inner.put("infinite", Double.POSITIVE_INFINITY);
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("name", "a \"quoted\"\tname\\\u0001");
    root.put("list", Arrays.asList(1, true, null, inner));
    root.put("empty", new ArrayList<>());
    root.put("none", new LinkedHashMap<>());
    return root;
  }

  @Test
  void compactIsOneLineWithoutSpaces() {
    assertEquals("{\"name\":\"a \\\"quoted\\\"\\tname\\\\\\u0001\",\"list\":[1,true,null,{\"bits\":12,\"ratio\":0.25,"
        + "\"whole\":3,\"infinite\":null}],\"empty\":[],\"none\":{}}", JsonText.compact(tree()));
  }

  @Test
  void printIndentsByTwoSpaces() {
    assertEquals("""
        {
          "name": "a \\"quoted\\"\\tname\\\\\\u0001",
          "list": [
            1,
            true,
            null,
            {
              "bits": 12,
              "ratio": 0.25,
              "whole": 3,
              "infinite": null
            }
          ],
          "empty": [],
          "none": {}
        }
        """, JsonText.print(tree()));
  }

  @Test
  void otherObjectsAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> JsonText.compact(List.of(new Object())));
  }
}
