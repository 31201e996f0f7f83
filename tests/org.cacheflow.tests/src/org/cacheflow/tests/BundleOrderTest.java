package org.cacheflow.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.eclipse.osgi.util.ManifestElement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.osgi.framework.BundleException;

/**
 * The bundles' dependencies follow the order the README documents ("Dependency order"): a bundle may require, or
 * import packages of, only bundles on an earlier level; bundles on one level (the front ends) never use each other.
 * Every bundle under {@code plugins/} is in the chain and every name in the chain is a bundle, so the README's
 * layout and chain are the real ones.
 */
class BundleOrderTest {

  private static Path root;
  /** Level of each bundle's short name (org.cacheflow.X -> X; the Maven plugin is "maven"). */
  private static Map<String, Integer> levels;

  @BeforeAll
  static void readTheDocumentedOrder() throws IOException {
    root = Path.of(System.getProperty("cacheflow.root", "../..")).toAbsolutePath().normalize();
    String readme = Files.readString(root.resolve("README.md"));
    Matcher chain = Pattern.compile("Dependency order: `([^`]+)`").matcher(readme);
    assertTrue(chain.find(), "README.md has no 'Dependency order: `a → b → ...`' line");
    levels = new LinkedHashMap<>();
    String[] steps = chain.group(1).split("→");
    for (int level = 0; level < steps.length; level++) {
      for (String name : steps[level].replaceAll("[{}]", " ").split("[,\\s]+")) {
        if (!name.isBlank()) {
          assertTrue(levels.put(name, level) == null, "README's dependency order names " + name + " twice");
        }
      }
    }
  }

  @Test
  void everyBundleIsInTheDocumentedOrderAndEveryNameIsABundle() throws IOException {
    List<String> bundles = pluginFolders();
    for (String bundle : bundles) {
      assertTrue(levels.containsKey(bundle), "plugins/org.cacheflow." + bundle
          + " is missing from the README's dependency order " + levels.keySet());
    }
    for (String name : levels.keySet()) {
      assertTrue(bundles.contains(name) || name.equals("maven"), "the README's dependency order names " + name
          + ", which is not a bundle under plugins/ " + bundles);
    }
    String readme = Files.readString(root.resolve("README.md"));
    for (String bundle : bundles) {
      assertTrue(readme.contains("`plugins/org.cacheflow." + bundle + "`"),
          "README's layout does not list plugins/org.cacheflow." + bundle);
    }
  }

  @Test
  void noBundleDependsOnALaterOrEqualLevel() throws IOException, BundleException {
    Map<String, String> exporter = new HashMap<>();
    Map<String, Manifest> manifests = new LinkedHashMap<>();
    for (String bundle : pluginFolders()) {
      Manifest manifest = manifest(bundle);
      manifests.put(bundle, manifest);
      for (ManifestElement element : elements(manifest, "Export-Package")) {
        exporter.put(element.getValue(), bundle);
      }
    }
    List<String> violations = new ArrayList<>();
    manifests.forEach((bundle, manifest) -> {
      try {
        for (ManifestElement element : elements(manifest, "Require-Bundle")) {
          check(bundle, shortName(element.getValue()), "requires", violations);
        }
        for (ManifestElement element : elements(manifest, "Import-Package")) {
          String owner = exporter.get(element.getValue());
          if (owner != null) {
            check(bundle, owner, "imports " + element.getValue() + " of", violations);
          }
        }
      } catch (BundleException e) {
        violations.add(bundle + ": unreadable manifest: " + e.getMessage());
      }
    });
    // the Maven plugin (a plain Maven module): its cacheflow dependencies
    String pom = Files.readString(root.resolve("maven/cacheflow-maven-plugin/pom.xml"));
    Matcher dependency = Pattern.compile("<artifactId>org\\.cacheflow\\.([a-z]+)</artifactId>").matcher(pom);
    while (dependency.find()) {
      check("maven", dependency.group(1), "depends on", violations);
    }
    if (!violations.isEmpty()) {
      fail("dependencies against the README's order " + levels.keySet() + ":\n  " + String.join("\n  ", violations));
    }
  }

  @Test
  void theCheckSeesAWrongDependency() {
    List<String> violations = new ArrayList<>();
    check("model", "codegen", "requires", violations);
    check("cli", "ui", "requires", violations);
    check("codegen", "plan", "requires", violations);
    assertEquals(2, violations.size(), violations.toString());
  }

  private static void check(String bundle, String dependency, String verb, List<String> violations) {
    if (dependency == null || !levels.containsKey(dependency)) {
      return; // not a cacheflow bundle (or the test bundles)
    }
    Integer from = levels.get(bundle);
    if (from == null) {
      violations.add(bundle + " is not in the documented order");
    } else if (levels.get(dependency) >= from) {
      violations.add(bundle + " " + verb + " " + dependency + (levels.get(dependency).equals(from)
          ? " (the same level: peers never use each other)" : " (a later stage)"));
    }
  }

  private static String shortName(String symbolicName) {
    return symbolicName.startsWith("org.cacheflow.") ? symbolicName.substring("org.cacheflow.".length()) : null;
  }

  private static List<String> pluginFolders() throws IOException {
    try (Stream<Path> folders = Files.list(root.resolve("plugins"))) {
      return folders.filter(folder -> Files.isRegularFile(folder.resolve("META-INF/MANIFEST.MF")))
          .map(folder -> folder.getFileName().toString())
          .filter(name -> name.startsWith("org.cacheflow."))
          .map(BundleOrderTest::shortName).sorted().toList();
    }
  }

  private static Manifest manifest(String bundle) throws IOException {
    try (InputStream in = Files.newInputStream(root.resolve("plugins/org.cacheflow." + bundle
        + "/META-INF/MANIFEST.MF"))) {
      return new Manifest(in);
    }
  }

  private static ManifestElement[] elements(Manifest manifest, String header) throws BundleException {
    ManifestElement[] elements = ManifestElement.parseHeader(header, manifest.getMainAttributes().getValue(header));
    return elements == null ? new ManifestElement[0] : elements;
  }
}
