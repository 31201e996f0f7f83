package org.cacheflow.ui.workflow;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.cacheflow.ui.workflow.XmlScanner.Attribute;
import org.cacheflow.ui.workflow.XmlScanner.Element;
import org.cacheflow.ui.workflow.XmlScanner.SyntaxException;
import org.cacheflow.workflow.CodegenTask;
import org.cacheflow.workflow.run.TaskRole;

/**
 * The text of a PREESM {@code .workflow} file seen as tasks and variables, for an editor. Changes are computed as
 * {@link TextEdit}s on the text that touch only the variable being set (or insert one element), so that
 * everything else in the file — comments, formatting, the data transfers, attributes and elements cacheflow does
 * not know — stays byte for byte as it was.
 */
public final class WorkflowDocument {

  /** One {@code <dftools:task>}. */
  public record Task(String taskId, String pluginId, int line, List<Variable> variables, Element element) {

    /** What cacheflow does with the task (see {@link TaskRole}). */
    public TaskRole role() {
      if (CodegenTask.PLUGIN_ID.equals(pluginId)) {
        return TaskRole.CACHEFLOW;
      }
      return TaskRole.PREESM_CODE_GENERATORS.contains(pluginId) ? TaskRole.PREESM_CODE_GENERATION
          : TaskRole.NOT_NEEDED;
    }

    /** The value of variable {@code name} (the last one when given twice, as PREESM reads it), or null. */
    public String value(String name) {
      Variable found = variable(name);
      return found == null ? null : found.value();
    }

    /** The variable {@code name} (the last one when given twice), or null. */
    public Variable variable(String name) {
      Variable found = null;
      for (Variable variable : variables) {
        if (variable.name().equals(name)) {
          found = variable;
        }
      }
      return found;
    }
  }

  /** One {@code <dftools:variable name value>}. */
  public record Variable(String name, String value, int line, Element element) {
  }

  private final String text;
  private final Element root;
  private final List<Task> tasks;
  private final String lineSeparator;

  private WorkflowDocument(String text, Element root, List<Task> tasks) {
    this.text = text;
    this.root = root;
    this.tasks = List.copyOf(tasks);
    this.lineSeparator = text.contains("\r\n") ? "\r\n" : "\n";
  }

  /**
   * Reads {@code text}.
   *
   * @throws SyntaxException when the text is not well-formed XML or not a workflow, with its line and column
   */
  public static WorkflowDocument parse(String text) throws SyntaxException {
    Element root = XmlScanner.scan(text);
    if (!root.localName().equals("workflow")) {
      throw new SyntaxException(root.line(), root.column(), "not a PREESM workflow: the root element is <"
          + root.name() + ">, expected <dftools:workflow>");
    }
    List<Task> tasks = new ArrayList<>();
    for (Element taskElement : root.children("task")) {
      String taskId = taskElement.attributeValue("taskId");
      String pluginId = taskElement.attributeValue("pluginId");
      if (taskId == null || pluginId == null) {
        throw new SyntaxException(taskElement.line(), taskElement.column(), "<" + taskElement.name()
            + "> needs the attributes 'taskId' and 'pluginId'");
      }
      List<Variable> variables = new ArrayList<>();
      Element data = variablesElement(taskElement);
      if (data != null) {
        for (Element variable : data.children("variable")) {
          String name = variable.attributeValue("name");
          if (name == null) {
            throw new SyntaxException(variable.line(), variable.column(), "<" + variable.name()
                + "> needs the attribute 'name'");
          }
          String value = variable.attributeValue("value");
          variables.add(new Variable(name.trim(), value == null ? "" : value, variable.line(), variable));
        }
      }
      tasks.add(new Task(taskId.trim(), pluginId.trim(), taskElement.line(), variables, taskElement));
    }
    return new WorkflowDocument(text, root, tasks);
  }

  public String text() {
    return text;
  }

  public List<Task> tasks() {
    return tasks;
  }

  /** The task with that id, or null. */
  public Task task(String taskId) {
    return tasks.stream().filter(task -> task.taskId().equals(taskId)).findFirst().orElse(null);
  }

