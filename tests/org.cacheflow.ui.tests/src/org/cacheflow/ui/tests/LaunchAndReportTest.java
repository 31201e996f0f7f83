package org.cacheflow.ui.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

import org.cacheflow.report.StrategyColors;
import org.cacheflow.plan.strategy.Strategy;
import org.cacheflow.ui.CacheflowUi;
import org.cacheflow.ui.editor.WorkflowEditor;
import org.cacheflow.ui.editor.WorkflowFormPage;
import org.cacheflow.ui.launch.GenerateJob;
import org.cacheflow.ui.launch.GenerateLaunchDelegate;
import org.cacheflow.ui.report.PlanReportJob;
import org.cacheflow.ui.report.PlanReportView;
import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IProject;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.debug.core.DebugPlugin;
import org.eclipse.debug.core.ILaunchConfiguration;
import org.eclipse.debug.ui.ILaunchShortcut;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.widgets.Button;
import org.eclipse.ui.IViewPart;
import org.eclipse.ui.ide.IDE;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The launch shortcut and the plan report, end to end in the workbench. */
class LaunchAndReportTest {

  @org.junit.jupiter.api.BeforeAll
  static void windowSize() {
    UiTesting.sizeWindow();
  }

  @AfterEach
  void closeEditors() {
    UiTesting.page().closeAllEditors(false);
  }

  @Test
  void theLaunchShortcutGeneratesTheProjectAndItsPlanReport() throws Exception {
    IProject project = UiTesting.exampleProject();
    IFile workflow = UiTesting.write(project, "Workflows/Edited.workflow", WorkflowEditorTest.WORKFLOW
        .replace("value=\"Auto\"", "value=\"CopyOnWrite\""));

    ILaunchShortcut shortcut = shortcut();
    IStatus result = UiTesting.runAndWaitForJob(GenerateJob.FAMILY, 120,
        () -> shortcut.launch(new StructuredSelection(workflow), "run"));
    assertTrue(result.isOK(), result.toString());
    IFile main = project.getFile("Code/edited/main.c");

    for (String generated : List.of("CMakeLists.txt", "graph.h", "core_0.c", "core_1.c",
        "cacheflow-runtime/CMakeLists.txt")) {
      assertTrue(project.getFile("Code/edited/" + generated).exists(), generated + " was not generated");
    }
    assertTrue(UiTesting.read(main).contains("int main"), "main.c has no main function");
    for (String report : List.of("plan.json", "plan.md", "graph.svg", "gantt.svg")) {
      assertTrue(project.getFile("Code/edited-plan/" + report).exists(), report + " was not written");
    }
    String plan = UiTesting.read(project.getFile("Code/edited-plan/plan.json"));
    assertTrue(plan.contains("\"cow\""), "the plan does not use the strategy chosen in the workflow");

    ILaunchConfiguration[] configurations = DebugPlugin.getDefault().getLaunchManager()
        .getLaunchConfigurations(DebugPlugin.getDefault().getLaunchManager()
            .getLaunchConfigurationType(CacheflowUi.LAUNCH_TYPE_ID));
    assertTrue(List.of(configurations).stream().anyMatch(c -> workflow.getFullPath().toString()
        .equals(attribute(c))), "no launch configuration remembers the workflow");
  }

  /** "Run As > Generate code with cacheflow" is offered on workflow files, and on nothing else. */
  @Test
  void theShortcutIsOfferedOnWorkflowFilesOnly() throws Exception {
    IProject project = UiTesting.exampleProject();
    org.eclipse.core.runtime.IConfigurationElement enablement = null;
    for (org.eclipse.core.runtime.IConfigurationElement shortcut : org.eclipse.core.runtime.Platform
        .getExtensionRegistry().getConfigurationElementsFor("org.eclipse.debug.ui.launchShortcuts")) {
      if ("org.cacheflow.ui.generateShortcut".equals(shortcut.getAttribute("id"))) {
        assertEquals("Generate code with cacheflow", shortcut.getAttribute("label"));
        enablement = shortcut.getChildren("contextualLaunch")[0].getChildren("enablement")[0];
      }
    }
    assertNotNull(enablement, "the launch shortcut is not registered");
    org.eclipse.core.expressions.Expression expression = org.eclipse.core.expressions.ExpressionConverter
        .getDefault().perform(enablement);
    assertEquals(org.eclipse.core.expressions.EvaluationResult.TRUE,
        offered(expression, project.getFile("Workflows/cacheflow.workflow")));
    assertEquals(org.eclipse.core.expressions.EvaluationResult.FALSE,
        offered(expression, project.getFile("Algo/filter_bank.pi")));
    assertEquals(org.eclipse.core.expressions.EvaluationResult.FALSE,
        offered(expression, project.getFile("Workflows/cacheflow.workflow"), project.getFile("Algo/filter_bank.pi")));
  }

