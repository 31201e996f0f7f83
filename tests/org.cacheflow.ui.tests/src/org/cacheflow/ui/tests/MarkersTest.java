package org.cacheflow.ui.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Comparator;

import org.cacheflow.ui.markers.WorkflowMarkers;
import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IMarker;
import org.eclipse.core.resources.IProject;
import org.junit.jupiter.api.Test;

/** Problem markers follow workflow files as they change, whoever changes them. */
class MarkersTest {

  @Test
  void invalidVariablesAreMarkedAtTheirLinesAndFixingThemClearsTheMarkers() throws Exception {
    IProject project = UiTesting.exampleProject();
    String broken = WorkflowEditorTest.WORKFLOW.replace("value=\"Auto\"", "value=\"cow\"")
        .replace("name=\"Cores\" value=\"\"", "name=\"Cores\" value=\"two\"")
        .replace("name=\"Target\"", "name=\"Targt\"");
    IFile file = UiTesting.write(project, "Workflows/Broken.workflow", broken);
    UiTesting.waitUntil("three error markers", 30, () -> errors(file) == 3);

    IMarker[] markers = WorkflowMarkers.markers(file);
    Arrays.sort(markers, Comparator.comparingInt(m -> m.getAttribute(IMarker.LINE_NUMBER, 0)));
    assertEquals(12, markers[0].getAttribute(IMarker.LINE_NUMBER, 0));
    assertTrue(message(markers[0]).startsWith("'cow' is not a value of 'Memory strategy'"), message(markers[0]));
    assertEquals(13, markers[1].getAttribute(IMarker.LINE_NUMBER, 0));
    assertEquals("'Cores' must be a positive integer, got 'two'", message(markers[1]));
    assertEquals(14, markers[2].getAttribute(IMarker.LINE_NUMBER, 0));
    assertTrue(message(markers[2]).contains("did you mean 'Target'?"), message(markers[2]));

    UiTesting.write(project, "Workflows/Broken.workflow", WorkflowEditorTest.WORKFLOW);
    UiTesting.waitUntil("the markers to go", 30, () -> LaunchAndReportTest.markerMessages(file).isEmpty());
  }

  @Test
  void malformedXmlIsOneMarker() throws Exception {
    IProject project = UiTesting.exampleProject();
    IFile file = UiTesting.write(project, "Workflows/Malformed.workflow",
        WorkflowEditorTest.WORKFLOW.replace("</dftools:data>\n    </dftools:task>\n    <dftools:task "
            + "pluginId=\"org.ietr",
            "</dftools:dat>\n    </dftools:task>\n    <dftools:task pluginId=\"org.ietr"));
    UiTesting.waitUntil("an error marker", 30, () -> errors(file) == 1);
    IMarker marker = WorkflowMarkers.markers(file)[0];
    assertEquals(18, marker.getAttribute(IMarker.LINE_NUMBER, 0));
    assertTrue(message(marker).startsWith("end tag </dftools:dat> does not match <dftools:data>"), message(marker));
  }

  private static int errors(IFile file) {
    try {
      return (int) Arrays.stream(WorkflowMarkers.markers(file))
          .filter(m -> m.getAttribute(IMarker.SEVERITY, -1) == IMarker.SEVERITY_ERROR).count();
    } catch (org.eclipse.core.runtime.CoreException e) {
      return -1;
    }
  }

  private static String message(IMarker marker) {
    return marker.getAttribute(IMarker.MESSAGE, "");
  }
}
