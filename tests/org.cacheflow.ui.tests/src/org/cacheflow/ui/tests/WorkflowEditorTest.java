package org.cacheflow.ui.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.cacheflow.ui.CacheflowUi;
import org.cacheflow.ui.editor.CacheflowTaskControls;
import org.cacheflow.ui.editor.WorkflowEditor;
import org.cacheflow.ui.editor.WorkflowFormPage;
import org.cacheflow.ui.workflow.WorkflowDocument;
import org.cacheflow.workflow.CodegenTask;
import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IProject;
import org.eclipse.jface.dialogs.IMessageProvider;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Table;
import org.eclipse.ui.ide.IDE;
import org.eclipse.ui.forms.editor.IFormPage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The workflow editor in a running workbench, driven as a user drives it. */
class WorkflowEditorTest {

  /** A workflow with what only PREESM knows — comments, a namespaced attribute, PREESM tasks — to be kept. */
  static final String WORKFLOW = """
      <?xml version="1.0" encoding="UTF-8"?>
      <!-- filter bank on two cores: keep this comment -->
      <dftools:workflow errorOnWarning="true" verboseLevel="INFO" xmlns:dftools="http://net.sf.dftools">
          <dftools:scenario pluginId="org.ietr.preesm.scenario.task"/>
          <dftools:task pluginId="pisdf-srdag" taskId="PiMM2SrDAG">
              <dftools:data key="variables">
                  <dftools:variable name="Consistency_Method" value="LCM"/>
              </dftools:data>
          </dftools:task>
          <dftools:task pluginId="org.cacheflow.workflow.codegen" taskId="cacheflow" xmlns:x="urn:other" x:note='kept'>
              <dftools:data key="variables">
                  <dftools:variable name="Memory strategy" value="Auto"/>
                  <dftools:variable name="Cores" value=""/>
                  <dftools:variable name="Target" value="zen4-vm"/>
                  <dftools:variable name="Overrides" value=""/>
                  <dftools:variable name="Synthetic actors" value="true"/>
                  <dftools:variable name="Output directory" value="Code/edited"/>
              </dftools:data>
          </dftools:task>
          <dftools:task pluginId="org.ietr.preesm.codegen.xtend.task.CodegenTask" taskId="Code Generation">
              <dftools:data key="variables">
                  <dftools:variable name="Printer" value="C"/>
              </dftools:data>
          </dftools:task>
          <dftools:dataTransfer from="scenario" sourceport="scenario" targetport="scenario" to="cacheflow"/>
      </dftools:workflow>
      """;

  @BeforeAll
  static void windowSize() {
    UiTesting.sizeWindow();
  }

  @AfterEach
  void closeEditors() {
    UiTesting.page().closeAllEditors(false);
  }

  private static WorkflowEditor open(IFile file) throws Exception {
    WorkflowEditor editor = (WorkflowEditor) IDE.openEditor(UiTesting.page(), file, CacheflowUi.EDITOR_ID);
    UiTesting.dispatch(editor.getSite().getShell().getDisplay());
    return editor;
  }

  private static Control formBody(WorkflowEditor editor) {
    IFormPage page = editor.findPage(WorkflowEditor.TASKS_PAGE_ID);
    return page.getManagedForm().getForm();
  }

