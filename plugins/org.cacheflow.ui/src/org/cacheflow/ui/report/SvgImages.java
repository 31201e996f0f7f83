package org.cacheflow.ui.report;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.net.MalformedURLException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.PaletteData;

import com.github.weisj.jsvg.SVGDocument;
import com.github.weisj.jsvg.parser.SVGLoader;
import com.github.weisj.jsvg.view.FloatSize;

/**
 * Renders the report's SVG drawings into SWT image data with jsvg (pure Java2D into an off-screen image), so the
 * report shows without a browser widget — a workbench on a machine without WebKit, or under Xvfb, shows it too.
 */
public final class SvgImages {

  /** Images are kept below this many pixels: a huge graph is drawn smaller rather than exhausting memory. */
  static final long MAX_PIXELS = 32L * 1024 * 1024;

  private SvgImages() {
  }

  /** A loaded drawing. */
  public record Drawing(SVGDocument document, float width, float height) {
  }

  /**
   * Loads {@code file}.
   *
   * @throws IllegalArgumentException when it is missing or not SVG jsvg can read
   */
  public static Drawing load(Path file) {
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException("no drawing " + file);
    }
    SVGDocument document;
    try {
      document = new SVGLoader().load(file.toUri().toURL());
    } catch (MalformedURLException e) {
      throw new IllegalArgumentException(e);
    }
    if (document == null) {
      throw new IllegalArgumentException(file + " is not an SVG drawing");
    }
    FloatSize size = document.size();
    return new Drawing(document, Math.max(1, size.width), Math.max(1, size.height));
  }

  /** The drawing at {@code scale} on white, as 24-bit image data. */
  public static ImageData render(Drawing drawing, double scale) {
    double limited = Math.min(scale, Math.sqrt(MAX_PIXELS / ((double) drawing.width() * drawing.height())));
    int width = Math.max(1, (int) Math.ceil(drawing.width() * limited));
    int height = Math.max(1, (int) Math.ceil(drawing.height() * limited));
    BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    Graphics2D graphics = image.createGraphics();
    try {
      graphics.setColor(Color.WHITE);
      graphics.fillRect(0, 0, width, height);
      graphics.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      graphics.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      graphics.scale(limited, limited);
      drawing.document().render((javax.swing.JComponent) null, graphics);
    } finally {
      graphics.dispose();
    }
    ImageData data = new ImageData(width, height, 24, new PaletteData(0xFF0000, 0x00FF00, 0x0000FF));
    int[] row = new int[width];
    for (int y = 0; y < height; y++) {
      image.getRGB(0, y, width, 1, row, 0, width);
      for (int x = 0; x < width; x++) {
        row[x] &= 0xFFFFFF;
      }
      data.setPixels(0, y, width, row, 0);
    }
    return data;
  }
}
