package org.cacheflow.maven;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Enumeration;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

import org.cacheflow.codegen.FileTrees;

/**
 * The C runtime every generated project includes. The plugin jar carries its sources under
 * {@code cacheflow-runtime/}; the generator copies them from a folder, so they are unpacked first.
 */
final class BundledRuntime {

  static final String FOLDER = "cacheflow-runtime";

  private BundledRuntime() {
  }

  /** Unpacks the runtime into {@code directory} (replacing it) and returns it. */
  static Path unpack(Path directory) throws IOException {
    FileTrees.delete(directory);
    Files.createDirectories(directory);
    Path location;
    try {
      location = Path.of(BundledRuntime.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IOException("cannot locate the plugin's classes: " + e.getMessage(), e);
    }
    if (Files.isDirectory(location)) {
      copyTree(location.resolve(FOLDER), directory);
    } else {
      try (JarFile jar = new JarFile(location.toFile())) {
        for (Enumeration<JarEntry> entries = jar.entries(); entries.hasMoreElements();) {
          JarEntry entry = entries.nextElement();
          if (entry.isDirectory() || !entry.getName().startsWith(FOLDER + "/")) {
            continue;
          }
          Path file = directory.resolve(entry.getName().substring(FOLDER.length() + 1)).normalize();
          if (!file.startsWith(directory)) {
            throw new IOException("bad entry in the plugin jar: " + entry.getName());
          }
          Files.createDirectories(file.getParent());
          try (InputStream in = jar.getInputStream(entry)) {
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
          }
        }
      }
    }
    if (!Files.isRegularFile(directory.resolve("CMakeLists.txt"))) {
      throw new IOException("the plugin carries no C runtime (" + FOLDER + "/CMakeLists.txt missing in " + location
          + ")");
    }
    return directory;
  }

  private static void copyTree(Path from, Path to) throws IOException {
    if (!Files.isDirectory(from)) {
      return;
    }
    Files.walkFileTree(from, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
        Path copy = to.resolve(from.relativize(file).toString());
        Files.createDirectories(copy.getParent());
        Files.copy(file, copy, StandardCopyOption.REPLACE_EXISTING);
        return FileVisitResult.CONTINUE;
      }
    });
  }
}
