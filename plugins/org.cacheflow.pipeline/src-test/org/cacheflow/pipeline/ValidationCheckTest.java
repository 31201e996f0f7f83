package org.cacheflow.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A program's output against a {@code .validation.hash}: exact lines, and buffers PREESM numbers otherwise. */
class ValidationCheckTest {

  private static final String A = "0123456789abcdef0123456789abcdef";
  private static final String B = "fedcba9876543210fedcba9876543210";
  private static final String C = "00112233445566778899aabbccddeeff";

  @TempDir
  Path dir;

  private ValidationCheck check(List<String> file, String output) throws IOException {
    Files.write(dir.resolve(ValidationCheck.HASH_FILE), file);
    return ValidationCheck.of(dir, output);
  }

  @Test
  void theSameLinesMatchWithoutANote() throws IOException {
    ValidationCheck check = check(List.of("preesm_md5_out__in__0 : " + A, "preesm_md5_out__in__1 : " + B),
        "preesm_md5_out__in__0 : " + A + "\nframe 1\npreesm_md5_out__in__1 : " + B + "\n");
    assertTrue(check.matches(), check.differences().toString());
    assertEquals(List.of(), check.renumbered());
  }

  /** PREESM numbered the two colliding names the other way round: the same digests, paired differently. */
  @Test
  void buffersNumberedInAnotherOrderMatchWithANote() throws IOException {
    ValidationCheck check = check(List.of("preesm_md5_out__in__0 : " + A, "preesm_md5_out__in__1 : " + B,
        "preesm_md5_y__z__0 : " + C), "preesm_md5_out__in__0 : " + B + "\npreesm_md5_out__in__1 : " + A
            + "\npreesm_md5_y__z__0 : " + C + "\n");
    assertTrue(check.matches(), check.differences().toString());
    assertEquals(List.of("out__in__<n>: 2 buffers with the file's digests, numbered in another order than PREESM's"),
        check.renumbered());
    assertEquals(B, check.found().get("out__in__0"), "found keeps what the program printed");
  }

  @Test
  void aChangedDigestInAGroupStillDiffers() throws IOException {
    ValidationCheck check = check(List.of("preesm_md5_out__in__0 : " + A, "preesm_md5_out__in__1 : " + B),
        "preesm_md5_out__in__0 : " + B + "\npreesm_md5_out__in__1 : " + C + "\n");
    assertFalse(check.matches());
    assertEquals(List.of(), check.renumbered());
    assertEquals(4, check.differences().size(), check.differences().toString());
  }

  /** Swapping digests between names that are not one group is a difference, not a renumbering. */
  @Test
  void digestsSwappedBetweenDifferentNamesDiffer() throws IOException {
    ValidationCheck check = check(List.of("preesm_md5_a__b__0 : " + A, "preesm_md5_c__d__0 : " + B),
        "preesm_md5_a__b__0 : " + B + "\npreesm_md5_c__d__0 : " + A + "\n");
    assertFalse(check.matches());
    assertEquals(List.of(), check.renumbered());
  }

  /** A group the output prints a further member of is not forgiven: the file and the output disagree on it. */
  @Test
  void aGroupWithAnExtraPrintedMemberDiffers() throws IOException {
    ValidationCheck check = check(List.of("preesm_md5_out__in__0 : " + A, "preesm_md5_out__in__1 : " + B),
        "preesm_md5_out__in__0 : " + B + "\npreesm_md5_out__in__1 : " + A + "\npreesm_md5_out__in__2 : " + C
            + "\n");
    assertFalse(check.matches());
    assertEquals(List.of(), check.renumbered());
  }
}
