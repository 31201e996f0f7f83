/**
 * Xtend printers, one per output file, all extending {@link org.cacheflow.codegen.printer.CTemplate} (provenance
 * line, buffer expressions, comments and string literals).
 */
package org.cacheflow.codegen.printer;