  private static org.eclipse.core.expressions.EvaluationResult offered(
      org.eclipse.core.expressions.Expression expression, Object... selected) throws Exception {
    List<Object> selection = List.of(selected);
    org.eclipse.core.expressions.EvaluationContext context = new org.eclipse.core.expressions.EvaluationContext(
        null, selection);
    context.addVariable("selection", selection);
    return expression.evaluate(context);
  }

  @Test
  void aRunThatFailsMarksWhereItFailed() throws Exception {
    IProject project = UiTesting.exampleProject();
    IFile workflow = UiTesting.write(project, "Workflows/Edited.workflow", WorkflowEditorTest.WORKFLOW
        .replace("value=\"zen4-vm\"", "value=\"no-such-target\""));
    IStatus result = UiTesting.runAndWaitForJob(GenerateJob.FAMILY, 60,
        () -> shortcut().launch(new StructuredSelection(workflow), "run"));
    assertEquals(IStatus.ERROR, result.getSeverity());
    assertTrue(result.getMessage().contains("Edited.workflow:14:"), result.getMessage());
    assertTrue(markerMessages(workflow).stream().anyMatch(m -> m.contains("no such target file")),
        markerMessages(workflow).toString());
    assertTrue(!project.getFile("Code/edited/main.c").exists(), "nothing is generated after an error");
  }

  /** The pipeline's typed error reaches a marker on the file it names (the graph, not the workflow), at its line. */
  @Test
  void badInputIsMarkedInItsOwnFileAtItsLine() throws Exception {
    IProject project = UiTesting.exampleProject();
    IFile workflow = UiTesting.write(project, "Workflows/Edited.workflow", WorkflowEditorTest.WORKFLOW);
    IFile graph = UiTesting.write(project, "Algo/filter_bank.pi",
        "<?xml version=\"1.0\"?>\n<graphml>\n  <graph>\n</graphml>\n");
    IStatus result = UiTesting.runAndWaitForJob(GenerateJob.FAMILY, 60,
        () -> shortcut().launch(new StructuredSelection(workflow), "run"));
    assertEquals(IStatus.ERROR, result.getSeverity());
    assertTrue(result.getMessage().contains("filter_bank.pi:4:"), result.getMessage());
    org.eclipse.core.resources.IMarker[] markers = org.cacheflow.ui.markers.WorkflowMarkers.markers(graph);
    assertEquals(1, markers.length, markerMessages(graph).toString());
    assertEquals(4, markers[0].getAttribute(org.eclipse.core.resources.IMarker.LINE_NUMBER, 0));
    assertEquals(org.eclipse.core.resources.IMarker.SEVERITY_ERROR,
        markers[0].getAttribute(org.eclipse.core.resources.IMarker.SEVERITY, -1));
    assertTrue(!project.getFile("Code/edited/main.c").exists(), "nothing is generated after an error");
  }

