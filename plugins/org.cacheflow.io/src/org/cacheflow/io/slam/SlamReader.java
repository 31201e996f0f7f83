package org.cacheflow.io.slam;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.cacheflow.io.xml.LocatedXmlReader;
import org.cacheflow.io.xml.XmlElement;
import org.cacheflow.model.Architecture;
import org.cacheflow.model.Core;
import org.cacheflow.model.Located;
import org.cacheflow.model.ModelFactory;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * Reads a PREESM S-LAM architecture ({@code .slam}: an IP-XACT {@code spirit:design} with
 * {@code slam:} vendor extensions) into an {@link Architecture} holding its cores.
 *
 * <p>A core is a {@code spirit:componentInstance} whose {@code spirit:componentRef/@spirit:name} has a
 * {@code slam:componentDescription} of type {@code CPU} or {@code Operator} (the older name PREESM reads
 * as CPU). The core's type is that component's name (e.g. {@code x86}, {@code c6678}) — the name scenario
 * timings use as {@code opname}. Communication nodes, memories and DMAs are not cores and are skipped;
 * GPU and FPGA processing elements are skipped with a warning, as only C code for CPUs is generated.
 *
 * <p>A core's id is its {@code spirit:hardwareId}. Some designs omit it (the C6678 ones in the corpus): such
 * cores get, in document order, the smallest id not used by another core, with a warning. (PREESM also
 * counts communication nodes' ids there; counting only cores keeps ids dense.) Cores are listed by
 * increasing id, ties in document order.
 *
 * <p>Main core rule: the main core is the scenario's {@code <simuParams><mainCore>} when that names a
 * core ({@link #applyMainCore}); otherwise, and until then, the first core listed — the lowest id.
 *
 * <p>Several nodes (machines, MPI ranks), as PREESM's SimSDP describes them: a top-level design whose processing
 * component instances are the nodes ({@code Node0}, {@code Node1}, ...), each an instance of a CPU or Operator
 * component whose {@code slam:componentDescription} has a {@code slam:refinement} naming the node's own S-LAM
 * (a path relative to the top design's folder, e.g. {@code node2x86.slam}) that lists its cores; the top design's
 * com node linking the nodes gives the network's speed ({@code slam:speed}, bytes per second; the slowest when
 * several). Nodes are numbered by their instances' hardware ids (ties in document order) and their cores listed
 * node by node, each node's by id; each core keeps its node's hardware id. When core names repeat across nodes
 * (each node's S-LAM naming its cores Core0...), every core is named {@code NODE_CORE} (e.g. {@code Node1_Core0}),
 * with a warning. A top design mixing refined (node) and plain cores, a node S-LAM that itself has nodes, and a
 * missing node S-LAM are errors.
 */
public final class SlamReader {

  private static final Set<String> CPU_TYPES = Set.of("CPU", "Operator");
  private static final Set<String> OTHER_PROCESSING_ELEMENTS = Set.of("GPU", "FPGA");
  private static final Set<String> COM_NODE_TYPES = Set.of("parallelComNode", "contentionComNode", "ComNode");
  private static final Set<String> NON_PROCESSING_TYPES =
      Set.of("parallelComNode", "contentionComNode", "ComNode", "Mem", "Dma");

  private SlamReader() {
  }

  /** Reads {@code file}; warnings go to {@code diagnostics}, errors are thrown as {@link InputException}. */
  public static Architecture read(Path file, Diagnostics diagnostics) {
    XmlElement root = LocatedXmlReader.read(file);
    if (!root.name().equals("design")) {
      throw root.error("not an S-LAM architecture: the root element is <" + root.name()
          + ">, expected <spirit:design>");
    }
    Map<String, String> componentTypes = componentTypes(root);
    Map<String, XmlElement> descriptions = componentDescriptions(root);

    Architecture architecture = ModelFactory.eINSTANCE.createArchitecture();
    locate(architecture, root.location());
    architecture.setName(root.child("name").map(XmlElement::text).filter(name -> !name.isEmpty())
        .orElseGet(() -> fileStem(file)));

    List<Core> cores = new ArrayList<>();
    List<Core> withoutId = new ArrayList<>();
    List<NodeInstance> nodes = new ArrayList<>();
    double networkSpeed = 0;
    Set<String> instanceNames = new LinkedHashSet<>();
    XmlElement instances = root.child("componentInstances")
        .orElseThrow(() -> root.error("<spirit:design> has no <spirit:componentInstances>"));
    for (XmlElement instance : instances.children("componentInstance")) {
      String name = instance.child("instanceName").map(XmlElement::text).orElse("");
      if (name.isEmpty()) {
        throw instance.error("<spirit:componentInstance> has no <spirit:instanceName>");
      }
      if (!instanceNames.add(name)) {
        throw instance.error("component instance '" + name + "' is defined twice");
      }
      XmlElement reference = instance.child("componentRef")
          .orElseThrow(() -> instance.error("component instance '" + name + "' has no <spirit:componentRef>"));
      String component = reference.requireAttribute("name").trim();
      String type = componentTypes.get(component);
      if (type == null) {
        throw reference.error("component instance '" + name + "' is a '" + component
            + "', which no <slam:componentDescription> describes");
      }
      XmlElement description = descriptions.get(component);
      String refinement = description.attribute("refinement").map(String::trim).orElse("");
      if (CPU_TYPES.contains(type) && !refinement.isEmpty()) {
        nodes.add(new NodeInstance(name, hardwareId(instance, name), refinement, description, instance));
        continue;
      }
      if (COM_NODE_TYPES.contains(type)) {
        double speed = speed(description);
        networkSpeed = speed > 0 && (networkSpeed == 0 || speed < networkSpeed) ? speed : networkSpeed;
      }
      if (!CPU_TYPES.contains(type)) {
        if (OTHER_PROCESSING_ELEMENTS.contains(type)) {
          diagnostics.warn(instance.location(), "processing element '" + name + "' is a " + type
              + "; only CPU cores are used, it is ignored");
        } else if (!NON_PROCESSING_TYPES.contains(type)) {
          diagnostics.warn(instance.location(), "component instance '" + name + "' has unknown component type '"
              + type + "'; it is not used as a core");
        }
        continue;
      }
      Core core = ModelFactory.eINSTANCE.createCore();
      locate(core, instance.location());
      core.setName(name);
      core.setType(component);
      Integer id = hardwareId(instance, name);
      if (id == null) {
        withoutId.add(core);
      } else {
        core.setId(id);
      }
      cores.add(core);
    }
    if (!nodes.isEmpty()) {
      if (!cores.isEmpty()) {
        throw new InputException(location(cores.get(0)), "architecture '" + architecture.getName() + "' mixes nodes ("
            + nodes.get(0).name() + ", refined by " + nodes.get(0).refinement() + ") and plain cores (" + cores.get(0)
            .getName() + "): on several nodes every processing instance of the top design is a node whose own S-LAM "
            + "lists its cores");
      }
      readNodes(file, architecture, nodes, diagnostics);
      architecture.setNetworkSpeed(networkSpeed);
      return architecture;
    }
    if (cores.isEmpty()) {
      throw instances.error("architecture '" + architecture.getName()
          + "' has no core (no component instance of a CPU or Operator component)");
    }
    assignMissingIds(cores, withoutId, diagnostics);
    warnAboutSharedIds(cores, diagnostics);

    cores.sort(Comparator.comparingInt(Core::getId)); // stable: ties stay in document order
    architecture.getCores().addAll(cores);
    architecture.setMainCore(cores.get(0));
    return architecture;
  }

  /**
   * Makes the core named {@code coreName} (the scenario's main-core setting, written at {@code setting})
   * the main core. A name that is no core of the architecture is warned about and the current main core
   * kept. A null name changes nothing.
   */
  public static void applyMainCore(Architecture architecture, String coreName, SourceLocation setting,
      Diagnostics diagnostics) {
    if (coreName == null || coreName.isBlank()) {
      return;
    }
    for (Core core : architecture.getCores()) {
      if (core.getName().equals(coreName.trim())) {
        architecture.setMainCore(core);
        return;
      }
    }
    diagnostics.warn(setting, "main core '" + coreName.trim() + "' is not a core of architecture '"
        + architecture.getName() + "'; using '" + architecture.getMainCore().getName() + "'");
  }

  /** The distinct core types of {@code architecture}, in core order. */
  public static List<String> coreTypes(Architecture architecture) {
    Set<String> types = new LinkedHashSet<>();
    architecture.getCores().forEach(core -> types.add(core.getType()));
    return List.copyOf(types);
  }

  /** A node of a top-level design: an instance of a refined CPU component. */
  private record NodeInstance(String name, Integer id, String refinement, XmlElement description,
      XmlElement instance) {
  }

  private static void readNodes(Path file, Architecture architecture, List<NodeInstance> nodes,
      Diagnostics diagnostics) {
    List<NodeInstance> ordered = new ArrayList<>(nodes);
    ordered.sort(Comparator.comparingInt(node -> node.id() == null ? Integer.MAX_VALUE : node.id()));
    List<Core> cores = new ArrayList<>();
    Map<String, String> nodeOfName = new LinkedHashMap<>();
    boolean repeated = false;
    Path folder = file.toAbsolutePath().getParent();
    for (int index = 0; index < ordered.size(); index++) {
      NodeInstance node = ordered.get(index);
      Path sub = folder.resolve(node.refinement());
      if (!Files.isRegularFile(sub)) {
        throw node.description().error("node component of '" + node.name() + "' is refined by '" + node.refinement()
            + "', which does not exist (looked for " + sub + ")");
      }
      Architecture inner = read(sub, diagnostics);
      if (!inner.getNodeNames().isEmpty()) {
        throw node.description().error("node '" + node.name() + "' is refined by '" + node.refinement()
            + "', which itself describes nodes; nodes hold cores, not nodes");
      }
      for (Core core : List.copyOf(inner.getCores())) {
        core.setNode(index);
        repeated |= nodeOfName.putIfAbsent(core.getName(), node.name()) != null;
        cores.add(core);
      }
      architecture.getNodeNames().add(node.name());
    }
    if (repeated) {
      String example = null;
      for (Core core : cores) {
        core.setName(ordered.get(core.getNode()).name() + "_" + core.getName());
        example = example == null && core.getNode() == 1 ? core.getName() : example;
      }
      diagnostics.warn(ordered.get(0).instance().location(), "core names repeat across the nodes of '"
          + architecture.getName() + "'; cores are named NODE_CORE (e.g. " + example + "), as mapping constraints "
          + "must name them");
    }
    architecture.getCores().addAll(cores);
    architecture.setMainCore(cores.get(0));
  }

  private static double speed(XmlElement description) {
    String text = description.attribute("speed").map(String::trim).orElse("");
    if (text.isEmpty()) {
      return 0;
    }
    try {
      double speed = Double.parseDouble(text);
      if (speed > 0 && !Double.isInfinite(speed)) {
        return speed;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw description.error("com node '" + description.requireAttribute("componentRef").trim() + "' has speed '"
        + text + "'; it must be a positive number (bytes per second)");
  }

  private static Map<String, XmlElement> componentDescriptions(XmlElement root) {
    Map<String, XmlElement> result = new LinkedHashMap<>();
    root.child("vendorExtensions").flatMap(extensions -> extensions.child("componentDescriptions"))
        .ifPresent(descriptions -> {
          for (XmlElement description : descriptions.children("componentDescription")) {
            result.put(description.requireAttribute("componentRef").trim(), description);
          }
        });
    return result;
  }

  private static Map<String, String> componentTypes(XmlElement root) {
    Map<String, String> types = new LinkedHashMap<>();
    root.child("vendorExtensions").flatMap(extensions -> extensions.child("componentDescriptions"))
        .ifPresent(descriptions -> {
          for (XmlElement description : descriptions.children("componentDescription")) {
            types.put(description.requireAttribute("componentRef").trim(),
                description.requireAttribute("componentType").trim());
          }
        });
    return types;
  }

  private static Integer hardwareId(XmlElement instance, String name) {
    XmlElement element = instance.child("hardwareId").orElse(null);
    if (element == null) {
      return null;
    }
    String text = element.text();
    try {
      int id = Integer.parseInt(text);
      if (id >= 0) {
        return id;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw element.error("hardware id of '" + name + "' is '" + text + "'; it must be a non-negative integer");
  }

  private static void assignMissingIds(List<Core> cores, List<Core> withoutId, Diagnostics diagnostics) {
    if (withoutId.isEmpty()) {
      return;
    }
    Set<Integer> used = new LinkedHashSet<>();
    for (Core core : cores) {
      if (!withoutId.contains(core)) {
        used.add(core.getId());
      }
    }
    int next = 0;
    List<String> assigned = new ArrayList<>();
    for (Core core : withoutId) {
      while (used.contains(next)) {
        next++;
      }
      core.setId(next);
      used.add(next);
      assigned.add(core.getName() + "=" + next);
    }
    diagnostics.warn(location(withoutId.get(0)), withoutId.size() + " core(s) have no <spirit:hardwareId>;"
        + " numbered in document order: " + String.join(", ", assigned));
  }

  private static void warnAboutSharedIds(List<Core> cores, Diagnostics diagnostics) {
    Map<Integer, Core> byId = new LinkedHashMap<>();
    for (Core core : cores) {
      Core other = byId.putIfAbsent(core.getId(), core);
      if (other != null) {
        diagnostics.warn(location(core), "cores '" + other.getName() + "' and '" + core.getName()
            + "' have the same hardware id " + core.getId());
      }
    }
  }

  private static String fileStem(Path file) {
    String name = file.getFileName().toString();
    int dot = name.lastIndexOf('.');
    return dot > 0 ? name.substring(0, dot) : name;
  }

  private static void locate(Located element, SourceLocation location) {
    element.setFile(location.file());
    element.setLine(location.line());
    element.setColumn(location.column());
  }

  private static SourceLocation location(Located element) {
    return new SourceLocation(element.getFile(), element.getLine(), element.getColumn());
  }
}
