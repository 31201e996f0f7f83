package org.cacheflow.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.cacheflow.io.pisdf.PiReader;
import org.cacheflow.io.scenario.TokenSizeResolver;
import org.cacheflow.model.Graph;
import org.cacheflow.model.ModelPackage;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.analysis.AnalysisResult;
import org.cacheflow.analysis.GraphAnalysis;
import org.cacheflow.analysis.srdag.SingleRateExpansion;
import org.cacheflow.analysis.srdag.Srdag;
import org.eclipse.emf.ecore.EPackage;
import org.junit.jupiter.api.Test;
import org.osgi.framework.Bundle;
import org.osgi.framework.FrameworkUtil;

/**
 * Runs inside an OSGi framework with the bundles as they are shipped, so a missing Export-Package,
 * Require-Bundle or plugin.xml registration fails here even when the plain unit tests pass.
 */
class BundlePipelineTest {

  @Test
  void everyCacheflowBundleResolvesAndStarts() throws Exception {
    Bundle self = FrameworkUtil.getBundle(BundlePipelineTest.class);
    int found = 0;
    for (Bundle bundle : self.getBundleContext().getBundles()) {
      if (bundle.getSymbolicName().startsWith("org.cacheflow.")) {
        found++;
        if ((bundle.getState() & (Bundle.INSTALLED)) != 0) {
          bundle.start();
        }
        assertTrue((bundle.getState() & (Bundle.RESOLVED | Bundle.STARTING | Bundle.ACTIVE)) != 0,
            bundle.getSymbolicName() + " did not resolve");
      }
    }
    assertTrue(found >= 5, "expected the model, io, scripts, plan and test bundles, found " + found);
  }

  @Test
  void modelPackageIsRegisteredThroughPluginXml() {
    assertNotNull(EPackage.Registry.INSTANCE.getEPackage(ModelPackage.eNS_URI),
        "the generated_package extension in org.cacheflow.model/plugin.xml is not effective");
  }

  @Test
  void bundledExampleIsReadAnalysedAndExpanded() {
    Path example = Path.of(System.getProperty("cacheflow.examples", "examples"), "filter-bank", "Algo",
        "filter_bank.pi");
    assertTrue(Files.isRegularFile(example), "example missing: " + example);
    Diagnostics diagnostics = new Diagnostics();
    Graph graph = PiReader.read(example, diagnostics);
    TokenSizeResolver.resolve(graph, null, diagnostics);
    AnalysisResult analysis = GraphAnalysis.analyse(graph, null, diagnostics);
    // size = 64 x 48 = 3072 tokens; Blur consumes width x height / nbSlices = 768 per firing
    assertEquals(4, analysis.repetitions("filter_bank/Blur"));
    // Sharpen's Edges reads rows of 64 of the 3072 tokens its parent passes per firing
    assertEquals(48, analysis.repetitions("filter_bank/Sharpen/Edges"));
    Srdag srdag = SingleRateExpansion.expand(analysis.flatGraph());
    assertTrue(srdag.vertexCount() > 58, "58 actor firings plus forks/joins, got " + srdag.vertexCount());
  }
}
