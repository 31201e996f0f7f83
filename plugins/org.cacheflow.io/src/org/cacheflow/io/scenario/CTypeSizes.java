package org.cacheflow.io.scenario;

import java.util.Map;
import java.util.OptionalLong;

/**
 * Sizes in bits of standard C types on the LP64 data model (Linux and macOS on x86-64 and AArch64, the
 * targets the generated code runs on), for FIFO types a scenario does not list. Also knows the
 * {@code uchar}/{@code ushort}/{@code uint}/{@code ulong} shorthands PREESM applications use.
 */
public final class CTypeSizes {

  /** A pointer on LP64. */
  public static final long POINTER_BITS = 64;

  private static final Map<String, Long> BITS = Map.ofEntries(
      Map.entry("char", 8L), Map.entry("signed char", 8L), Map.entry("unsigned char", 8L),
      Map.entry("uchar", 8L), Map.entry("bool", 8L), Map.entry("_Bool", 8L),
      Map.entry("short", 16L), Map.entry("short int", 16L), Map.entry("signed short", 16L),
      Map.entry("unsigned short", 16L), Map.entry("unsigned short int", 16L), Map.entry("ushort", 16L),
      Map.entry("int", 32L), Map.entry("signed", 32L), Map.entry("signed int", 32L),
      Map.entry("unsigned", 32L), Map.entry("unsigned int", 32L), Map.entry("uint", 32L),
      Map.entry("long", 64L), Map.entry("long int", 64L), Map.entry("signed long", 64L),
      Map.entry("unsigned long", 64L), Map.entry("unsigned long int", 64L), Map.entry("ulong", 64L),
      Map.entry("long long", 64L), Map.entry("long long int", 64L), Map.entry("signed long long", 64L),
      Map.entry("unsigned long long", 64L), Map.entry("unsigned long long int", 64L),
      Map.entry("float", 32L), Map.entry("double", 64L), Map.entry("long double", 128L),
      Map.entry("int8_t", 8L), Map.entry("uint8_t", 8L), Map.entry("int16_t", 16L), Map.entry("uint16_t", 16L),
      Map.entry("int32_t", 32L), Map.entry("uint32_t", 32L), Map.entry("int64_t", 64L), Map.entry("uint64_t", 64L),
      Map.entry("int_least8_t", 8L), Map.entry("uint_least8_t", 8L),
      Map.entry("int_least16_t", 16L), Map.entry("uint_least16_t", 16L),
      Map.entry("int_least32_t", 32L), Map.entry("uint_least32_t", 32L),
      Map.entry("int_least64_t", 64L), Map.entry("uint_least64_t", 64L),
      // glibc's fast types: 8 bits for the 8-bit ones, a machine word for the others
      Map.entry("int_fast8_t", 8L), Map.entry("uint_fast8_t", 8L),
      Map.entry("int_fast16_t", 64L), Map.entry("uint_fast16_t", 64L),
      Map.entry("int_fast32_t", 64L), Map.entry("uint_fast32_t", 64L),
      Map.entry("int_fast64_t", 64L), Map.entry("uint_fast64_t", 64L),
      Map.entry("intmax_t", 64L), Map.entry("uintmax_t", 64L), Map.entry("intptr_t", 64L),
      Map.entry("uintptr_t", 64L), Map.entry("size_t", 64L), Map.entry("ssize_t", 64L),
      Map.entry("ptrdiff_t", 64L));

  private CTypeSizes() {
  }

  /**
   * The size in bits of {@code type}, ignoring surrounding and repeated spaces and {@code const} /
   * {@code volatile} qualifiers; any pointer type is {@value #POINTER_BITS} bits. Empty when unknown.
   */
  public static OptionalLong bits(String type) {
    String normalized = normalize(type);
    if (normalized.isEmpty()) {
      return OptionalLong.empty();
    }
    if (normalized.endsWith("*")) {
      return OptionalLong.of(POINTER_BITS);
    }
    Long bits = BITS.get(normalized);
    return bits == null ? OptionalLong.empty() : OptionalLong.of(bits);
  }

  /** {@code type} with qualifiers dropped and spaces collapsed, e.g. {@code " const unsigned  char "} to {@code
   * unsigned char}. */
  public static String normalize(String type) {
    if (type == null) {
      return "";
    }
    StringBuilder result = new StringBuilder();
    for (String word : type.replace("*", " * ").trim().split("\\s+")) {
      if (word.isEmpty() || word.equals("const") || word.equals("volatile") || word.equals("restrict")) {
        continue;
      }
      if (!result.isEmpty() && !word.equals("*")) {
        result.append(' ');
      }
      result.append(word);
    }
    return result.toString();
  }
}
