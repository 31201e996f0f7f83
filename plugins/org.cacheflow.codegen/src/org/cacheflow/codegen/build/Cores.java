package org.cacheflow.codegen.build;

import org.cacheflow.codegen.model.Core;

/**
 * Sets of cores as masks, one bit per core (bit c: core c). A program runs on at most {@link Core#MOST} cores: the
 * runtime's limit, and the width of a mask.
 */
final class Cores {

  private Cores() {
  }

  /** The cores of a mask, ascending. */
  static int[] members(long mask) {
    int[] cores = new int[Long.bitCount(mask)];
    int at = 0;
    for (int core = 0; core < Core.MOST; core++) {
      if ((mask >>> core & 1) != 0) {
        cores[at++] = core;
      }
    }
    return cores;
  }

  /** The members of a mask as text: "0, 2, 3". */
  static String list(long mask) {
    StringBuilder text = new StringBuilder();
    for (int member : members(mask)) {
      text.append(text.length() == 0 ? "" : ", ").append(member);
    }
    return text.toString();
  }

  /** The first core of a mask; {@code otherwise} when it is empty. */
  static int first(long mask, int otherwise) {
    return mask == 0 ? otherwise : Long.numberOfTrailingZeros(mask);
  }
}
