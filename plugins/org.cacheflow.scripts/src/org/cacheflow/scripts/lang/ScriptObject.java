package org.cacheflow.scripts.lang;

import java.util.List;

/** A host object a script can call methods on (a buffer). The only way scripts reach outside values. */
public interface ScriptObject {

  /** Type name used in messages, e.g. "Buffer". */
  String typeName();

  /**
   * Runs {@code method}; arguments are script values (Integer, Long, Float, Double, Boolean, String, null,
   * ScriptObject, List, Map). Problems are reported with {@code site.error(...)}.
   */
  Object invoke(String method, List<Object> arguments, CallSite site);

  /** Where a call happens, to report errors at the script position. */
  interface CallSite {
    org.cacheflow.scripts.ScriptException error(String message);

    org.cacheflow.model.diagnostics.SourceLocation location();
  }
}
