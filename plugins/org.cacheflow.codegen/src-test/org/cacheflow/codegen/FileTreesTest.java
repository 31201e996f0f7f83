package org.cacheflow.codegen;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileTreesTest {

  @Test
  void deletesNestedFoldersAndHiddenFilesButNotWhatALinkPointsTo(@TempDir Path dir) throws IOException {
    Path keep = Files.writeString(dir.resolve("keep.txt"), "outside");
    Path root = dir.resolve("tree");
    Files.createDirectories(root.resolve("a/b/c"));
    Files.writeString(root.resolve("a/b/c/deep.c"), "int x;");
    Files.writeString(root.resolve(".hidden"), "");
    Files.createSymbolicLink(root.resolve("a/link"), keep);

    FileTrees.delete(root);

    assertTrue(Files.notExists(root), "the tree is gone");
    assertTrue(Files.isRegularFile(keep), "a linked file outside the tree survives");
  }

  @Test
  void aMissingRootIsNotAnError(@TempDir Path dir) throws IOException {
    FileTrees.delete(dir.resolve("never-written"));
    assertTrue(Files.isDirectory(dir));
  }
}
