package org.cacheflow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

import org.cacheflow.cli.Examples.Run;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --validate=preesm} and {@code cacheflow check} on a project of this bundle (src-test/resources/
 * preesm-build, generated into a project of its own): its {@code .validation.hash} is written here by PREESM's
 * printing rules (CPrinter's sink buffers, digests updated every iteration, 16 bytes printed from the last to the
 * first, lines sorted as the CI sorts them) from the bytes the sinks read, which the test computes from the actors'
 * definitions. The program's output matches it; with one byte of a digest changed, the check fails and names the
 * buffer.
 */
class PreesmValidationTest {

  static final int ITERATIONS = 5;

  @TempDir
  Path temp;

  @Test
  void theProgramsLinesAreThoseOfPreesmsValidationFileAndTheCheckSaysSo() throws IOException {
    Path project = PreesmBuildTest.project(temp);
    Path out = temp.resolve("out");
    Run generate = Examples.run("generate", project.toString(), "--out", out.toString(), "--strategy", "preesm",
        "--link", "ZLIB::ZLIB");
    assertEquals(0, generate.status(), generate.err());
    Examples.exec(List.of("cmake", "-S", out.toString(), "-B", out.resolve("build").toString()));
    Examples.exec(List.of("cmake", "--build", out.resolve("build").toString()));
    String output = Examples.exec(List.of(out.resolve("build/crc").toString(), "--iterations",
        Integer.toString(ITERATIONS), "--validate=preesm"));
    Path printed = temp.resolve("printed.txt");
    Files.writeString(printed, output);

    List<String> expected = expectedLines();
    Files.write(project.resolve(".validation.hash"), expected);
    List<String> lines = output.lines().filter(line -> line.startsWith("preesm_md5_")).toList();
    assertEquals(expected, lines, output);
    Run check = Examples.run("check", project.toString(), "--output", printed.toString());
    assertEquals(Main.OK, check.status(), check.out() + check.err());
    assertTrue(check.out().startsWith("matches "), check.out());

    // one byte of one digest changed: the check fails and shows the buffer's two lines
    String first = expected.get(0);
    int at = first.length() - 2;
    String changed = first.substring(0, at) + (first.charAt(at) == '0' ? '1' : '0') + first.substring(at + 1);
    Files.write(project.resolve(".validation.hash"), List.of(changed, expected.get(1)));
    Run differs = Examples.run("check", project.toString(), "--output", printed.toString());
    assertEquals(Main.BAD_INPUT, differs.status(), differs.out() + differs.err());
    assertTrue(differs.out().contains("- " + changed + "   (the file)"), differs.out());
    assertTrue(differs.out().contains("+ " + first + "   (printed)"), differs.out());

    // the program's default format stays cacheflow's: no PREESM line
    String plain = Examples.exec(List.of(out.resolve("build/crc").toString(), "--iterations", "1",
        "--validate"));
    assertTrue(plain.lines().noneMatch(line -> line.startsWith("preesm_md5_")), plain);
    assertTrue(plain.contains("Bcast.out1 -> Keep.frame : "), plain);
  }

  /**
   * The file PREESM's CI would keep: per sink buffer (named by PREESM's code generator: source port and target port,
   * a broadcast's output suffixed with its position), the MD5 of what the sink read in every iteration, its 16 bytes
   * printed from the last to the first; lines sorted in byte order.
   */
  static List<String> expectedLines() {
    MessageDigest direct = md5();
    MessageDigest inverted = md5();
    for (int k = 0; k < ITERATIONS; k++) {
      byte[] frame = new byte[PreesmBuildTest.SIZE];
      byte[] invertedFrame = new byte[PreesmBuildTest.SIZE];
      for (int i = 0; i < PreesmBuildTest.SIZE; i++) {
        frame[i] = (byte) (31 * k + 7 * i);
        invertedFrame[i] = (byte) (255 - (frame[i] & 0xff));
      }
      direct.update(frame);
      inverted.update(invertedFrame);
    }
    TreeMap<String, String> lines = new TreeMap<>();
    // Keep reads Bcast's second output; Check the join of Invert's four slices (the join's output: Invert's port)
    lines.put("out1_1__frame__0", lastToFirst(direct.digest()));
    lines.put("out__frame__0", lastToFirst(inverted.digest()));
    List<String> result = new ArrayList<>();
    lines.forEach((buffer, digest) -> result.add("preesm_md5_" + buffer + " : " + digest));
    return result;
  }

  private static String lastToFirst(byte[] digest) {
    StringBuilder hex = new StringBuilder();
    for (int i = digest.length; i > 0; i--) {
      hex.append(String.format("%02x", digest[i - 1]));
    }
    return hex.toString();
  }

  private static MessageDigest md5() {
    try {
      return MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

}
