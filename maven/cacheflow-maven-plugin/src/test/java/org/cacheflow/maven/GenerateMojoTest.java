package org.cacheflow.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.apache.maven.plugin.MojoFailureException;
import org.cacheflow.pipeline.ActorCodeOptions;
import org.cacheflow.pipeline.GenerateOptions;
import org.cacheflow.pipeline.PlatformOptions;
import org.cacheflow.plan.mapping.MappingPolicy;
import org.cacheflow.plan.schedule.RunSchedule;
import org.cacheflow.plan.strategy.StrategyPreset;
import org.cacheflow.workflow.run.ActorCode;
import org.cacheflow.workflow.run.SettingsChange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The goal's parameters become the pipeline's typed options (Maven sets the fields; so does this test). */
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

  /** The actors' sources, header folders, definitions and libraries reach generate and the workflow run. */
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
      String settings = String.join(" ", mojo.settings());
      assertTrue(settings.contains("scenario=Scenarios/2core.scenario"), settings);
      if (workflow == null) {
        GenerateOptions options = mojo.generateOptions(temp.resolve("runtime"));
        assertEquals(Path.of("Scenarios/2core.scenario"), options.input().scenario());
        assertEquals("generic", options.target());
        assertEquals(new ActorCodeOptions(project.resolve("actors"), List.of(Path.of("/usr/include/SDL2")),
            List.of("FRAMES=6", "VERBOSE"), List.of("ZLIB::ZLIB", "m")), options.actorCode());
        assertEquals(temp.resolve("runtime"), options.runtime());
        assertEquals(temp.resolve("out"), options.outputDirectory());
      } else {
        SettingsChange change = mojo.settingsChange();
        assertEquals("generic", change.target());
        assertEquals(new ActorCode(project.resolve("actors").toString(), List.of("/usr/include/SDL2"),
            List.of("FRAMES=6", "VERBOSE"), List.of("ZLIB::ZLIB", "m")), change.actorCode());
        assertEquals(temp.resolve("out"), change.outputDirectory());
      }
    }
  }

  /** Nodes and cores reach both; without them the architecture decides (nothing set). */
  @Test
  void nodesAndCoresBecomeOptions() throws Exception {
    for (String workflow : new String[] {null, "cacheflow"}) {
      GenerateMojo mojo = mojo(workflow);
      assertEquals(PlatformOptions.ARCHITECTURE, mojo.generateOptions(temp).platform());
      assertNull(mojo.settingsChange().nodes());
      assertNull(mojo.settingsChange().cores());
      set(mojo, "nodes", 2);
      set(mojo, "cores", 1);
      assertEquals(new PlatformOptions(2, 1), mojo.generateOptions(temp).platform());
      assertEquals(2, mojo.settingsChange().nodes());
      assertEquals(1, mojo.settingsChange().cores());
      assertTrue(mojo.settings().containsAll(List.of("cores=1", "nodes=2")), mojo.settings().toString());
    }
  }

  /** The mapping policy reaches both (generate's default without it, the task's for a workflow run). */
  @Test
  void thePolicyBecomesOptions() throws Exception {
    for (String workflow : new String[] {null, "cacheflow"}) {
      GenerateMojo mojo = mojo(workflow);
      assertEquals(MappingPolicy.LOAD_BALANCE, mojo.generateOptions(temp).policy());
      assertNull(mojo.settingsChange().policy(), "the task's policy");
      set(mojo, "policy", " Locality ");
      assertEquals(MappingPolicy.LOCALITY, mojo.generateOptions(temp).policy());
      assertEquals(MappingPolicy.LOCALITY, mojo.settingsChange().policy());
      assertTrue(mojo.settings().contains("policy=Locality"), mojo.settings().toString());
      set(mojo, "policy", "load");
      assertEquals(MappingPolicy.LOAD_BALANCE, mojo.settingsChange().policy());
      set(mojo, "policy", "nearest");
      for (String message : failures(mojo)) {
        assertEquals("invalid cacheflow configuration: unknown <policy> 'nearest' (known: load, locality)", message);
      }
    }
  }

  /** The messages of both ways the goal reads its parameters (generate's options, a workflow's change), failing. */
  private List<String> failures(GenerateMojo mojo) {
    return List.of(assertThrows(MojoFailureException.class, () -> mojo.generateOptions(temp)).getMessage(),
        assertThrows(MojoFailureException.class, mojo::settingsChange).getMessage());
  }

  /** The schedule, variable actors and cost spreads reach both (static and the task's settings without them). */
  @Test
  void theScheduleBecomesOptions() throws Exception {
    for (String workflow : new String[] {null, "cacheflow"}) {
      GenerateMojo mojo = mojo(workflow);
      assertEquals(RunSchedule.STATIC, mojo.generateOptions(temp).schedule());
      assertNull(mojo.settingsChange().schedule(), "the task's schedule");
      assertNull(mojo.settingsChange().variable(), "the task's variable actors");
      assertNull(mojo.settingsChange().spread(), "the task's cost spreads");
      set(mojo, "schedule", " Hybrid ");
      set(mojo, "variables", List.of("Tile "));
      set(mojo, "costSpreads", List.of("Filter=0.5", " Sink = 0.05"));
      RunSchedule options = mojo.generateOptions(temp).schedule();
      assertEquals(RunSchedule.Kind.HYBRID, options.kind());
      assertEquals(List.of("Tile", "Filter"), options.pooled());
      assertEquals(Map.of("Filter", 0.5, "Sink", 0.05), options.spread());
      SettingsChange change = mojo.settingsChange();
      assertEquals(RunSchedule.Kind.HYBRID, change.schedule());
      assertEquals(List.of("Tile"), change.variable());
      assertEquals(Map.of("Filter", 0.5, "Sink", 0.05), change.spread());
      assertTrue(mojo.settings().containsAll(List.of("schedule=Hybrid", "variable=Tile", "costSpread=Filter=0.5")),
          mojo.settings().toString());
      set(mojo, "costSpreads", List.of("Filter"));
      for (String message : failures(mojo)) {
        assertTrue(message.startsWith("invalid cacheflow configuration: <costSpreads>: cost spread 'Filter' is not "
            + "ACTOR=CV"), message);
      }
      set(mojo, "costSpreads", null);
      set(mojo, "schedule", "random");
      MojoFailureException bad = assertThrows(MojoFailureException.class, mojo::settingsChange);
      assertEquals("invalid cacheflow configuration: unknown <schedule> 'random' (known: static | dynamic | hybrid)",
          bad.getMessage());
    }
  }

  /**
   * The profile reaches both, from the Maven project's directory, and is part of the fingerprint; a missing one is an
   * invalid configuration naming the file.
   */
  @Test
  void theProfileBecomesOptions() throws Exception {
    for (String workflow : new String[] {null, "cacheflow"}) {
      GenerateMojo mojo = fingerprinted(workflow);
      assertNull(mojo.generateOptions(temp).input().profile());
      assertNull(mojo.settingsChange().profile(), "the task's profile");
      Path file = Files.writeString(Files.createDirectories(temp.resolve("app/prof")).resolve("profile.json"), "{}");
      set(mojo, "profile", new File("prof/profile.json"));
      assertEquals(file, mojo.generateOptions(temp).input().profile());
      assertEquals(file, mojo.settingsChange().profile());
      assertTrue(mojo.settings().contains("profile=" + file), mojo.settings().toString());
      String before = mojo.fingerprint(mojo.settings());
      Files.writeString(file, "{ }");
      assertFalse(before.equals(mojo.fingerprint(mojo.settings())), "a changed profile generates again");
      set(mojo, "profile", new File("prof/missing.json"));
      for (String message : failures(mojo)) {
        assertEquals("invalid cacheflow configuration: <profile>: no such file: " + temp.resolve(
            "app/prof/missing.json") + " (write it with cacheflow profile)", message);
      }
    }
  }

  /** A profile that is not one fails the build at its file and line, as the command line reports it. */
  @Test
  void aBadProfileFailsTheBuildAtItsFileAndLine() throws Exception {
    GenerateMojo mojo = fingerprinted(null);
    set(mojo, "input", Path.of("../../examples/filter-bank/Algo/filter_bank.pi").toAbsolutePath().toFile());
    set(mojo, "syntheticActors", true);
    Path bad = Files.writeString(temp.resolve("app/profile.json"), "{\n  \"cacheflowProfile\": 1,\n  oops\n}\n");
    set(mojo, "profile", bad.toFile());
    MojoFailureException failure = assertThrows(MojoFailureException.class, mojo::execute);
    assertTrue(failure.getMessage().matches("error: " + Pattern.quote(bad.toString()) + ":3:\\d+: not a profile "
        + "written by cacheflow profile: .+"), failure.getMessage());
    assertFalse(Files.exists(temp.resolve("out/main.c")), "nothing generated");
  }

  /** The strategy, the overrides (slots=K included) and synthetic actors reach generate as typed settings. */
  @Test
  void strategyAndOverridesBecomeTypedSettings() throws Exception {
    GenerateMojo mojo = mojo(null);
    set(mojo, "strategy", " homeforward ");
    set(mojo, "overrides", List.of("slots=3", " A.out=ntm "));
    set(mojo, "syntheticActors", true);
    GenerateOptions options = mojo.generateOptions(temp);
    assertEquals(StrategyPreset.HOMEFORWARD, options.strategy());
    assertEquals(3, options.slots());
    assertEquals(1, options.overrides().size());
    assertTrue(options.syntheticActors());
    assertEquals(GenerateOptions.DEFAULT_TARGET, mojo(null).generateOptions(temp).target(), "generate's default");

    GenerateMojo run = mojo("cacheflow");
    set(run, "strategy", "CopyOnWrite");
    assertEquals(StrategyPreset.COW, run.settingsChange().strategy());
    set(run, "strategy", "cow");
    assertEquals(StrategyPreset.COW, run.settingsChange().strategy(), "the command-line label of a planner mode");
  }

  /** A bad setting fails the build naming the parameter, before anything is generated. */
  @Test
  void badSettingsFailNamingTheParameter() throws Exception {
    GenerateMojo mojo = mojo(null);
    set(mojo, "strategy", "fastest");
    MojoFailureException strategy = assertThrows(MojoFailureException.class, () -> mojo.generateOptions(temp));
    assertTrue(strategy.getMessage().contains("<strategy>") && strategy.getMessage().contains("fastest"),
        strategy.getMessage());
    GenerateMojo run = mojo("cacheflow");
    set(run, "strategy", "fastest");
    assertThrows(MojoFailureException.class, run::settingsChange);
    set(run, "strategy", null);
    set(run, "definitions", List.of("A;B"));
    MojoFailureException definition = assertThrows(MojoFailureException.class, run::execute);
    assertTrue(definition.getMessage().contains("<definitions>"), definition.getMessage());
  }

  /**
   * A workflow's setting the pipeline rejects (more cores than a generated program may have) fails the build at the
   * task parameter's line, named as the task names it; the same value given as this goal's {@code cores} is an
   * invalid configuration of the goal. Nothing is generated either way.
   */
  @Test
  void aWorkflowsSettingThePipelineRejectsFailsAtItsLine() throws Exception {
    GenerateMojo mojo = mojo("cacheflow");
    Path project = temp.resolve("filter-bank"); // the scenarios name the project by its folder
    set(mojo, "input", project.toFile());
    set(mojo, "basedir", project.toFile());
    Path example = Path.of("../../examples/filter-bank");
    try (var files = Files.walk(example)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        Path copy = project.resolve(example.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(copy);
        } else {
          Files.copy(file, copy);
        }
      }
    }
    Path workflow = project.resolve("Workflows/cacheflow.workflow");
    List<String> lines = Files.readAllLines(workflow);
    int line = 0;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains("name=\"Cores\"")) {
        lines.set(i, lines.get(i).replaceFirst("value=\"[^\"]*\"", "value=\"99\""));
        line = i + 1;
      }
    }
    assertTrue(line > 0, "the example's task has a Cores variable");
    Files.write(workflow, lines);
    set(mojo, "buildDirectory", temp.resolve("target").toFile());
    set(mojo, "pluginVersion", "test");
    MojoFailureException written = assertThrows(MojoFailureException.class, mojo::execute);
    assertTrue(written.getMessage().matches("error: " + Pattern.quote(workflow.toString()) + ":" + line
        + ":\\d+: 'Cores' must be at most 64, got 99"), written.getMessage());
    assertFalse(Files.exists(temp.resolve("out/main.c")), "nothing generated");
    set(mojo, "cores", 99);
    MojoFailureException given = assertThrows(MojoFailureException.class, mojo::execute);
    assertTrue(given.getMessage().startsWith("invalid cacheflow configuration: --cores must be at most 64"),
        given.getMessage());
  }

  /** The goal's fields that are not generation settings: they never change what is generated. */
  private static final List<String> NOT_SETTINGS = List.of("skip", "force", "basedir", "buildDirectory");

  /**
   * The up-to-date check covers every parameter: changing any one (each field Maven sets, found by reflection, so a
   * parameter added later is covered too) changes the fingerprint, for generate and for a workflow run.
   */
  @Test
  void changingAnyParameterChangesTheFingerprint() throws Exception {
    Files.createDirectories(temp.resolve("app"));
    int changed = 0;
    for (Field field : GenerateMojo.class.getDeclaredFields()) {
      if (java.lang.reflect.Modifier.isStatic(field.getModifiers()) || field.isSynthetic()
          || NOT_SETTINGS.contains(field.getName())) {
        continue;
      }
      for (String workflow : new String[] {null, "cacheflow"}) {
        if (field.getName().equals("workflow") && workflow != null) {
          continue;
        }
        GenerateMojo mojo = fingerprinted(workflow);
        String before = mojo.fingerprint(mojo.settings());
        set(mojo, field.getName(), otherValue(field));
        assertFalse(before.equals(mojo.fingerprint(mojo.settings())), field.getName() + " (workflow " + workflow + ")");
        changed++;
      }
    }
    assertTrue(changed >= 2 * 15, "fields tried: " + changed);
  }

  private GenerateMojo fingerprinted(String workflow) throws Exception {
    GenerateMojo mojo = mojo(workflow);
    set(mojo, "buildDirectory", temp.resolve("target").toFile());
    set(mojo, "pluginVersion", "1.0");
    return mojo;
  }

  /** A value of the field's type that differs from the unset default. */
  private Object otherValue(Field field) throws Exception {
    Class<?> type = field.getType();
    if (type == boolean.class) {
      return true;
    }
    if (type == Integer.class) {
      return 3;
    }
    if (type == String.class) {
      return "changed-" + field.getName();
    }
    if (type == File.class) {
      return Files.createDirectories(temp.resolve("changed-" + field.getName())).toFile();
    }
    if (type == List.class) {
      boolean files = field.getGenericType().getTypeName().contains("File");
      return List.of(files ? new File("changed-" + field.getName()) : "changed-" + field.getName());
    }
    throw new AssertionError("no other value for " + field + ": add one to this test");
  }

  /** Bad input reaches the Maven user as the typed error's file, line and column: no stack trace, no output. */
  @Test
  void badInputFailsTheBuildAtItsFileAndLine() throws Exception {
    Path graph = temp.resolve("broken.pi");
    Files.writeString(graph, "<?xml version=\"1.0\"?>\n<graphml>\n  <graph>\n</graphml>\n");
    GenerateMojo mojo = mojo(null);
    set(mojo, "input", graph.toFile());
    set(mojo, "buildDirectory", temp.resolve("target").toFile());
    set(mojo, "pluginVersion", "test");
    MojoFailureException failure = assertThrows(MojoFailureException.class, mojo::execute);
    assertTrue(failure.getMessage().matches("error: " + Pattern.quote(graph.toString()) + ":4:\\d+: .+"),
        failure.getMessage());
    assertFalse(Files.exists(temp.resolve("out")), "nothing written");
    assertFalse(Files.exists(temp.resolve("target/cacheflow/" + Integer.toHexString(temp.resolve("out").toFile()
        .getAbsolutePath().hashCode()) + ".inputs")), "no fingerprint recorded for a failed generation");
  }
}
