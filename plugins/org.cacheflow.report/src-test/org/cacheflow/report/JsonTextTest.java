package org.cacheflow.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

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

  /**
   * Values where a JSON writer can go wrong, printed as cacheflow's own writer printed them before gson wrote the
   * text: numbers at the edges of the whole-double rule, floats widened to double, big integers, map keys that are not
   * strings, escapes and characters that need none. The one difference: U+0008 and U+000C are now written {@code \b}
   * and {@code \f}, U+2028 and U+2029 escaped (the same strings to any JSON reader).
   */
  @Test
  void trickyValuesPrintAsBefore() {
    Map<Object, Object> map = new LinkedHashMap<>();
    map.put(7, "int key");
    map.put(null, "null key");
    map.put("html", "<a href='x'>&amp;</a>=");
    map.put("unicode", "\u00e9\u4e2d\ud83d\ude00\u007f\u0085");
    map.put("controls", "\u0000\u001f\r\n\u0008\u000c\u2028\u2029");
    List<Object> numbers = Arrays.asList(-0.0, 1e15 - 1, 1e15, -1e15, 1e16, 0.1, 1e-7, 0.1f, 2.0f, Float.NaN,
        Double.NEGATIVE_INFINITY, Long.MIN_VALUE, Integer.MAX_VALUE, (short) -3, new java.math.BigDecimal("1.50"),
        new java.math.BigInteger("123456789012345678901234567890"), new AtomicLong(5));
    map.put("numbers", numbers);
    assertEquals("{\"7\":\"int key\",\"null\":\"null key\",\"html\":\"<a href='x'>&amp;</a>=\","
        + "\"unicode\":\"\u00e9\u4e2d\ud83d\ude00\u007f\u0085\","
        + "\"controls\":\"\\u0000\\u001f\\r\\n\\b\\f\\u2028\\u2029\","
        + "\"numbers\":[0,999999999999999,1.0E15,-1.0E15,1.0E16,0.1,1.0E-7,0.10000000149011612,2,null,null,"
        + "-9223372036854775808,2147483647,-3,1.50,123456789012345678901234567890,5]}", JsonText.compact(map));
    assertEquals("\"top\"\n", JsonText.print("top"));
    assertEquals("null", JsonText.compact(null));
  }

  @Test
  void otherObjectsAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> JsonText.compact(List.of(new Object())));
  }
}
