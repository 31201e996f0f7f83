package org.cacheflow.ui.editor;

import java.util.List;
import java.util.function.Function;

import org.cacheflow.ui.launch.GenerateLaunchShortcut;
import org.cacheflow.ui.report.PlanReportJob;
import org.cacheflow.ui.workflow.TextEdit;
import org.cacheflow.ui.workflow.WorkflowDocument;
import org.cacheflow.ui.workflow.WorkflowDocument.Task;
import org.cacheflow.ui.workflow.WorkflowDocument.Variable;
import org.cacheflow.ui.workflow.XmlScanner.SyntaxException;
import org.cacheflow.workflow.CodegenTask;
import org.cacheflow.workflow.run.TaskRole;
import org.eclipse.jface.dialogs.IMessageProvider;
import org.eclipse.jface.layout.GridDataFactory;
import org.eclipse.jface.layout.GridLayoutFactory;
import org.eclipse.jface.text.BadLocationException;
import org.eclipse.jface.text.DocumentEvent;
import org.eclipse.jface.text.IDocument;
import org.eclipse.jface.text.IDocumentListener;
import org.eclipse.jface.viewers.ArrayContentProvider;
import org.eclipse.jface.viewers.ColumnLabelProvider;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.jface.viewers.TableViewer;
import org.eclipse.jface.viewers.TableViewerColumn;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.StackLayout;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Table;
import org.eclipse.ui.forms.IManagedForm;
import org.eclipse.ui.forms.editor.FormPage;
import org.eclipse.ui.forms.widgets.FormToolkit;
import org.eclipse.ui.forms.widgets.ScrolledForm;
import org.eclipse.ui.forms.widgets.Section;

/**
 * The "Tasks" page of the workflow editor: the workflow's tasks with what cacheflow does with each, and the
 * selected task's settings — editable controls for a cacheflow task, the variables for the others. It reads the
 * source page's document after every change there, and writes its own changes into that document as
 * {@link TextEdit}s of single values.
 */
public final class WorkflowFormPage extends FormPage {

  /** Widget data key of the buttons, for tests. */
  public static final String BUTTON_KEY = "org.cacheflow.ui.button";

  private final WorkflowEditor editor;
  private IDocument document;
  private final IDocumentListener listener = new IDocumentListener() {
    @Override
    public void documentAboutToBeChanged(DocumentEvent event) {
      // nothing
    }

    @Override
    public void documentChanged(DocumentEvent event) {
      if (!writing) {
        scheduleRefresh();
      }
    }
  };
  private boolean writing;
  private boolean refreshScheduled;
  private WorkflowDocument current;
  private String selectedTaskId;

  private ScrolledForm form;
  private TableViewer tasks;
  private Button addTask;
  private Section details;
  private StackLayout stack;
  private Composite detailsStack;
  private Composite cacheflowPage;
  private CacheflowTaskControls controls;
  private Composite otherPage;
  private Label otherText;
  private TableViewer otherVariables;

  public WorkflowFormPage(WorkflowEditor editor) {
    super(editor, WorkflowEditor.TASKS_PAGE_ID, "Tasks");
    this.editor = editor;
  }

  void connect(IDocument value) {
    document = value;
    document.addDocumentListener(listener);
    refresh();
  }

  void disconnect() {
    if (document != null) {
      document.removeDocumentListener(listener);
    }
  }

  /** The workflow as the form shows it, or null when the source is not a valid workflow. */
  public WorkflowDocument workflow() {
    return current;
  }

