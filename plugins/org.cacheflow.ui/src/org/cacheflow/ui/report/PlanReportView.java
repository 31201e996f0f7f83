package org.cacheflow.ui.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.cacheflow.ui.CacheflowUi;
import org.eclipse.jface.layout.GridDataFactory;
import org.eclipse.jface.layout.GridLayoutFactory;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.CTabFolder;
import org.eclipse.swt.custom.CTabItem;
import org.eclipse.swt.custom.ScrolledComposite;
import org.eclipse.swt.custom.StyledText;
import org.eclipse.swt.graphics.Image;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.Rectangle;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Canvas;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.DirectoryDialog;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Label;
import org.eclipse.ui.IViewPart;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.PartInitException;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.part.ViewPart;

/**
 * Shows a memory plan report as {@code cacheflow plan --report} writes it: the Gantt chart of the per-core
 * schedule, the graph with its FIFOs coloured by strategy, and the explained plan ({@code plan.md}).
 */
public final class PlanReportView extends ViewPart {

  static final String[] ZOOMS = {"Fit width", "50%", "100%", "200%"};

  private Label folder;
  private Combo zoom;
  private CTabFolder tabs;
  private DrawingTab gantt;
  private DrawingTab graph;
  private StyledText summary;
  private Path report;

  /** Opens the view (or brings it up) on {@code directory}; call from any thread. */
  public static void open(Path directory) {
    Display.getDefault().asyncExec(() -> {
      IWorkbenchPage page = activePage();
      if (page == null) {
        return;
      }
      try {
        ((PlanReportView) page.showView(CacheflowUi.REPORT_VIEW_ID)).show(directory);
      } catch (PartInitException e) {
        org.eclipse.core.runtime.ILog.of(PlanReportView.class).log(e.getStatus());
      }
    });
  }

  /** Shows {@code directory} in the view when it is open; call from any thread. */
  public static void showIfOpen(Path directory) {
    Display.getDefault().asyncExec(() -> {
      IWorkbenchPage page = activePage();
      IViewPart view = page == null ? null : page.findView(CacheflowUi.REPORT_VIEW_ID);
      if (view instanceof PlanReportView reportView) {
        reportView.show(directory);
      }
    });
  }

  private static IWorkbenchPage activePage() {
    IWorkbenchWindow window = PlatformUI.getWorkbench().getActiveWorkbenchWindow();
    if (window == null && PlatformUI.getWorkbench().getWorkbenchWindowCount() > 0) {
      window = PlatformUI.getWorkbench().getWorkbenchWindows()[0];
    }
    return window == null ? null : window.getActivePage();
  }

  @Override
  public void createPartControl(Composite parent) {
    GridLayoutFactory.fillDefaults().numColumns(4).margins(4, 4).applyTo(parent);
    new Label(parent, SWT.NONE).setText("Report:");
    folder = new Label(parent, SWT.NONE);
    folder.setText("none yet: use 'Show plan report' in the workflow editor, or open a folder written by "
        + "'cacheflow plan --report'");
    GridDataFactory.fillDefaults().grab(true, false).align(SWT.FILL, SWT.CENTER).applyTo(folder);
    zoom = new Combo(parent, SWT.READ_ONLY);
    zoom.setItems(ZOOMS);
    zoom.select(0);
    zoom.addListener(SWT.Selection, e -> redraw());
    Button openFolder = new Button(parent, SWT.PUSH);
    openFolder.setText("Open Folder...");
    openFolder.addListener(SWT.Selection, e -> {
      DirectoryDialog dialog = new DirectoryDialog(parent.getShell());
      dialog.setMessage("A folder written by 'cacheflow plan --report' (gantt.svg, graph.svg, plan.md)");
      String chosen = dialog.open();
      if (chosen != null) {
        show(Path.of(chosen));
      }
    });
    tabs = new CTabFolder(parent, SWT.BORDER | SWT.BOTTOM);
    GridDataFactory.fillDefaults().grab(true, true).span(4, 1).applyTo(tabs);
    gantt = new DrawingTab(tabs, "Gantt chart");
    graph = new DrawingTab(tabs, "Graph (FIFOs by strategy)");
    CTabItem summaryItem = new CTabItem(tabs, SWT.NONE);
    summaryItem.setText("Plan");
    summary = new StyledText(tabs, SWT.READ_ONLY | SWT.V_SCROLL | SWT.H_SCROLL);
    summary.setFont(org.eclipse.jface.resource.JFaceResources.getTextFont());
    summaryItem.setControl(summary);
    tabs.setSelection(0);
  }

