package org.cacheflow.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.cacheflow.cli.Examples.Run;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run-workflow --check} on a PREESM project of this bundle (src-test/resources/preesm-build: PREESM's code
 * generation task, so the program is built by the project's own {@code Code/CMakeLists.txt}): with the
 * {@code .validation.hash} PREESM would keep (computed by {@link PreesmValidationTest} from the actors' definitions)
 * the check matches; with one byte of a digest changed it fails with exit status 1 and shows both lines; without the
 * file {@code --check} is an error naming it, before anything is generated.
 */
class RunWorkflowCheckTest {

  @TempDir
  Path temp;

  @Test
  void theCheckStepComparesTheBuiltProgramsOutputWithTheValidationFile() throws IOException {
    Path project = PreesmBuildTest.project(temp);
    String iterations = Integer.toString(PreesmValidationTest.ITERATIONS);

    Run missing = Examples.run("run-workflow", project.toString(), "--check", "--iterations", iterations);
    assertEquals(Main.BAD_INPUT, missing.status(), missing.out() + missing.err());
    assertTrue(missing.err().contains(".validation.hash") && missing.err().contains("does not exist"), missing.err());
    assertFalse(Files.exists(project.resolve("Code/generated/main.c")), "nothing generated");

    List<String> expected = PreesmValidationTest.expectedLines();
    Files.write(project.resolve(".validation.hash"), expected);
    Run matches = Examples.run("run-workflow", project.toString(), "--check", "--iterations", iterations);
    assertEquals(Main.OK, matches.status(), matches.out() + matches.err());
    assertTrue(matches.out().contains(": matches "), matches.out());
    assertTrue(matches.out().contains("2 buffers"), matches.out());

    String first = expected.get(0);
    int at = first.length() - 1;
    String changed = first.substring(0, at) + (first.charAt(at) == '0' ? '1' : '0');
    Files.write(project.resolve(".validation.hash"), List.of(changed, expected.get(1)));
    Run differs = Examples.run("run-workflow", project.toString(), "--check", "--iterations", iterations);
    assertEquals(Main.BAD_INPUT, differs.status(), differs.out() + differs.err());
    assertTrue(differs.out().contains("differs from "), differs.out());
    assertTrue(differs.out().contains("- " + changed + "   (the file)"), differs.out());
    assertTrue(differs.out().contains("+ " + first + "   (printed)"), differs.out());
    assertFalse(differs.out().contains(expected.get(1)), "the buffer that matches is not shown: " + differs.out());
  }
}
