package org.cacheflow.codegen.model;

/** How a copy is made (printed by CorePrinter). */
public enum CopyKind {
  /** An ordinary cached copy, counted. */
  MEMCPY,
  /** Streaming stores, for data another core reads next. */
  NON_TEMPORAL,
  /** The pre-store paper's skip: streaming stores, unfenced (a fence follows before publishing). */
  SKIP
}
