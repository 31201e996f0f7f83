package org.cacheflow.codegen;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * File-tree operations shared by the writers of generated projects: {@link ProjectWriter} and the Maven plugin,
 * which unpacks the C runtime (it depends on this bundle, so the one implementation lives here).
 */
public final class FileTrees {

  private FileTrees() {
  }

  /**
   * Deletes {@code root} and everything below it; nothing happens when it does not exist. Symbolic links below
   * it are deleted, not followed.
   *
   * @throws IOException on the first file that cannot be deleted; what was deleted before stays deleted
   */
  public static void delete(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
        Files.delete(file);
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult postVisitDirectory(Path directory, IOException e) throws IOException {
        Files.delete(directory);
        return FileVisitResult.CONTINUE;
      }
    });
  }
}
