package org.cacheflow.maven;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * A digest of everything a generation reads: the files of the input project (graphs, scenarios, architectures,
 * workflows, memory scripts, actor headers...) and the settings. Equal digests mean the output would be the
 * same, so the build can skip the generation. Hidden directories ({@code .git}, {@code .settings}) and the given
 * excluded directories (the output, the build directory) are left out; hidden files such as {@code .ci.yaml}
 * and {@code .project} are read, since they change what runs.
 */
final class InputFingerprint {

  private InputFingerprint() {
  }

  /**
   * @param roots the directories and files read (missing ones are recorded as missing)
   * @param excluded directories not to read
   * @param settings the settings and the generator's version, one string
   */
  static String of(List<Path> roots, List<Path> excluded, String settings) {
    MessageDigest digest = sha256();
    update(digest, "settings\0" + settings);
    List<Path> skip = new ArrayList<>();
    for (Path path : excluded) {
      skip.add(path.toAbsolutePath().normalize());
    }
    for (Path root : roots) {
      Path start = root.toAbsolutePath().normalize();
      update(digest, "root\0" + start);
      if (!Files.exists(start)) {
        update(digest, "missing");
        continue;
      }
      for (Path file : files(start, skip)) {
        update(digest, "file\0" + start.relativize(file).toString().replace('\\', '/') + "\0");
        try {
          digest.update(Files.readAllBytes(file));
        } catch (IOException e) {
          throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
      }
    }
    return HexFormat.of().formatHex(digest.digest());
  }

  private static List<Path> files(Path start, List<Path> skip) {
    List<Path> files = new ArrayList<>();
    if (Files.isRegularFile(start)) {
      files.add(start);
      return files;
    }
    try {
      Files.walkFileTree(start, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult preVisitDirectory(Path directory, BasicFileAttributes attributes) {
          boolean hidden = !directory.equals(start) && directory.getFileName().toString().startsWith(".");
          return hidden || skip.contains(directory) ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
          if (attributes.isRegularFile()) {
            files.add(file);
          }
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + start + ": " + e.getMessage(), e);
    }
    files.sort(null);
    return files;
  }

  private static void update(MessageDigest digest, String text) {
    digest.update(text.getBytes(StandardCharsets.UTF_8));
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
  }
}
