package org.cacheflow.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** A count option ({@code --cores}, {@code --nodes}): a positive integer. */
public final class PositiveInt implements ITypeConverter<Integer> {

  @Override
  public Integer convert(String text) {
    try {
      int value = Integer.parseInt(text.trim());
      if (value > 0) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new TypeConversionException("must be a positive integer, got '" + text + "'");
  }
}
