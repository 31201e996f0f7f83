package org.cacheflow.codegen.model;

/** How a copy is made. */
public enum CopyKind {
  /** {@code cf_copy}: an ordinary cached copy, counted. */
  MEMCPY,
  /** {@code cf_ntm_copy}: streaming stores, for data another core reads next. */
  NON_TEMPORAL,
  /** {@code cf_prestore_write(CF_SKIP)}: streaming stores, unfenced (a fence follows before publishing). */
  SKIP
}