  @Test
  void choosingAStrategyShowsItsEffectAndSavingChangesOnlyThatValue() throws Exception {
    IProject project = UiTesting.exampleProject();
    IFile file = UiTesting.write(project, "Workflows/Edited.workflow", WORKFLOW);
    WorkflowEditor editor = open(file);
    Control body = formBody(editor);

    Combo strategy = UiTesting.byData(body, CacheflowTaskControls.PARAMETER_KEY, CodegenTask.MEMORY_STRATEGY);
    Label effect = UiTesting.byData(body, CacheflowTaskControls.PARAMETER_KEY, CodegenTask.MEMORY_STRATEGY
        + ".effect");
    assertEquals("Auto", strategy.getText());
    assertEquals(effectOf("Auto"), effect.getText());
    assertFalse(editor.isDirty());

    strategy.select(strategy.indexOf("CopyOnWrite"));
    UiTesting.select(strategy);
    assertEquals(effectOf("CopyOnWrite"), effect.getText());
    assertTrue(editor.isDirty());
    String expected = WORKFLOW.replace("value=\"Auto\"", "value=\"CopyOnWrite\"");
    assertEquals(expected, editor.document().get(), "the source page shows the change at once");

    Path[] shot = new Path[1];
    UiTesting.maximized(editor, () -> shot[0] = UiTesting.screenshot("workflow-editor.png"));
    assertTrue(Files.size(shot[0]) > 10_000, "screenshot " + shot[0] + " looks empty");

    editor.doSave(null);
    assertFalse(editor.isDirty());
    assertEquals(expected, UiTesting.read(file), "saved: only the strategy's value changed");
  }

  @Test
  void otherVariablesAndTheOverrideTableWriteTheirValues() throws Exception {
    IProject project = UiTesting.exampleProject();
    IFile file = UiTesting.write(project, "Workflows/Edited.workflow", WORKFLOW);
    WorkflowEditor editor = open(file);
    Control body = formBody(editor);

    org.eclipse.swt.widgets.Text cores = UiTesting.byData(body, CacheflowTaskControls.PARAMETER_KEY,
        CodegenTask.CORES);
    cores.setText("3");
    Button synthetic = UiTesting.byData(body, CacheflowTaskControls.PARAMETER_KEY, CodegenTask.SYNTHETIC_ACTORS);
    assertTrue(synthetic.getSelection());
    synthetic.setSelection(false);
    UiTesting.select(synthetic);
    Button add = UiTesting.byData(body, CacheflowTaskControls.PARAMETER_KEY, CodegenTask.OVERRIDES + ".add");
    UiTesting.select(add);
    Table overrides = UiTesting.byData(body, CacheflowTaskControls.PARAMETER_KEY, CodegenTask.OVERRIDES);
    assertEquals(1, overrides.getItemCount());

    WorkflowDocument.Task task = WorkflowDocument.parse(editor.document().get()).task("cacheflow");
    assertEquals("3", task.value(CodegenTask.CORES));
    assertEquals("false", task.value(CodegenTask.SYNTHETIC_ACTORS));
    assertEquals("Actor.port=cow", task.value(CodegenTask.OVERRIDES));
    assertEquals(WORKFLOW.replace("name=\"Cores\" value=\"\"", "name=\"Cores\" value=\"3\"")
        .replace("name=\"Synthetic actors\" value=\"true\"", "name=\"Synthetic actors\" value=\"false\"")
        .replace("name=\"Overrides\" value=\"\"", "name=\"Overrides\" value=\"Actor.port=cow\""),
        editor.document().get(), "nothing but the three values changed");
    editor.doSave(null);
  }

  /** The control of a task parameter in the form, or the label of its effect ({@code parameter + ".effect"}). */
  private static <T extends Control> T control(Control body, String key) {
    return UiTesting.byData(body, CacheflowTaskControls.PARAMETER_KEY, key);
  }

  /** Types each value into its parameter's text, then checks that the task in the source holds them all. */
  private static void typeAndCheck(WorkflowEditor editor, Control body, String... parametersAndValues)
      throws Exception {
    for (int i = 0; i < parametersAndValues.length; i += 2) {
      org.eclipse.swt.widgets.Text text = control(body, parametersAndValues[i]);
      text.setText(parametersAndValues[i + 1]);
    }
    WorkflowDocument.Task task = WorkflowDocument.parse(editor.document().get()).task("cacheflow");
    for (int i = 0; i < parametersAndValues.length; i += 2) {
      assertEquals(parametersAndValues[i + 1], task.value(parametersAndValues[i]), parametersAndValues[i]);
    }
  }