  @Override
  protected void createFormContent(IManagedForm managedForm) {
    FormToolkit toolkit = managedForm.getToolkit();
    form = managedForm.getForm();
    form.setText("PREESM workflow: " + editor.file().getName());
    toolkit.decorateFormHeading(form.getForm());
    Composite body = form.getBody();
    GridLayoutFactory.swtDefaults().numColumns(2).equalWidth(false).spacing(12, 0).applyTo(body);

    Section tasksSection = toolkit.createSection(body, Section.TITLE_BAR | Section.DESCRIPTION);
    tasksSection.setText("Tasks");
    tasksSection.setDescription("What cacheflow does with each task of the workflow.");
    GridDataFactory.fillDefaults().grab(false, true).hint(300, SWT.DEFAULT).applyTo(tasksSection);
    Composite tasksBox = toolkit.createComposite(tasksSection);
    GridLayoutFactory.fillDefaults().applyTo(tasksBox);
    Table table = toolkit.createTable(tasksBox, SWT.BORDER | SWT.FULL_SELECTION | SWT.SINGLE);
    table.setHeaderVisible(true);
    GridDataFactory.fillDefaults().grab(true, true).hint(SWT.DEFAULT, 300).applyTo(table);
    tasks = new TableViewer(table);
    tasks.setContentProvider(ArrayContentProvider.getInstance());
    column("Task", 130, task -> task.taskId());
    column("In cacheflow", 160, this::roleText);
    tasks.addSelectionChangedListener(event -> {
      Object selected = ((IStructuredSelection) event.getSelection()).getFirstElement();
      if (selected instanceof Task task) {
        selectedTaskId = task.taskId();
        showDetails(task);
      }
    });
    addTask = toolkit.createButton(tasksBox, "Add cacheflow Task", SWT.PUSH);
    addTask.setToolTipText("Adds a cacheflow code generation task with every variable at its default, fed by the "
        + "scenario. PREESM's other tasks are kept; cacheflow skips them.");
    addTask.setData(BUTTON_KEY, "addTask");
    addTask.addListener(SWT.Selection, e -> addCacheflowTask());
    tasksSection.setClient(tasksBox);

    details = toolkit.createSection(body, Section.TITLE_BAR | Section.DESCRIPTION);
    details.setText(CodegenTask.DESCRIPTOR.name());
    details.setDescription(CodegenTask.DESCRIPTOR.summary());
    GridDataFactory.fillDefaults().grab(true, true).applyTo(details);
    detailsStack = toolkit.createComposite(details);
    stack = new StackLayout();
    detailsStack.setLayout(stack);

    cacheflowPage = toolkit.createComposite(detailsStack);
    GridLayoutFactory.fillDefaults().applyTo(cacheflowPage);
    Composite actions = toolkit.createComposite(cacheflowPage);
    GridLayoutFactory.fillDefaults().numColumns(2).applyTo(actions);
    Button generate = toolkit.createButton(actions, "Generate Code", SWT.PUSH);
    generate.setToolTipText("Saves the workflow and runs it (Run As > Generate code with cacheflow)");
    generate.setData(BUTTON_KEY, "generate");
    generate.addListener(SWT.Selection, e -> new GenerateLaunchShortcut().launch(editor, "run"));
    Button report = toolkit.createButton(actions, "Show Plan Report", SWT.PUSH);
    report.setToolTipText("Saves the workflow, makes the memory plan of this task and shows its Gantt chart and "
        + "graph coloured by strategy");
    report.setData(BUTTON_KEY, "report");
    report.addListener(SWT.Selection, e -> {
      if (editor.isDirty()) {
        editor.doSave(null);
      }
      new PlanReportJob(editor.file(), selectedTaskId).schedule();
    });
    controls = new CacheflowTaskControls(cacheflowPage, toolkit, this::setVariable);
    GridDataFactory.fillDefaults().grab(true, false).applyTo(controls.control());

    otherPage = toolkit.createComposite(detailsStack);
    GridLayoutFactory.fillDefaults().applyTo(otherPage);
    otherText = toolkit.createLabel(otherPage, "", SWT.WRAP);
    GridDataFactory.fillDefaults().grab(true, false).hint(500, SWT.DEFAULT).applyTo(otherText);
    Table variables = toolkit.createTable(otherPage, SWT.BORDER | SWT.FULL_SELECTION);
    variables.setHeaderVisible(true);
    GridDataFactory.fillDefaults().grab(true, false).hint(SWT.DEFAULT, 200).applyTo(variables);
    otherVariables = new TableViewer(variables);
    otherVariables.setContentProvider(ArrayContentProvider.getInstance());
    variableColumn("Variable", 220, Variable::name);
    variableColumn("Value", 260, Variable::value);
    details.setClient(detailsStack);
    refresh();
  }

  private void column(String title, int width, Function<Task, String> text) {
    TableViewerColumn column = new TableViewerColumn(tasks, SWT.NONE);
    column.getColumn().setText(title);
    column.getColumn().setWidth(width);
    column.setLabelProvider(ColumnLabelProvider.createTextProvider(element -> text.apply((Task) element)));
  }

  private void variableColumn(String title, int width, Function<Variable, String> text) {
    TableViewerColumn column = new TableViewerColumn(otherVariables, SWT.NONE);
    column.getColumn().setText(title);
    column.getColumn().setWidth(width);
    column.setLabelProvider(ColumnLabelProvider.createTextProvider(element -> text.apply((Variable) element)));
  }