  /** Shows the report in {@code directory}; missing parts say so in their tab. */
  public void show(Path directory) {
    report = directory;
    folder.setText(displayName(directory));
    folder.setToolTipText(directory.toString());
    gantt.load(directory.resolve("gantt.svg"));
    graph.load(directory.resolve("graph.svg"));
    try {
      summary.setText(Files.readString(directory.resolve("plan.md"), StandardCharsets.UTF_8));
    } catch (IOException e) {
      summary.setText("no plan.md in " + directory);
    }
    redraw();
    folder.getParent().layout(true, true);
  }

  /** A folder in the workspace by its workspace path ({@code /project/Code/generated-plan}), else as it is. */
  static String displayName(Path directory) {
    org.eclipse.core.resources.IContainer[] containers = org.eclipse.core.resources.ResourcesPlugin.getWorkspace()
        .getRoot().findContainersForLocationURI(directory.toAbsolutePath().normalize().toUri());
    for (org.eclipse.core.resources.IContainer container : containers) {
      if (container.getType() != org.eclipse.core.resources.IResource.ROOT) {
        return container.getFullPath().toString();
      }
    }
    return directory.toString();
  }

  /** The report shown, or null. */
  public Path report() {
    return report;
  }

  /** The Gantt chart as drawn now, or null (for tests and screenshots). */
  public ImageData ganttImage() {
    return gantt.imageData();
  }

  /** The graph as drawn now, or null. */
  public ImageData graphImage() {
    return graph.imageData();
  }

  /** The explained plan shown. */
  public String summaryText() {
    return summary.getText();
  }

  /** Selects tab {@code index} (0 Gantt, 1 graph, 2 plan). */
  public void selectTab(int index) {
    tabs.setSelection(index);
  }

  private void redraw() {
    gantt.render(zoom.getSelectionIndex());
    graph.render(zoom.getSelectionIndex());
  }

  @Override
  public void setFocus() {
    tabs.setFocus();
  }

  @Override
  public void dispose() {
    gantt.dispose();
    graph.dispose();
    super.dispose();
  }

  /** One drawing in a scrolled canvas. */
  private static final class DrawingTab {
    private final ScrolledComposite scroller;
    private final Canvas canvas;
    private SvgImages.Drawing drawing;
    private String problem = "no report shown";
    private Image image;
    private ImageData data;
    private int zoomIndex;

    DrawingTab(CTabFolder tabs, String title) {
      CTabItem item = new CTabItem(tabs, SWT.NONE);
      item.setText(title);
      scroller = new ScrolledComposite(tabs, SWT.H_SCROLL | SWT.V_SCROLL);
      canvas = new Canvas(scroller, SWT.DOUBLE_BUFFERED);
      canvas.setBackground(tabs.getDisplay().getSystemColor(SWT.COLOR_WHITE));
      scroller.setContent(canvas);
      scroller.setExpandHorizontal(false);
      scroller.setExpandVertical(false);
      item.setControl(scroller);
      canvas.addListener(SWT.Paint, event -> {
        if (image != null) {
          event.gc.drawImage(image, 0, 0);
        } else {
          event.gc.drawText(problem, 10, 10);
        }
      });
      scroller.addListener(SWT.Resize, event -> {
        if (zoomIndex == 0) {
          render(0);
        }
      });
    }

    void load(Path file) {
      try {
        drawing = SvgImages.load(file);
      } catch (RuntimeException e) {
        drawing = null;
        problem = "cannot show " + file + ": " + e.getMessage();
      }
    }

    void render(int zoom) {
      zoomIndex = zoom;
      disposeImage();
      if (drawing == null) {
        data = null;
        canvas.setSize(600, 40);
        canvas.redraw();
        return;
      }
      double scale = switch (zoom) {
        case 1 -> 0.5;
        case 2 -> 1;
        case 3 -> 2;
        default -> {
          Rectangle area = scroller.getClientArea();
          yield Math.max(0.1, (area.width > 20 ? area.width - 4 : 800) / drawing.width());
        }
      };
      data = SvgImages.render(drawing, scale);
      image = new Image(canvas.getDisplay(), data);
      canvas.setSize(data.width, data.height);
      canvas.redraw();
    }

    ImageData imageData() {
      return data;
    }

    private void disposeImage() {
      if (image != null) {
        image.dispose();
        image = null;
      }
    }

    void dispose() {
      disposeImage();
    }
  }
}
