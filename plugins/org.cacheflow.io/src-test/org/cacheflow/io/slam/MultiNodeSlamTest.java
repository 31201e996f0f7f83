package org.cacheflow.io.slam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.cacheflow.model.Architecture;
import org.cacheflow.model.Core;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** S-LAM designs with several nodes, SimSDP style: a top design of node instances refined by per-node designs. */
class MultiNodeSlamTest {

  @TempDir
  Path temp;

  private static final String HEAD = "<?xml version=\"1.0\"?>\n"
      + "<spirit:design xmlns:spirit=\"http://www.spiritconsortium.org/XMLSchema/SPIRIT/1.4\""
      + " xmlns:slam=\"http://sourceforge.net/projects/dftools/slam\">\n";

  /** A node design with cores Core0..Core(n-1) of the type, linked to a shared memory. */
  static String node(String name, String type, int cores) {
    StringBuilder xml = new StringBuilder(HEAD).append("<spirit:name>").append(name)
        .append("</spirit:name><spirit:componentInstances>\n");
    for (int i = 0; i < cores; i++) {
      xml.append("<spirit:componentInstance><spirit:instanceName>Core").append(i).append("</spirit:instanceName>"
          + "<spirit:hardwareId>").append(i).append("</spirit:hardwareId><spirit:componentRef spirit:name=\"")
          .append(type).append("\"/></spirit:componentInstance>\n");
    }
    xml.append("<spirit:componentInstance><spirit:instanceName>shared_mem</spirit:instanceName><spirit:hardwareId>0"
        + "</spirit:hardwareId><spirit:componentRef spirit:name=\"SHARED_MEM\"/></spirit:componentInstance>\n");
    xml.append("</spirit:componentInstances><spirit:vendorExtensions><slam:componentDescriptions>\n"
        + "<slam:componentDescription slam:componentRef=\"").append(type).append("\" slam:componentType=\"CPU\" "
            + "slam:refinement=\"\"/>\n"
        + "<slam:componentDescription slam:componentRef=\"SHARED_MEM\" slam:componentType=\"parallelComNode\" "
        + "slam:refinement=\"\" slam:speed=\"1000000000\"/>\n</slam:componentDescriptions></spirit:vendorExtensions>"
        + "</spirit:design>\n");
    return xml.toString();
  }

  /**
   * A top design: the instances given (one per line from line 4), a node component refined by {@code refinement},
   * and the network com node with {@code speed}.
   */
  static String top(String instances, String refinement, String speed) {
    return HEAD + "<spirit:name>cluster</spirit:name><spirit:componentInstances>\n" + instances
        + "<spirit:componentInstance><spirit:instanceName>network</spirit:instanceName><spirit:hardwareId>0"
        + "</spirit:hardwareId><spirit:componentRef spirit:name=\"ETHERNET\"/></spirit:componentInstance>\n"
        + "</spirit:componentInstances><spirit:vendorExtensions><slam:componentDescriptions>\n"
        + "<slam:componentDescription slam:componentRef=\"node\" slam:componentType=\"CPU\" slam:refinement=\""
        + refinement + "\"/>\n"
        + "<slam:componentDescription slam:componentRef=\"x86\" slam:componentType=\"CPU\" slam:refinement=\"\"/>\n"
        + "<slam:componentDescription slam:componentRef=\"ETHERNET\" slam:componentType=\"contentionComNode\" "
        + "slam:refinement=\"\" slam:speed=\"" + speed + "\"/>\n"
        + "</slam:componentDescriptions></spirit:vendorExtensions></spirit:design>\n";
  }

  static String instance(String name, String component, int id) {
    return "<spirit:componentInstance><spirit:instanceName>" + name + "</spirit:instanceName><spirit:hardwareId>" + id
        + "</spirit:hardwareId><spirit:componentRef spirit:name=\"" + component + "\"/></spirit:componentInstance>\n";
  }

  private Path write(String name, String text) throws IOException {
    Path file = temp.resolve(name);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
    return file;
  }

