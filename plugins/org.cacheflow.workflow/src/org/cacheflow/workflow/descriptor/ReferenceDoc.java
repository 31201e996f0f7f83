package org.cacheflow.workflow.descriptor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The Markdown reference of a task, generated from its {@link TaskDescriptor}: summary and description, the
 * parameter table (values, default, effect), the effect of every value, the errors, and a task element with
 * every default to paste into a {@code .workflow}. Documentation files hold it between two marker lines
 * ({@link #BEGIN} and {@link #END}) so it can be regenerated in place and checked for staleness.
 */
public final class ReferenceDoc {

  public static final String BEGIN = "<!-- BEGIN generated from the task descriptor: do not edit by hand -->";
  public static final String END = "<!-- END generated from the task descriptor -->";

  private ReferenceDoc() {
  }

  /** The reference section (without markers). */
  public static String markdown(TaskDescriptor task) {
    StringBuilder text = new StringBuilder();
    text.append("### ").append(task.name()).append(" (`").append(task.pluginId()).append("`)\n\n");
    text.append(task.summary()).append("\n\n").append(task.description()).append("\n\n");
    if (!task.inputs().isEmpty()) {
      text.append("Inputs: ").append(ports(task.inputs())).append(".");
      text.append(task.outputs().isEmpty() ? " Outputs: none.\n\n" : " Outputs: " + ports(task.outputs()) + ".\n\n");
    }

    text.append("| Variable | Value | Default | What it does |\n|---|---|---|---|\n");
    for (TaskParameter parameter : task.parameters()) {
      text.append("| `").append(parameter.name()).append("` | ").append(cell(valueColumn(parameter))).append(" | ")
          .append(cell(defaultColumn(parameter))).append(" | ").append(cell(parameter.description())).append(" |\n");
    }
    text.append('\n');
    text.append("A variable left out, or given an empty value, takes its default. Values of the listed choices are "
        + "matched regardless of case. Any other variable name is an error, reported with its file and line.\n\n");

    for (TaskParameter parameter : task.parameters()) {
      if (parameter.values().isEmpty()) {
        continue;
      }
      text.append("#### `").append(parameter.name()).append("`\n\n");
      for (AllowedValue value : parameter.values()) {
        text.append("- `").append(value.name()).append("`").append(value.name().equals(parameter.defaultValue())
            ? " (default)" : "").append(": ").append(value.effect()).append('\n');
      }
      text.append('\n');
    }

    text.append("#### Errors\n\n| Message | Cause and remedy |\n|---|---|\n");
    for (DocumentedError error : task.errors()) {
      text.append("| `").append(cell(error.message())).append("` | ").append(cell(error.remedy())).append(" |\n");
    }
    text.append('\n');

    text.append("#### The task with every default\n\n```xml\n").append(taskElement(task, "cacheflow"))
        .append("```\n");
    return text.toString();
  }

  /** A {@code <dftools:task>} element with every variable at its default, as a new task would be written. */
  public static String taskElement(TaskDescriptor task, String taskId) {
    StringBuilder xml = new StringBuilder();
    xml.append("<dftools:task pluginId=\"").append(task.pluginId()).append("\" taskId=\"").append(xmlEscape(taskId))
        .append("\">\n");
    xml.append("    <dftools:data key=\"variables\">\n");
    for (Map.Entry<String, String> variable : task.defaults().entrySet()) {
      xml.append("        <dftools:variable name=\"").append(xmlEscape(variable.getKey())).append("\" value=\"")
          .append(xmlEscape(variable.getValue())).append("\"/>\n");
    }
    xml.append("    </dftools:data>\n</dftools:task>\n");
    return xml.toString();
  }

  /**
   * {@code document} with the text between the marker lines replaced by {@code section}.
   *
   * @throws IllegalArgumentException when the markers are missing or out of order
   */
  public static String replaceSection(String document, String section) {
    int begin = document.indexOf(BEGIN);
    int end = document.indexOf(END);
    if (begin < 0 || end < begin) {
      throw new IllegalArgumentException("the document has no '" + BEGIN + "' ... '" + END + "' section");
    }
    int contentStart = begin + BEGIN.length();
    return document.substring(0, contentStart) + "\n" + section + document.substring(end);
  }

  /**
   * Regenerates the section of the task descriptor in a Markdown file: {@code ReferenceDoc FILE}. The descriptor
   * is {@code org.cacheflow.workflow.CodegenTask.DESCRIPTOR} (the only task so far).
   */
  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: ReferenceDoc <markdown file with the generated-section markers>");
      System.exit(2);
    }
    Path file = Path.of(args[0]);
    String document = Files.readString(file, StandardCharsets.UTF_8);
    String updated = replaceSection(document, markdown(org.cacheflow.workflow.CodegenTask.DESCRIPTOR));
    Files.writeString(file, updated, StandardCharsets.UTF_8);
  }

  private static String valueColumn(TaskParameter parameter) {
    return switch (parameter.kind()) {
      case CHOICE, BOOLEAN -> String.join(" \\| ", parameter.values().stream().map(v -> "`" + v.name() + "`")
          .toList());
      case NAME_OR_FILE -> String.join(" \\| ", parameter.values().stream().map(v -> "`" + v.name() + "`")
          .toList()) + ", or " + parameter.syntax();
      default -> parameter.syntax();
    };
  }

  private static String defaultColumn(TaskParameter parameter) {
    if (!parameter.defaultValue().isEmpty() && parameter.defaultMeaning().equals(parameter.defaultValue())) {
      return "`" + parameter.defaultValue() + "`";
    }
    return parameter.defaultMeaning();
  }

  private static String ports(List<TaskPort> ports) {
    return String.join(", ", ports.stream().map(port -> "`" + port.name() + "` (" + port.description() + ")")
        .toList());
  }

  /** Table cells cannot hold line breaks or bare pipes. */
  private static String cell(String text) {
    return text.replace("\n", " ").replaceAll("(?<!\\\\)\\|", "\\\\|");
  }

  private static String xmlEscape(String text) {
    return text.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
