package org.cacheflow.workflow;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.cacheflow.io.workflow.WorkflowReader;
import org.cacheflow.model.Workflow;
import org.cacheflow.model.WorkflowTask;
import org.cacheflow.model.diagnostics.Diagnostics;

/** Small workflow files written by tests. */
public final class Workflows {

  private Workflows() {
  }

  /**
   * A workflow whose only task is a cacheflow task with the given variable lines (each a
   * {@code <dftools:variable>} element). The task element is on line 4, the first variable on line 6.
   */
  public static String cacheflowTask(String... variables) {
    StringBuilder xml = new StringBuilder();
    xml.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    xml.append("<dftools:workflow xmlns:dftools=\"http://net.sf.dftools\">\n");
    xml.append("    <dftools:scenario pluginId=\"org.ietr.preesm.scenario.task\"/>\n");
    xml.append(taskElement(variables));
    xml.append("    <dftools:dataTransfer from=\"scenario\" sourceport=\"scenario\" targetport=\"scenario\" "
        + "to=\"gen\"/>\n");
    xml.append("</dftools:workflow>\n");
    return xml.toString();
  }

  /** The cacheflow task element alone, with task id {@code gen}, indented as in a workflow (5 + n lines). */
  public static String taskElement(String... variables) {
    StringBuilder xml = new StringBuilder();
    xml.append("    <dftools:task pluginId=\"").append(CodegenTask.PLUGIN_ID).append("\" taskId=\"gen\">\n");
    xml.append("        <dftools:data key=\"variables\">\n");
    for (String variable : variables) {
      xml.append("            ").append(variable).append('\n');
    }
    xml.append("        </dftools:data>\n    </dftools:task>\n");
    return xml.toString();
  }

  public static String variable(String name, String value) {
    return "<dftools:variable name=\"" + name + "\" value=\"" + value + "\"/>";
  }

  public static Path write(Path file, String text) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      Files.writeString(file, text, StandardCharsets.UTF_8);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The first task of the workflow in {@code text}, read from {@code file}. */
  public static WorkflowTask firstTask(Path file, String text) {
    Workflow workflow = WorkflowReader.read(write(file, text), new Diagnostics());
    return workflow.getTasks().get(0);
  }
}
