package org.cacheflow.cli;

import org.cacheflow.plan.strategy.Bytes;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** A size option ({@code --max-memory}): bytes, or K/M/G/T (powers of 1024), zero or more. */
public final class SizeValue implements ITypeConverter<Long> {

  @Override
  public Long convert(String text) {
    try {
      long value = Bytes.parse(text);
      if (value >= 0) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new TypeConversionException("must be a size such as 512M, 24G or 1T (0: no limit), got '" + text + "'");
  }
}