  /** The cacheflow tasks, in document order. */
  public List<Task> cacheflowTasks() {
    return tasks.stream().filter(task -> task.role() == TaskRole.CACHEFLOW).toList();
  }

  /**
   * The edit that gives variable {@code name} of {@code task} the value {@code value}: the value between the
   * quotes is replaced when the variable exists (the last one, which is the one in force); otherwise a variable
   * element is added after the task's last variable, indented like its neighbours.
   */
  public TextEdit setVariable(Task task, String name, String value) {
    Variable existing = task.variable(name);
    if (existing != null) {
      Attribute attribute = existing.element().attribute("value");
      if (attribute != null) {
        char quote = text.charAt(attribute.valueStart() - 1);
        return new TextEdit(attribute.valueStart(), attribute.valueEnd() - attribute.valueStart(),
            XmlScanner.escapeAttribute(value, quote));
      }
      // <variable name="x"/> without a value: add the attribute after the name
      Attribute nameAttribute = existing.element().attribute("name");
      return new TextEdit(nameAttribute.valueEnd() + 1, 0, " value=\"" + XmlScanner.escapeAttribute(value, '"')
          + "\"");
    }
    Element taskElement = task.element();
    String prefix = taskElement.prefix();
    String variableElement = "<" + prefix + "variable name=\"" + XmlScanner.escapeAttribute(name, '"')
        + "\" value=\"" + XmlScanner.escapeAttribute(value, '"') + "\"/>";
    Element data = variablesElement(taskElement);
    if (data != null && !task.variables().isEmpty()) {
      Element last = task.variables().get(task.variables().size() - 1).element();
      return new TextEdit(last.end(), 0, lineSeparator + indentation(last.start()) + variableElement);
    }
    String unit = indentUnit();
    if (data != null) {
      String dataIndent = indentation(data.start());
      String inner = lineSeparator + dataIndent + unit + variableElement + lineSeparator + dataIndent;
      if (data.selfClosing()) {
        String open = text.substring(data.start(), data.startTagEnd() - 2).stripTrailing() + ">";
        return new TextEdit(data.start(), data.end() - data.start(), open + inner + "</" + data.name() + ">");
      }
      return new TextEdit(data.startTagEnd(), data.endTagStart() - data.startTagEnd(), inner);
    }
    String taskIndent = indentation(taskElement.start());
    String dataBlock = lineSeparator + taskIndent + unit + "<" + prefix + "data key=\"variables\">" + lineSeparator
        + taskIndent + unit + unit + variableElement + lineSeparator + taskIndent + unit + "</" + prefix + "data>"
        + lineSeparator + taskIndent;
    if (taskElement.selfClosing()) {
      String open = text.substring(taskElement.start(), taskElement.startTagEnd() - 2).stripTrailing() + ">";
      return new TextEdit(taskElement.start(), taskElement.end() - taskElement.start(), open + dataBlock + "</"
          + taskElement.name() + ">");
    }
    int contentStart = taskElement.startTagEnd();
    int contentEnd = taskElement.endTagStart();
    if (text.substring(contentStart, contentEnd).isBlank()) {
      return new TextEdit(contentStart, contentEnd - contentStart, dataBlock);
    }
    return new TextEdit(contentEnd, 0, dataBlock.substring(0, dataBlock.length() - taskIndent.length()
        - lineSeparator.length()));
  }