  /** The actors' code settings are edited like the others; a variable the task lacks is added to it. */
  @Test
  void theActorsCodeSettingsAreEditedAndChecked() throws Exception {
    WorkflowEditor editor = open(UiTesting.write(UiTesting.exampleProject(), "Workflows/Actors.workflow", WORKFLOW));
    Control body = formBody(editor);
    typeAndCheck(editor, body, CodegenTask.LIBRARIES, "ZLIB::ZLIB; m", CodegenTask.ACTOR_SOURCES, "Code/src",
        CodegenTask.COMPILE_DEFINITIONS, "FRAMES=6");
    org.eclipse.swt.widgets.Text definitions = control(body, CodegenTask.COMPILE_DEFINITIONS);
    definitions.setText("2X");
    org.eclipse.swt.widgets.Label effect = control(body, CodegenTask.COMPILE_DEFINITIONS + ".effect");
    assertTrue(effect.getText().contains("'2X' is not NAME=VALUE or NAME"), effect.getText());
    editor.doSave(null);
  }

  /** The profile is a text row of the form, added to a task that lacks it. */
  @Test
  void theProfileIsEdited() throws Exception {
    WorkflowEditor editor = open(UiTesting.write(UiTesting.exampleProject(), "Workflows/Profile.workflow", WORKFLOW));
    Control body = formBody(editor);
    org.eclipse.swt.widgets.Text profile = control(body, CodegenTask.PROFILE);
    assertEquals("", profile.getText(), "no profile by default");
    typeAndCheck(editor, body, CodegenTask.PROFILE, "prof/profile.json");
    assertTrue(editor.document().get().contains("<dftools:variable name=\"Profile\" value=\"prof/profile.json\"/>"),
        editor.document().get());
    editor.doSave(null);
  }

  /** The node count is edited beside the cores, added to a task that lacks it, and checked. */
  @Test
  void theNodeCountIsEditedBesideTheCores() throws Exception {
    WorkflowEditor editor = open(UiTesting.write(UiTesting.exampleProject(), "Workflows/Nodes.workflow", WORKFLOW));
    Control body = formBody(editor);
    org.eclipse.swt.widgets.Text cores = control(body, CodegenTask.CORES);
    cores.setText("2");
    org.eclipse.swt.widgets.Text nodes = control(body, CodegenTask.NODES);
    assertEquals("", nodes.getText());
    nodes.setText("3");
    WorkflowDocument.Task task = WorkflowDocument.parse(editor.document().get()).task("cacheflow");
    assertEquals("2", task.value(CodegenTask.CORES));
    assertEquals("3", task.value(CodegenTask.NODES));
    assertTrue(editor.document().get().contains("<dftools:variable name=\"Nodes\" value=\"3\"/>"),
        editor.document().get());
    nodes.setText("0");
    org.eclipse.swt.widgets.Label effect = control(body, CodegenTask.NODES + ".effect");
    assertTrue(effect.getText().contains("'Nodes' must be a positive integer, got '0'"), effect.getText());
    editor.doSave(null);
  }

  /** The schedule is a drop-down with each choice's effect; variable actors and cost spreads are texts, checked. */
  @Test
  void theScheduleAndItsVariableActorsAreEdited() throws Exception {
    WorkflowEditor editor = open(UiTesting.write(UiTesting.exampleProject(), "Workflows/Schedule.workflow",
        WORKFLOW));
    Control body = formBody(editor);
    Combo schedule = control(body, CodegenTask.SCHEDULE);
    assertEquals("static", schedule.getText(), "the default, shown for a task without the variable");
    schedule.select(schedule.indexOf("hybrid"));
    UiTesting.select(schedule);
    Label effect = control(body, CodegenTask.SCHEDULE + ".effect");
    assertEquals(CodegenTask.DESCRIPTOR.parameter(CodegenTask.SCHEDULE).orElseThrow().value("hybrid").orElseThrow()
        .effect(), effect.getText());
    typeAndCheck(editor, body, CodegenTask.VARIABLE_ACTORS, "Blur; Sharpen", CodegenTask.COST_SPREAD,
        "Histogram=0.7");
    assertEquals("hybrid", WorkflowDocument.parse(editor.document().get()).task("cacheflow")
        .value(CodegenTask.SCHEDULE));
    org.eclipse.swt.widgets.Text spread = control(body, CodegenTask.COST_SPREAD);
    assertTrue(editor.document().get().contains("<dftools:variable name=\"Schedule\" value=\"hybrid\"/>"),
        editor.document().get());
    spread.setText("Histogram=high");
    Label spreadEffect = control(body, CodegenTask.COST_SPREAD + ".effect");
    assertTrue(spreadEffect.getText().contains("cost spread 'Histogram=high' is not ACTOR=CV"),
        spreadEffect.getText());
    editor.doSave(null);
  }

