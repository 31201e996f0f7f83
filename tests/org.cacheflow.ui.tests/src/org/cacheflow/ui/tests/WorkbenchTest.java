package org.cacheflow.ui.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.eclipse.e4.ui.css.swt.dom.WidgetElement;
import org.eclipse.swt.widgets.Display;
import org.eclipse.ui.PlatformUI;
import org.junit.jupiter.api.Test;
import org.osgi.framework.Bundle;
import org.osgi.framework.FrameworkUtil;

/**
 * The workbench the tests run in is a real one: the IDE application with its styling. The CSS engine fails
 * silently without batik (the other tests would still pass), so its presence is checked here.
 */
class WorkbenchTest {

  @Test
  void theIdeWorkbenchRunsWithItsCssEngine() {
    assertTrue(PlatformUI.isWorkbenchRunning());
    assertEquals(1, PlatformUI.getWorkbench().getWorkbenchWindowCount());
    assertNotNull(WidgetElement.getEngine(Display.getCurrent()), "no CSS engine on the display (batik missing?)");
    Bundle batik = null;
    for (Bundle bundle : FrameworkUtil.getBundle(WorkbenchTest.class).getBundleContext().getBundles()) {
      if (bundle.getSymbolicName().equals("org.apache.batik.css")) {
        batik = bundle;
      }
    }
    assertNotNull(batik, "batik's CSS parser is not installed");
    assertTrue((batik.getState() & (Bundle.RESOLVED | Bundle.ACTIVE | Bundle.STARTING)) != 0,
        "batik's CSS parser is not resolved: state " + batik.getState());
  }
}
