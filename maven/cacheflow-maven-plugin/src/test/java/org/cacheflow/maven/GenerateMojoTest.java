package org.cacheflow.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The goal's parameters become the command line's options (Maven sets the fields; so does this test). */
class GenerateMojoTest {

  @TempDir
  Path temp;

  private static void set(GenerateMojo mojo, String field, Object value) throws ReflectiveOperationException {
    Field f = GenerateMojo.class.getDeclaredField(field);
    f.setAccessible(true);
    f.set(mojo, value);
  }

  /** A goal on the project {@code app} in the temporary folder, running the workflow (null: generate). */
  private GenerateMojo mojo(String workflow) throws Exception {
    Path project = Files.createDirectories(temp.resolve("app"));
    GenerateMojo mojo = new GenerateMojo();
    set(mojo, "input", project.toFile());
    set(mojo, "basedir", project.toFile());
    set(mojo, "outputDirectory", temp.resolve("out").toFile());
    set(mojo, "workflow", workflow);
    return mojo;
  }

  /** Issue 13: the actors' sources, header folders, definitions and libraries reach both commands. */
  @Test
  void actorCodeParametersBecomeOptions() throws Exception {
    Path project = Files.createDirectories(temp.resolve("app"));
    Files.createDirectories(temp.resolve("app/actors"));
    for (String workflow : new String[] {null, "cacheflow"}) {
      GenerateMojo mojo = mojo(workflow);
      set(mojo, "scenario", "Scenarios/2core.scenario");
      set(mojo, "target", "generic");
      set(mojo, "sources", new File("actors"));
      set(mojo, "includes", List.of(new File("/usr/include/SDL2")));
      set(mojo, "definitions", List.of("FRAMES=6", " VERBOSE "));
      set(mojo, "libraries", List.of("ZLIB::ZLIB", "m"));
      List<String> command = mojo.commandLine();
      assertEquals(workflow == null ? "generate" : "run-workflow", command.get(0));
      String line = String.join(" ", command);
      assertTrue(line.contains((workflow == null ? "--scenario" : "-s") + " Scenarios/2core.scenario"), line);
      assertTrue(line.contains("--target generic"), line);
      assertTrue(line.contains("--sources " + project.resolve("actors")), line);
      assertTrue(line.contains("--include /usr/include/SDL2"), line);
      assertTrue(line.endsWith("--define FRAMES=6 --define VERBOSE --link ZLIB::ZLIB --link m"), line);
    }
  }

  /** Issue 16: nodes and cores reach both commands; without them the architecture decides (no option). */
  @Test
  void nodesAndCoresBecomeOptions() throws Exception {
    for (String workflow : new String[] {null, "cacheflow"}) {
      GenerateMojo mojo = mojo(workflow);
      String line = String.join(" ", mojo.commandLine());
      assertFalse(line.contains("--nodes") || line.contains("--cores"), line);
      set(mojo, "nodes", 2);
      set(mojo, "cores", 1);
      List<String> command = mojo.commandLine();
      assertEquals("2", command.get(command.indexOf("--nodes") + 1), command.toString());
      assertEquals("1", command.get(command.indexOf("--cores") + 1), command.toString());
    }
  }
}