  private String roleText(Task task) {
    boolean hasCacheflowTask = current != null && !current.cacheflowTasks().isEmpty();
    return switch (task.role()) {
      case CACHEFLOW -> "generates the code";
      case PREESM_CODE_GENERATION -> hasCacheflowTask ? "skipped" : "generates (defaults)";
      case NOT_NEEDED -> "skipped (not needed)";
    };
  }

  private void scheduleRefresh() {
    if (refreshScheduled) {
      return;
    }
    refreshScheduled = true;
    getSite().getShell().getDisplay().asyncExec(() -> {
      refreshScheduled = false;
      refresh();
    });
  }

  /** Reads the document again and shows it. */
  public void refresh() {
    if (document == null) {
      return;
    }
    try {
      current = WorkflowDocument.parse(document.get());
    } catch (SyntaxException e) {
      current = null;
      if (form != null && !form.isDisposed()) {
        form.setMessage("The source is not a valid workflow (line " + e.line() + ": " + e.getMessage()
            + "); fix it on the Source page.", IMessageProvider.ERROR);
        form.getBody().setEnabled(false);
      }
      return;
    }
    if (form == null || form.isDisposed()) {
      return;
    }
    form.setMessage(null, IMessageProvider.NONE);
    form.getBody().setEnabled(true);
    List<Task> all = current.tasks();
    tasks.setInput(all);
    addTask.setEnabled(current.cacheflowTasks().isEmpty());
    Task selected = selectedTaskId == null ? null : current.task(selectedTaskId);
    if (selected == null) {
      selected = current.cacheflowTasks().isEmpty() ? (all.isEmpty() ? null : all.get(0))
          : current.cacheflowTasks().get(0);
    }
    if (selected != null) {
      selectedTaskId = selected.taskId();
      tasks.setSelection(new StructuredSelection(selected), true);
      showDetails(selected);
    } else {
      otherText.setText("The workflow has no task. Add a cacheflow task to generate code with cacheflow.");
      otherVariables.setInput(List.of());
      stack.topControl = otherPage;
      detailsStack.layout();
    }
  }

  private void showDetails(Task task) {
    if (task.role() == TaskRole.CACHEFLOW) {
      details.setText(CodegenTask.DESCRIPTOR.name() + ": " + task.taskId());
      controls.show(task);
      stack.topControl = cacheflowPage;
    } else {
      details.setText(task.taskId() + " (" + task.pluginId() + ")");
      otherText.setText(task.role() == TaskRole.PREESM_CODE_GENERATION && current.cacheflowTasks().isEmpty()
          ? "PREESM's code generation. The workflow has no cacheflow task, so cacheflow generates this task's code "
              + "with its default settings. Add a cacheflow task to choose the memory strategy."
          : task.role() == TaskRole.PREESM_CODE_GENERATION
              ? "PREESM's code generation: skipped, the workflow's cacheflow task generates the code."
              : "A PREESM task cacheflow does not need (it schedules, allocates memory and generates code itself): "
                  + "skipped when cacheflow runs the workflow, kept in the file for PREESM.");
      otherVariables.setInput(task.variables());
      stack.topControl = otherPage;
    }
    detailsStack.layout(true, true);
    form.reflow(true);
  }

  /** Writes one variable of the selected cacheflow task into the document. */
  private void setVariable(String name, String value) {
    WorkflowDocument fresh;
    try {
      fresh = WorkflowDocument.parse(document.get());
    } catch (SyntaxException e) {
      return;
    }
    Task task = fresh.task(selectedTaskId);
    if (task == null || value.equals(task.value(name))) {
      return;
    }
    apply(fresh.setVariable(task, name, value));
  }

  private void addCacheflowTask() {
    try {
      WorkflowDocument fresh = WorkflowDocument.parse(document.get());
      String id = fresh.unusedTaskId("cacheflow");
      selectedTaskId = id;
      apply(fresh.addCacheflowTask(id));
    } catch (SyntaxException e) {
      // the page is disabled while the source is invalid
    }
    refresh();
  }

  private void apply(TextEdit edit) {
    writing = true;
    try {
      document.replace(edit.offset(), edit.length(), edit.text());
      current = WorkflowDocument.parse(document.get());
    } catch (BadLocationException | SyntaxException e) {
      throw new IllegalStateException("an edit computed on the current text does not apply to it", e);
    } finally {
      writing = false;
    }
  }
}