  @Test
  void theEditorShowsThePlanReportWithTheGanttChartAndTheColouredGraph() throws Exception {
    IProject project = UiTesting.exampleProject();
    IFile workflow = UiTesting.write(project, "Workflows/Edited.workflow", WorkflowEditorTest.WORKFLOW
        .replace("value=\"Auto\"", "value=\"NonTemporal\""));
    WorkflowEditor editor = (WorkflowEditor) IDE.openEditor(UiTesting.page(), workflow, CacheflowUi.EDITOR_ID);
    UiTesting.dispatch(editor.getSite().getShell().getDisplay());
    Button show = UiTesting.byData(editor.findPage(WorkflowEditor.TASKS_PAGE_ID).getManagedForm().getForm(),
        WorkflowFormPage.BUTTON_KEY, "report");
    IStatus result = UiTesting.runAndWaitForJob(PlanReportJob.FAMILY, 120, () -> UiTesting.select(show));
    assertTrue(result.isOK(), result.toString());
    UiTesting.waitUntil("the plan report view", 20, () -> view() != null && view().report() != null);

    PlanReportView view = view();
    assertEquals(project.getFile("Code/edited-plan").getLocation().toPath(), view.report());
    ImageData gantt = view.ganttImage();
    ImageData graph = view.graphImage();
    assertNotNull(gantt, "no Gantt chart drawn");
    assertNotNull(graph, "no graph drawn");
    assertTrue(gantt.width > 200 && gantt.height > 50, "Gantt chart " + gantt.width + "x" + gantt.height);
    assertTrue(UiTesting.colours(gantt, 8) >= 8, "the Gantt chart looks blank");
    // every strategy of the graph's legend has its colour in the drawn graph
    List<Strategy> used = legend(Files.readString(view.report().resolve("graph.svg")));
    assertTrue(!used.isEmpty(), "graph.svg has no strategy legend");
    for (Strategy strategy : used) {
      assertTrue(contains(graph, StrategyColors.of(strategy)), "the graph has no FIFO drawn in the colour of "
          + strategy);
    }
    assertTrue(view.summaryText().length() > 100, "plan.md is not shown");
    view.selectTab(1);
    UiTesting.maximized(view, () -> UiTesting.screenshot("plan-report.png"));
  }

  private static PlanReportView view() {
    IViewPart part = UiTesting.page().findView(CacheflowUi.REPORT_VIEW_ID);
    return part instanceof PlanReportView view ? view : null;
  }

  /** The strategies named in the legend of a drawn graph ({@code <text ...>label: meaning</text>}). */
  private static List<Strategy> legend(String svg) {
    List<Strategy> used = new ArrayList<>();
    for (Strategy strategy : Strategy.values()) {
      if (svg.contains(">" + strategy.label + ": " + StrategyColors.meaning(strategy) + "<")) {
        used.add(strategy);
      }
    }
    return used;
  }

  /** Whether {@code data} has a pixel within a small distance of the colour {@code #rrggbb}. */
  private static boolean contains(ImageData data, String hex) {
    int rgb = Integer.parseInt(hex.substring(1), 16);
    int r = rgb >> 16 & 0xFF;
    int g = rgb >> 8 & 0xFF;
    int b = rgb & 0xFF;
    for (int y = 0; y < data.height; y++) {
      for (int x = 0; x < data.width; x++) {
        org.eclipse.swt.graphics.RGB pixel = data.palette.getRGB(data.getPixel(x, y));
        if (Math.abs(pixel.red - r) + Math.abs(pixel.green - g) + Math.abs(pixel.blue - b) < 24) {
          return true;
        }
      }
    }
    return false;
  }

  static ILaunchShortcut shortcut() {
    return new org.cacheflow.ui.launch.GenerateLaunchShortcut();
  }

  private static String attribute(ILaunchConfiguration configuration) {
    try {
      return configuration.getAttribute(GenerateLaunchDelegate.WORKFLOW, "");
    } catch (org.eclipse.core.runtime.CoreException e) {
      return "";
    }
  }

  static List<String> markerMessages(IFile file) {
    try {
      List<String> messages = new ArrayList<>();
      for (org.eclipse.core.resources.IMarker marker : org.cacheflow.ui.markers.WorkflowMarkers.markers(file)) {
        messages.add(marker.getAttribute(org.eclipse.core.resources.IMarker.MESSAGE, ""));
      }
      return messages;
    } catch (org.eclipse.core.runtime.CoreException e) {
      return List.of();
    }
  }
}