  /**
   * The edit that adds a cacheflow code generation task with every variable at its default, fed by the
   * scenario as PREESM workflows connect tasks: the task goes after the last task, its data transfer after the
   * last data transfer (or before the end of the workflow). One edit, so one undo removes both.
   *
   * @param taskId the new task's id; see {@link #unusedTaskId}
   */
  public TextEdit addCacheflowTask(String taskId) {
    String prefix = root.prefix();
    String unit = indentUnit();
    String indent = tasks.isEmpty() ? unit : indentation(tasks.get(tasks.size() - 1).element().start());
    StringBuilder task = new StringBuilder();
    task.append(lineSeparator).append(indent).append('<').append(prefix).append("task pluginId=\"")
        .append(CodegenTask.PLUGIN_ID).append("\" taskId=\"").append(XmlScanner.escapeAttribute(taskId, '"'))
        .append("\">");
    task.append(lineSeparator).append(indent).append(unit).append('<').append(prefix).append("data key=\"variables\">");
    for (Map.Entry<String, String> variable : CodegenTask.DESCRIPTOR.defaults().entrySet()) {
      task.append(lineSeparator).append(indent).append(unit).append(unit).append('<').append(prefix)
          .append("variable name=\"").append(XmlScanner.escapeAttribute(variable.getKey(), '"'))
          .append("\" value=\"").append(XmlScanner.escapeAttribute(variable.getValue(), '"')).append("\"/>");
    }
    task.append(lineSeparator).append(indent).append(unit).append("</").append(prefix).append("data>");
    task.append(lineSeparator).append(indent).append("</").append(prefix).append("task>");
    String transferElement = "<" + prefix + "dataTransfer from=\"scenario\" sourceport=\"scenario\" "
        + "targetport=\"scenario\" to=\"" + XmlScanner.escapeAttribute(taskId, '"') + "\"/>";

    int taskAt = insertionPointForTask();
    List<Element> transfers = root.children("dataTransfer");
    int transferAt;
    String transfer;
    if (!transfers.isEmpty()) {
      transferAt = transfers.get(transfers.size() - 1).end();
      transfer = lineSeparator + indent + transferElement;
    } else {
      transferAt = lineStartOrSelf(root.endTagStart());
      boolean ownLine = transferAt != root.endTagStart() || transferAt == 0 || text.charAt(transferAt - 1) == '\n';
      transfer = ownLine ? indent + transferElement + lineSeparator
          : lineSeparator + indent + transferElement + lineSeparator;
    }
    if (taskAt <= transferAt) {
      return new TextEdit(taskAt, transferAt - taskAt, task + text.substring(taskAt, transferAt) + transfer);
    }
    // the workflow lists data transfers before (some of) its tasks
    return new TextEdit(transferAt, taskAt - transferAt, transfer + text.substring(transferAt, taskAt) + task);
  }

  /** {@code base}, or {@code base 2}, {@code base 3}... whichever no task uses yet. */
  public String unusedTaskId(String base) {
    Set<String> used = new LinkedHashSet<>();
    tasks.forEach(task -> used.add(task.taskId()));
    if (!used.contains(base)) {
      return base;
    }
    int n = 2;
    while (used.contains(base + " " + n)) {
      n++;
    }
    return base + " " + n;
  }

  private int insertionPointForTask() {
    if (!tasks.isEmpty()) {
      return tasks.get(tasks.size() - 1).element().end();
    }
    List<Element> scenario = root.children("scenario");
    return scenario.isEmpty() ? root.startTagEnd() : scenario.get(scenario.size() - 1).end();
  }

  private static Element variablesElement(Element task) {
    for (Element data : task.children("data")) {
      if ("variables".equals(data.attributeValue("key"))) {
        return data;
      }
    }
    return null;
  }

  /** The white space before the first non-blank character of the line holding {@code offset}. */
  private String indentation(int offset) {
    int lineStart = text.lastIndexOf('\n', offset - 1) + 1;
    int end = lineStart;
    while (end < text.length() && (text.charAt(end) == ' ' || text.charAt(end) == '\t')) {
      end++;
    }
    return text.substring(lineStart, end);
  }

  /** The start of the line of {@code offset} when only white space precedes it there, else {@code offset}. */
  private int lineStartOrSelf(int offset) {
    int lineStart = text.lastIndexOf('\n', offset - 1) + 1;
    return text.substring(lineStart, offset).isBlank() ? lineStart : offset;
  }

  /** One level of indentation as the file writes it: that of the root's children, else four spaces. */
  private String indentUnit() {
    String rootIndent = indentation(root.start());
    for (Element child : root.children()) {
      String childIndent = indentation(child.start());
      if (childIndent.length() > rootIndent.length() && childIndent.startsWith(rootIndent)) {
        return childIndent.substring(rootIndent.length());
      }
    }
    return "    ";
  }
}
