package org.cacheflow.io.workflow;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.cacheflow.io.xml.LocatedXmlReader;
import org.cacheflow.io.xml.XmlElement;
import org.cacheflow.model.Located;
import org.cacheflow.model.ModelFactory;
import org.cacheflow.model.TaskVariable;
import org.cacheflow.model.Workflow;
import org.cacheflow.model.WorkflowTask;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * Reads a PREESM {@code .workflow} ({@code <dftools:workflow>}) into a {@link Workflow}: one
 * {@link WorkflowTask} per {@code <dftools:task pluginId taskId>} in document order (name = taskId), with
 * the {@code <dftools:variable name value>}s of its {@code <dftools:data key="variables">}, each located at
 * its own line so that a bad setting (say an unknown "Data alignment") can be reported where it is written.
 * The {@code <dftools:scenario>} source node and the {@code <dftools:dataTransfer>} edges are not kept.
 */
public final class WorkflowReader {

  private WorkflowReader() {
  }

  /** Reads {@code file}; warnings go to {@code diagnostics}, errors are thrown as {@link InputException}. */
  public static Workflow read(Path file, Diagnostics diagnostics) {
    XmlElement root = LocatedXmlReader.read(file);
    if (!root.name().equals("workflow")) {
      throw root.error("not a PREESM workflow: the root element is <" + root.name()
          + ">, expected <dftools:workflow>");
    }
    ModelFactory factory = ModelFactory.eINSTANCE;
    Workflow workflow = factory.createWorkflow();
    locate(workflow, root.location());
    Set<String> taskIds = new LinkedHashSet<>();
    for (XmlElement taskElement : root.children("task")) {
      String taskId = taskElement.requireAttribute("taskId").trim();
      if (!taskIds.add(taskId)) {
        throw taskElement.error("workflow task '" + taskId + "' is defined twice");
      }
      WorkflowTask task = factory.createWorkflowTask();
      locate(task, taskElement.location());
      task.setName(taskId);
      task.setPluginId(taskElement.requireAttribute("pluginId").trim());
      Map<String, TaskVariable> variables = new LinkedHashMap<>();
      for (XmlElement data : taskElement.children("data")) {
        if (!"variables".equals(data.attribute("key").orElse(""))) {
          continue;
        }
        for (XmlElement variableElement : data.children("variable")) {
          String name = variableElement.requireAttribute("name").trim();
          String value = variableElement.attribute("value").orElseThrow(() -> variableElement.error(
              "variable '" + name + "' of task '" + taskId + "' has no 'value' attribute"));
          TaskVariable variable = factory.createTaskVariable();
          locate(variable, variableElement.location());
          variable.setName(name);
          variable.setValue(value);
          TaskVariable previous = variables.put(name, variable);
          if (previous != null) {
            task.getVariables().remove(previous);
            diagnostics.warn(variableElement.location(), "variable '" + name + "' of task '" + taskId
                + "' is set twice; the last value is used");
          }
          task.getVariables().add(variable);
        }
      }
      workflow.getTasks().add(task);
    }
    return workflow;
  }

  /** The first task run by plug-in {@code pluginId}, e.g. {@code org.ietr.preesm.memory.script.MemoryScriptTask}. */
  public static Optional<WorkflowTask> findTask(Workflow workflow, String pluginId) {
    return workflow.getTasks().stream().filter(task -> pluginId.equals(task.getPluginId())).findFirst();
  }

  /** The variable {@code name} of {@code task}, if set. */
  public static Optional<TaskVariable> findVariable(WorkflowTask task, String name) {
    return task.getVariables().stream().filter(variable -> name.equals(variable.getName())).findFirst();
  }

  private static void locate(Located element, SourceLocation location) {
    element.setFile(location.file());
    element.setLine(location.line());
    element.setColumn(location.column());
  }
}
