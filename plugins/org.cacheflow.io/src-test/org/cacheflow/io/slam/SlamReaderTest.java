package org.cacheflow.io.slam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.cacheflow.io.project.TestCorpus;
import org.cacheflow.model.Architecture;
import org.cacheflow.model.Core;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SlamReaderTest {

  @TempDir
  Path temp;

  private static List<String> names(Architecture architecture) {
    return architecture.getCores().stream().map(Core::getName).toList();
  }

  /** A design with the given component instances (one per line from line 4) and an x86 CPU and a com node. */
  private Path design(String instances) throws IOException {
    Path file = temp.resolve("test.slam");
    Files.writeString(file, "<?xml version=\"1.0\"?>\n"
        + "<spirit:design xmlns:spirit=\"http://www.spiritconsortium.org/XMLSchema/SPIRIT/1.4\""
        + " xmlns:slam=\"http://sourceforge.net/projects/dftools/slam\">\n"
        + "<spirit:name>test</spirit:name><spirit:componentInstances>\n"
        + instances
        + "</spirit:componentInstances><spirit:vendorExtensions><slam:componentDescriptions>\n"
        + "<slam:componentDescription slam:componentRef=\"x86\" slam:componentType=\"CPU\"/>\n"
        + "<slam:componentDescription slam:componentRef=\"bus\" slam:componentType=\"parallelComNode\"/>\n"
        + "<slam:componentDescription slam:componentRef=\"gpu\" slam:componentType=\"GPU\"/>\n"
        + "</slam:componentDescriptions></spirit:vendorExtensions></spirit:design>\n");
    return file;
  }

  private static String instance(String name, String component, String hardwareId) {
    return "<spirit:componentInstance><spirit:instanceName>" + name + "</spirit:instanceName>"
        + (hardwareId == null ? "" : "<spirit:hardwareId>" + hardwareId + "</spirit:hardwareId>")
        + "<spirit:componentRef spirit:name=\"" + component + "\"/></spirit:componentInstance>\n";
  }

  @Test
  void everyCorpusArchitectureReadsWithAtLeastOneCore() {
    List<Path> files = TestCorpus.files("preesm-apps", ".slam");
    assertTrue(files.size() >= 35, "the corpus has 37 architectures, found " + files.size());
    for (Path file : files) {
      Architecture architecture = SlamReader.read(file, new Diagnostics());
      assertTrue(!architecture.getCores().isEmpty(), file + " has cores");
      assertSame(architecture.getCores().get(0), architecture.getMainCore());
    }
  }

  @Test
  void stereoFourCoreX86HandChecked() {
    Path file = TestCorpus.preesmApp("org.ietr.preesm.stereo").resolve("Archi/4CoreX86.slam");
    Diagnostics diagnostics = new Diagnostics();
    Architecture architecture = SlamReader.read(file, diagnostics);
    assertEquals("4CoreX86", architecture.getName());
    assertEquals(4, architecture.getCores().size(), "shared_mem is a communication node, not a core");
    assertEquals(List.of("Core0", "Core1", "Core2", "Core3"), names(architecture), "ordered by hardware id");
    assertEquals(List.of(0, 1, 2, 3), architecture.getCores().stream().map(Core::getId).toList());
    assertEquals(List.of("x86"), SlamReader.coreTypes(architecture));
    assertEquals("Core0", architecture.getMainCore().getName());
    assertTrue(diagnostics.isEmpty(), diagnostics.warnings().toString());
  }

  @Test
  void operatorIsTheOlderNameOfCpu() {
    Path file = TestCorpus.preesmApp("org.ietr.preesm.hello-world").resolve("Archi/MPPA2.slam");
    Architecture architecture = SlamReader.read(file, new Diagnostics());
    assertEquals(16, architecture.getCores().size());
    assertEquals(List.of("MPPA2Cluster"), SlamReader.coreTypes(architecture));
  }

  @Test
  void coresWithoutHardwareIdAreNumberedInDocumentOrderWithAWarning() {
    Path file = TestCorpus.preesmApp("org.ietr.preesm.matrix.addition").resolve("Archi/8CoreC6678.slam");
    Diagnostics diagnostics = new Diagnostics();
    Architecture architecture = SlamReader.read(file, diagnostics);
    assertEquals(8, architecture.getCores().size());
    assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7), architecture.getCores().stream().map(Core::getId).toList());
    assertEquals("Core3", architecture.getCores().get(2).getName(), "Core3 comes third in the file");
    assertEquals(1, diagnostics.warnings().size());
    assertTrue(diagnostics.warnings().get(0).message().startsWith("8 core(s) have no <spirit:hardwareId>"));
  }

  @Test
  void missingIdsAvoidTheIdsOtherCoresUse() throws IOException {
    Diagnostics diagnostics = new Diagnostics();
    Architecture architecture = SlamReader.read(design(instance("A", "x86", null) + instance("B", "x86", "0")
        + instance("bus0", "bus", "0") + instance("G", "gpu", "3")), diagnostics);
    assertEquals(List.of("B", "A"), names(architecture));
    assertEquals(1, architecture.getCores().get(1).getId());
    assertEquals(2, diagnostics.warnings().size(), "the GPU is skipped and the id assigned, both with a warning");
  }

  @Test
  void mainCoreComesFromTheScenarioWhenItNamesACore() throws IOException {
    Architecture architecture = SlamReader.read(design(instance("C0", "x86", "0") + instance("C1", "x86", "1")),
        new Diagnostics());
    SourceLocation setting = new SourceLocation("s.scenario", 12, 9);
    Diagnostics diagnostics = new Diagnostics();
    SlamReader.applyMainCore(architecture, "C1", setting, diagnostics);
    assertEquals("C1", architecture.getMainCore().getName());
    SlamReader.applyMainCore(architecture, "C7", setting, diagnostics);
    assertEquals("C1", architecture.getMainCore().getName(), "an unknown name keeps the main core");
    assertEquals("s.scenario:12:9: main core 'C7' is not a core of architecture 'test'; using 'C1'",
        diagnostics.warnings().get(0).toString());
  }

  @Test
  void negativeHardwareIdIsAnErrorAtItsLine() throws IOException {
    Path file = design(instance("C0", "x86", "0") + instance("C1", "x86", "-1"));
    InputException error = assertThrows(InputException.class, () -> SlamReader.read(file, new Diagnostics()));
    assertEquals("hardware id of 'C1' is '-1'; it must be a non-negative integer", error.getMessage());
    assertEquals(5, error.location().line());
  }

  @Test
  void undescribedComponentIsAnError() throws IOException {
    Path file = design(instance("C0", "arm", "0"));
    InputException error = assertThrows(InputException.class, () -> SlamReader.read(file, new Diagnostics()));
    assertEquals("component instance 'C0' is a 'arm', which no <slam:componentDescription> describes",
        error.getMessage());
    assertEquals(4, error.location().line());
  }

  @Test
  void designWithoutCoresIsAnError() throws IOException {
    Path file = design(instance("bus0", "bus", "0"));
    InputException error = assertThrows(InputException.class, () -> SlamReader.read(file, new Diagnostics()));
    assertTrue(error.getMessage().startsWith("architecture 'test' has no core"), error.getMessage());
  }
}