  @Test
  void nodesAreTheTopDesignsRefinedInstances() throws IOException {
    write("nodes/node2x86.slam", node("node2x86", "x86", 2));
    // Node1 is listed first but has the higher id: nodes follow the ids
    Path file = write("cluster.slam", top(instance("Node1", "node", 1) + instance("Node0", "node", 0),
        "nodes/node2x86.slam", "1250000000"));
    Diagnostics diagnostics = new Diagnostics();
    Architecture architecture = SlamReader.read(file, diagnostics);
    assertEquals(List.of("Node0", "Node1"), architecture.getNodeNames());
    assertEquals(List.of("Node0_Core0", "Node0_Core1", "Node1_Core0", "Node1_Core1"),
        architecture.getCores().stream().map(Core::getName).toList());
    assertEquals(List.of(0, 0, 1, 1), architecture.getCores().stream().map(Core::getNode).toList());
    assertEquals(List.of(0, 1, 0, 1), architecture.getCores().stream().map(Core::getId).toList());
    assertEquals(List.of("x86"), SlamReader.coreTypes(architecture));
    assertSame(architecture.getCores().get(0), architecture.getMainCore());
    assertEquals(1.25e9, architecture.getNetworkSpeed());
    assertEquals(1, diagnostics.warnings().size(), diagnostics.warnings().toString());
    assertTrue(diagnostics.warnings().get(0).message().contains("Node1_Core0"), diagnostics.warnings().toString());
  }

  @Test
  void uniqueCoreNamesAreKept() throws IOException {
    write("a.slam", node("a", "x86", 1));
    write("b.slam", node("b", "arm", 2).replace("Core0<", "Big0<").replace("Core1<", "Big1<"));
    Path file = write("cluster.slam", top(instance("N0", "node", 0) + instance("N1", "nodeB", 1), "a.slam", "1e9")
        .replace("<slam:componentDescription slam:componentRef=\"x86\"",
            "<slam:componentDescription slam:componentRef=\"nodeB\" slam:componentType=\"Operator\" "
                + "slam:refinement=\"b.slam\"/>\n<slam:componentDescription slam:componentRef=\"x86\""));
    Diagnostics diagnostics = new Diagnostics();
    Architecture architecture = SlamReader.read(file, diagnostics);
    assertEquals(List.of("Core0", "Big0", "Big1"), architecture.getCores().stream().map(Core::getName).toList());
    assertEquals(List.of("x86", "arm"), SlamReader.coreTypes(architecture));
    assertTrue(diagnostics.isEmpty(), diagnostics.warnings().toString());
  }

  @Test
  void oneNodeDesignsHaveNoNodes() throws IOException {
    Architecture architecture = SlamReader.read(write("one.slam", node("one", "x86", 2)), new Diagnostics());
    assertTrue(architecture.getNodeNames().isEmpty());
    assertEquals(List.of(0, 0), architecture.getCores().stream().map(Core::getNode).toList());
    assertEquals(0.0, architecture.getNetworkSpeed());
  }

  @Test
  void aMissingNodeDesignIsAnErrorAtItsDescription() throws IOException {
    Path file = write("cluster.slam", top(instance("Node0", "node", 0) + instance("Node1", "node", 1), "absent.slam",
        "1e9"));
    InputException error = assertThrows(InputException.class, () -> SlamReader.read(file, new Diagnostics()));
    assertTrue(error.getMessage().startsWith("node component of 'Node0' is refined by 'absent.slam', which does not "
        + "exist"), error.getMessage());
    assertEquals(file.toString(), error.location().file());
    assertEquals(8, error.location().line());
  }

  @Test
  void nodesAndPlainCoresDoNotMix() throws IOException {
    write("n.slam", node("n", "x86", 1));
    Path file = write("cluster.slam", top(instance("Node0", "node", 0) + instance("Core9", "x86", 9), "n.slam", "1e9"));
    InputException error = assertThrows(InputException.class, () -> SlamReader.read(file, new Diagnostics()));
    assertTrue(error.getMessage().contains("mixes nodes (Node0, refined by n.slam) and plain cores (Core9)"),
        error.getMessage());
    assertEquals(5, error.location().line());
  }

  @Test
  void nodesOfNodesAreAnError() throws IOException {
    write("n.slam", node("n", "x86", 1));
    write("inner.slam", top(instance("Inner0", "node", 0), "n.slam", "1e9"));
    Path file = write("cluster.slam", top(instance("Node0", "node", 0), "inner.slam", "1e9"));
    InputException error = assertThrows(InputException.class, () -> SlamReader.read(file, new Diagnostics()));
    assertTrue(error.getMessage().contains("itself describes nodes"), error.getMessage());
  }

  @Test
  void aBadNetworkSpeedIsAnError() throws IOException {
    write("n.slam", node("n", "x86", 1));
    Path file = write("cluster.slam", top(instance("Node0", "node", 0), "n.slam", "fast"));
    InputException error = assertThrows(InputException.class, () -> SlamReader.read(file, new Diagnostics()));
    assertEquals("com node 'ETHERNET' has speed 'fast'; it must be a positive number (bytes per second)",
        error.getMessage());
  }
}
