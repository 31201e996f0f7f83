package org.cacheflow.ui.tests;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.stream.Stream;

import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IProject;
import org.eclipse.core.resources.IResource;
import org.eclipse.core.resources.ResourcesPlugin;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.jobs.IJobChangeEvent;
import org.eclipse.core.runtime.jobs.IJobChangeListener;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.core.runtime.jobs.JobChangeAdapter;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Image;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.ImageLoader;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Event;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.PlatformUI;

/**
 * What the UI tests share: a PREESM project in the test workspace made from the bundled example, driving widgets
 * without SWTBot (find them in the widget tree, set them, send the event a user's click sends), waiting for jobs
 * while the UI thread keeps dispatching, and screenshots.
 */
final class UiTesting {

  private UiTesting() {
  }

  /**
   * A fresh workspace project {@code filter-bank} (the name its scenario's paths use) holding a copy of
   * {@code examples/filter-bank} (graphs, scenario, architecture, workflow, .ci.yaml; not its generated code).
   */
  static IProject exampleProject() throws CoreException {
    String name = "filter-bank";
    Path example = Path.of(System.getProperty("cacheflow.examples", "examples"), "filter-bank");
    assertTrue(Files.isDirectory(example.resolve("Algo")), "the example is missing: " + example.toAbsolutePath());
    IProject project = ResourcesPlugin.getWorkspace().getRoot().getProject(name);
    if (project.exists()) {
      project.delete(true, true, null);
    }
    project.create(null);
    project.open(null);
    Path root = project.getLocation().toPath();
    try (Stream<Path> files = Files.walk(example)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        Path relative = example.relativize(file);
        if (relative.startsWith(Path.of("Code", "generated"))) {
          continue;
        }
        Path copy = root.resolve(relative.toString());
        Files.createDirectories(copy.getParent());
        Files.copy(file, copy, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    project.refreshLocal(IResource.DEPTH_INFINITE, null);
    return project;
  }

  /** Writes {@code text} into the workspace file {@code path} of {@code project}. */
  static IFile write(IProject project, String path, String text) throws CoreException {
    IFile file = project.getFile(path);
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    if (file.exists()) {
      file.setContents(bytes, IResource.FORCE, null);
    } else {
      file.create(bytes, IResource.FORCE, null);
    }
    return file;
  }

  /** The file's content on disk. */
  static String read(IFile file) {
    try {
      return Files.readString(file.getLocation().toPath(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The workbench window at a fixed size, so screenshots look the same on every machine. */
  static void sizeWindow() {
    Shell shell = page().getWorkbenchWindow().getShell();
    shell.setBounds(0, 0, 1280, 860);
    dispatch(shell.getDisplay());
  }

  /** Runs {@code action} with {@code part} maximized in its window, then restores it. */
  static void maximized(org.eclipse.ui.IWorkbenchPart part, Runnable action) {
    IWorkbenchPage page = page();
    org.eclipse.ui.IWorkbenchPartReference reference = page.getReference(part);
    page.setPartState(reference, IWorkbenchPage.STATE_MAXIMIZED);
    dispatch(part.getSite().getShell().getDisplay());
    try {
      action.run();
    } finally {
      page.setPartState(reference, IWorkbenchPage.STATE_RESTORED);
      dispatch(part.getSite().getShell().getDisplay());
    }
  }

  static IWorkbenchPage page() {
    return PlatformUI.getWorkbench().getActiveWorkbenchWindow().getActivePage();
  }

  /** Runs the event loop until {@code condition} holds; fails after {@code seconds}. */
  static void waitUntil(String what, int seconds, BooleanSupplier condition) {
    Display display = Display.getCurrent();
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > end) {
        fail("timed out after " + seconds + " s waiting for " + what);
      }
      dispatch(display);
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        fail("interrupted");
      }
    }
    dispatch(display);
  }

  /** Runs the event loop until no job of {@code family} is waiting or running. */
  static void waitForJobs(Object family, int seconds) {
    waitUntil("jobs of " + family, seconds, () -> Job.getJobManager().find(family).length == 0);
  }

  /**
   * Runs {@code start}, then the event loop until a job of {@code family} that started meanwhile is done; returns
   * that job's result.
   */
  static IStatus runAndWaitForJob(Object family, int seconds, Runnable start) {
    List<IStatus> results = new CopyOnWriteArrayList<>();
    IJobChangeListener listener = new JobChangeAdapter() {
      @Override
      public void done(IJobChangeEvent event) {
        if (event.getJob().belongsTo(family)) {
          results.add(event.getResult());
        }
      }
    };
    Job.getJobManager().addJobChangeListener(listener);
    try {
      start.run();
      waitUntil("a job of " + family, seconds, () -> !results.isEmpty());
      return results.get(0);
    } finally {
      Job.getJobManager().removeJobChangeListener(listener);
    }
  }

  /** Dispatches pending UI events. */
  static void dispatch(Display display) {
    while (display.readAndDispatch()) {
      // keep going
    }
  }

  /** Every control under {@code root} for which {@code test} holds, in tree order. */
  static List<Control> find(Control root, Predicate<Control> test) {
    List<Control> found = new ArrayList<>();
    collect(root, test, found);
    return found;
  }

  private static void collect(Control control, Predicate<Control> test, List<Control> found) {
    if (test.test(control)) {
      found.add(control);
    }
    if (control instanceof Composite composite) {
      for (Control child : composite.getChildren()) {
        collect(child, test, found);
      }
    }
  }

  /** The one control under {@code root} whose widget data {@code key} is {@code value}. */
  @SuppressWarnings("unchecked")
  static <T extends Control> T byData(Control root, String key, String value) {
    List<Control> found = find(root, control -> value.equals(control.getData(key)));
    if (found.size() != 1) {
      fail("expected one control with " + key + "=" + value + ", found " + found.size());
    }
    return (T) found.get(0);
  }

  /** What a user's selection (click, choice) makes the control send. */
  static void select(Control control) {
    Event event = new Event();
    event.widget = control;
    control.notifyListeners(SWT.Selection, event);
    dispatch(control.getDisplay());
  }

  /** Saves a PNG of the workbench window as the screen shows it into the screenshot folder; returns the file. */
  static Path screenshot(String name) {
    Shell shell = page().getWorkbenchWindow().getShell();
    Display display = shell.getDisplay();
    shell.forceActive();
    shell.redraw();
    shell.update();
    dispatch(display);
    Rectangle bounds = shell.getBounds();
    Image image = new Image(display, bounds.width, bounds.height);
    GC gc = new GC(display);
    try {
      gc.copyArea(image, bounds.x, bounds.y);
      ImageData data = image.getImageData();
      Path folder = Path.of(System.getProperty("cacheflow.screenshots", "target/screenshots"));
      Files.createDirectories(folder);
      Path file = folder.resolve(name);
      ImageLoader loader = new ImageLoader();
      loader.data = new ImageData[] {data};
      loader.save(file.toString(), SWT.IMAGE_PNG);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      gc.dispose();
      image.dispose();
    }
  }

  /** How many distinct colours {@code data} has (capped), to tell a drawing from a blank area. */
  static int colours(ImageData data, int cap) {
    Set<Integer> seen = new HashSet<>();
    for (int y = 0; y < data.height; y += 2) {
      for (int x = 0; x < data.width; x += 2) {
        seen.add(data.getPixel(x, y));
        if (seen.size() >= cap) {
          return cap;
        }
      }
    }
    return seen.size();
  }
}
