package org.cacheflow.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.cacheflow.cli.UsageException;
import org.cacheflow.pipeline.PathText;

/** The frame of a stereo program: it fixes the work and the size of every FIFO. */
record DemoFrame(long width, long height, long disparities, long slices) {

  /** The parameters of examples/stereo/Algo/stereo.pi, with the given {@code --param} values instead. */
  static DemoFrame of(Path pi, Map<String, String> overrides) throws IOException {
    String graph = Files.readString(pi);
    long[] values = new long[4];
    String[] names = {"width", "height", "nbDisparities", "nbSlices"};
    for (int i = 0; i < names.length; i++) {
      String text = overrides.get(names[i]);
      if (text == null) {
        Matcher matcher = Pattern.compile("<node expr=\"([^\"]*)\" id=\"" + names[i] + "\" kind=\"param\"")
            .matcher(graph);
        if (!matcher.find()) {
          throw new DemoFailure(PathText.display(pi) + ": no parameter '" + names[i] + "'");
        }
        text = matcher.group(1);
      }
      try {
        values[i] = Long.parseLong(text.trim());
      } catch (NumberFormatException e) {
        throw new UsageException("parameter " + names[i] + " must be an integer for the demo, got '" + text + "'");
      }
    }
    return new DemoFrame(values[0], values[1], values[2], values[3]);
  }

  /** The frame divided by {@code scale} in each dimension, for the cache simulations. */
  DemoFrame reduced(int scale) {
    if (width % scale != 0 || height % scale != 0 || (height / scale) % slices != 0) {
      throw new UsageException("--miss-scale " + scale + " does not divide the " + this + " frame exactly (width "
          + "and height must divide by it, and the reduced height by nbSlices = " + slices + ")");
    }
    return new DemoFrame(width / scale, height / scale, disparities, slices);
  }

  List<String> params() {
    return List.of("width=" + width, "height=" + height);
  }

  @Override
  public String toString() {
    return width + "x" + height;
  }
}