  @Test
  void sourceEditsShowInTheFormAndBrokenSourceDisablesIt() throws Exception {
    IProject project = UiTesting.exampleProject();
    IFile file = UiTesting.write(project, "Workflows/Edited.workflow", WORKFLOW);
    WorkflowEditor editor = open(file);
    Control body = formBody(editor);
    Combo strategy = UiTesting.byData(body, CacheflowTaskControls.PARAMETER_KEY, CodegenTask.MEMORY_STRATEGY);

    String text = editor.document().get();
    editor.document().replace(text.indexOf("\"Auto\"") + 1, 4, "NonTemporal");
    UiTesting.waitUntil("the form to follow the source", 10, () -> "NonTemporal".equals(strategy.getText()));

    editor.document().replace(0, editor.document().get().indexOf("<dftools:workflow"), "<broken");
    IFormPage page = editor.findPage(WorkflowEditor.TASKS_PAGE_ID);
    UiTesting.waitUntil("the form to report the broken source", 10,
        () -> page.getManagedForm().getForm().getMessageType() == IMessageProvider.ERROR);
    assertTrue(page.getManagedForm().getForm().getMessage().startsWith("The source is not a valid workflow (line"),
        page.getManagedForm().getForm().getMessage());
    assertFalse(page.getManagedForm().getForm().getBody().isEnabled());
  }

  @Test
  void aPreesmWorkflowGetsACacheflowTaskFromTheButton() throws Exception {
    IProject project = UiTesting.exampleProject();
    String preesm = WORKFLOW.substring(0, WORKFLOW.indexOf("    <dftools:task pluginId=\"org.cacheflow"))
        + WORKFLOW.substring(WORKFLOW.indexOf("    <dftools:task pluginId=\"org.ietr.preesm.codegen"))
            .replace("to=\"cacheflow\"", "to=\"Code Generation\"");
    IFile file = UiTesting.write(project, "Workflows/Preesm.workflow", preesm);
    WorkflowEditor editor = open(file);
    Control body = formBody(editor);
    Button add = UiTesting.byData(body, WorkflowFormPage.BUTTON_KEY, "addTask");
    assertTrue(add.isEnabled());
    UiTesting.select(add);
    assertFalse(add.isEnabled(), "one cacheflow task is enough");
    WorkflowDocument document = WorkflowDocument.parse(editor.document().get());
    assertEquals(1, document.cacheflowTasks().size());
    assertEquals(CodegenTask.DESCRIPTOR.defaults().size(), document.cacheflowTasks().get(0).variables().size());
    Combo strategy = UiTesting.byData(body, CacheflowTaskControls.PARAMETER_KEY, CodegenTask.MEMORY_STRATEGY);
    assertEquals("Auto", strategy.getText());
    assertNotNull(editor.tasksPage().workflow());
    editor.doSave(null);
    assertTrue(UiTesting.read(file).contains("<dftools:dataTransfer from=\"scenario\" sourceport=\"scenario\" "
        + "targetport=\"scenario\" to=\"cacheflow\"/>"));
  }

  private static String effectOf(String value) {
    return CodegenTask.DESCRIPTOR.parameter(CodegenTask.MEMORY_STRATEGY).orElseThrow().value(value).orElseThrow()
        .effect();
  }
}
