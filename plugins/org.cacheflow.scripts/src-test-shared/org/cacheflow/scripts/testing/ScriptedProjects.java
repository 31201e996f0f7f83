package org.cacheflow.scripts.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Small PREESM projects that tests write into a temporary folder: a graph {@code Algo/top.pi} and memory scripts
 * under {@code Code/Scripts/}, as the planner's and the command line's script tests read them.
 */
public final class ScriptedProjects {

  /** Where a graph's {@code memoryScript} values point, relative to the project. */
  public static final String SCRIPTS = "Code/Scripts/";

  /**
   * Actors A, B and C in a chain, each FIFO carrying n = 8 tokens; only B has a memory script. Line 11 is B's
   * {@code memoryScript}, where errors about the script file are reported.
   */
  private static final String CHAIN_WITH_SCRIPTED_MIDDLE = """
      <?xml version="1.0" encoding="UTF-8"?>
      <graphml xmlns="http://graphml.graphdrawing.org/xmlns">
          <key attr.name="memoryScript" attr.type="string" for="node"/>
          <graph edgedefault="directed">
              <data key="name">top</data>
              <node expr="8" id="n" kind="param"/>
              <node id="A" kind="actor">
                  <port kind="cfg_input" name="n"/>
                  <port annotation="NONE" expr="n" kind="output" name="out"/>
              </node>
              <node id="B" kind="actor">
                  <data key="memoryScript">Code/Scripts/%1$s</data>
                  <port kind="cfg_input" name="n"/>
                  <port annotation="NONE" expr="n" kind="input" name="in"/>
                  <port annotation="NONE" expr="n" kind="output" name="out"/>
              </node>
              <node id="C" kind="actor">
                  <port annotation="READ_ONLY" expr="n" kind="input" name="in"/>
              </node>
              <edge kind="fifo" source="A" sourceport="out" target="B" targetport="in" type="%2$s"/>
              <edge kind="fifo" source="B" sourceport="out" target="C" targetport="in" type="%2$s"/>
              <edge kind="dependency" source="n" target="A" targetport="n"/>
              <edge kind="dependency" source="n" target="B" targetport="n"/>
          </graph>
      </graphml>
      """;

  private ScriptedProjects() {
  }

  /**
   * Writes the chain A -> B -> C of n = 8 tokens of {@code tokenType} (a C type: {@code char}, {@code int}) where
   * B runs {@code Code/Scripts/scriptName}; B's {@code memoryScript} is on line 11 of the graph.
   *
   * @param script the script's text, or null to leave the file out
   * @return the graph file
   */
  public static Path writeChain(Path project, String tokenType, String scriptName, String script)
      throws IOException {
    String graph = String.format(CHAIN_WITH_SCRIPTED_MIDDLE, scriptName, tokenType);
    return write(project, graph, script == null ? Map.of() : Map.of(scriptName, script));
  }

  /**
   * Writes {@code graph} as {@code Algo/top.pi} and each script under {@code Code/Scripts/} by its file name.
   *
   * @return the graph file
   */
  public static Path write(Path project, String graph, Map<String, String> scripts) throws IOException {
    Files.createDirectories(project.resolve("Algo"));
    Files.createDirectories(project.resolve(SCRIPTS));
    Path graphFile = Files.writeString(project.resolve("Algo/top.pi"), graph);
    for (Map.Entry<String, String> script : scripts.entrySet()) {
      Files.writeString(project.resolve(SCRIPTS + script.getKey()), script.getValue());
    }
    return graphFile;
  }
}
