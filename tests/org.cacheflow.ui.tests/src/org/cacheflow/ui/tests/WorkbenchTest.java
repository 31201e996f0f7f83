package org.cacheflow.ui.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.cacheflow.ui.run.Generators;
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

  /** An IDE installed from the update site has no cacheflow checkout: the plug-in carries the C runtime. */
  @Test
  void theCRuntimePackedInThePluginIsFoundWithoutSettings() {
    org.junit.jupiter.api.Assumptions.assumeTrue(System.getenv("CACHEFLOW_HOME") == null,
        "CACHEFLOW_HOME is set and would be used instead; skipped");
    String saved = System.clearProperty(Generators.RUNTIME_PROPERTY);
    try {
      Path runtime = Generators.runtime(Path.of("Workflows", "x.workflow"));
      assertTrue(Files.isRegularFile(runtime.resolve("CMakeLists.txt")), runtime.toString());
      assertTrue(Files.isRegularFile(runtime.resolve("include/cacheflow/cacheflow.h")), runtime.toString());
      assertTrue(Files.isRegularFile(runtime.resolve("src/channel.c")), runtime.toString());
    } finally {
      if (saved != null) {
        System.setProperty(Generators.RUNTIME_PROPERTY, saved);
      }
    }
  }
}
