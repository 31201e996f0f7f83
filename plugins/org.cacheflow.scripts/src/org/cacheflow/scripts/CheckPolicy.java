package org.cacheflow.scripts;

/**
 * PREESM's checking policies for script results. The checks themselves (reciprocal matches, matches only
 * between an input and an output, no output range matched twice) are the same; the policy decides whether
 * they run and how much they say. A result that fails a check is not used for merging.
 */
public enum CheckPolicy {
  /** No check: every result is used as it is. */
  NONE,
  /** One message per failed kind of check. */
  FAST,
  /** One message per offending match or range. */
  THOROUGH
}
