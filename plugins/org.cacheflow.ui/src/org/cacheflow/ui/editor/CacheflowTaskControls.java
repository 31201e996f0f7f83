package org.cacheflow.ui.editor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;

import org.cacheflow.ui.workflow.WorkflowDocument.Task;
import org.cacheflow.plan.strategy.StrategyOverride;
import org.cacheflow.workflow.CodegenTask;
import org.cacheflow.workflow.descriptor.AllowedValue;
import org.cacheflow.workflow.descriptor.TaskParameter;
import org.eclipse.jface.layout.GridDataFactory;
import org.eclipse.jface.layout.GridLayoutFactory;
import org.eclipse.jface.viewers.ArrayContentProvider;
import org.eclipse.jface.viewers.CellEditor;
import org.eclipse.jface.viewers.ColumnLabelProvider;
import org.eclipse.jface.viewers.ComboBoxCellEditor;
import org.eclipse.jface.viewers.EditingSupport;
import org.eclipse.jface.viewers.TableViewer;
import org.eclipse.jface.viewers.TableViewerColumn;
import org.eclipse.jface.viewers.TextCellEditor;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.CCombo;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.Text;
import org.eclipse.ui.forms.widgets.FormToolkit;

/**
 * The controls of a cacheflow task, one row per parameter of {@link CodegenTask#DESCRIPTOR} and the control its
 * kind calls for: a drop-down with the effect of the chosen value beside it for choices, a check box for
 * booleans, a text for numbers and folders, a drop-down that also takes a file for the target, and a table for
 * the per-FIFO overrides. Every control carries its parameter name as widget data {@link #PARAMETER_KEY}.
 */
public final class CacheflowTaskControls {

  /** Widget data key holding the parameter name of a control. */
  public static final String PARAMETER_KEY = "org.cacheflow.ui.parameter";
  /**
   * The strategies an override may name, for the table's drop-down: the override vocabulary
   * ({@link StrategyOverride.Choice}; the {@code channel:K} forms can be typed).
   */
  static final String[] OVERRIDE_STRATEGIES = Arrays.stream(StrategyOverride.Choice.values())
      .map(choice -> choice.label).toArray(String[]::new);

  private final Composite composite;
  private final BiConsumer<String, String> onChange;
  private final Map<String, Row> rows = new LinkedHashMap<>();
  private boolean updating;

  /** One parameter's controls. */
  private static final class Row {
    TaskParameter parameter;
    Control control;
    Label effect;
    TableViewer overrides;
    List<String[]> entries = new ArrayList<>();
  }

  /**
   * @param onChange told {@code (parameter, value)} when the user changes a value (not when {@link #show} does)
   */
  public CacheflowTaskControls(Composite parent, FormToolkit toolkit, BiConsumer<String, String> onChange) {
    this.onChange = onChange;
    composite = toolkit.createComposite(parent);
    GridLayoutFactory.fillDefaults().numColumns(3).spacing(10, 6).applyTo(composite);
    for (TaskParameter parameter : CodegenTask.DESCRIPTOR.parameters()) {
      Row row = new Row();
      row.parameter = parameter;
      Label name = toolkit.createLabel(composite, parameter.name() + ":");
      name.setToolTipText(parameter.description());
      GridDataFactory.swtDefaults().align(SWT.BEGINNING, SWT.BEGINNING).indent(0, 4).applyTo(name);
      switch (parameter.kind()) {
        case CHOICE -> {
          Combo combo = new Combo(composite, SWT.READ_ONLY | SWT.DROP_DOWN);
          combo.setItems(parameter.values().stream().map(AllowedValue::name).toArray(String[]::new));
          combo.setVisibleItemCount(parameter.values().size());
          combo.addListener(SWT.Selection, e -> changed(row, combo.getText()));
          row.control = combo;
          GridDataFactory.swtDefaults().align(SWT.BEGINNING, SWT.BEGINNING).hint(170, SWT.DEFAULT).applyTo(combo);
        }
        case BOOLEAN -> {
          Button check = toolkit.createButton(composite, "", SWT.CHECK);
          check.addListener(SWT.Selection, e -> changed(row, Boolean.toString(check.getSelection())));
          row.control = check;
          GridDataFactory.swtDefaults().align(SWT.BEGINNING, SWT.BEGINNING).indent(0, 4).applyTo(check);
        }
        case NAME_OR_FILE -> {
          Combo combo = new Combo(composite, SWT.DROP_DOWN);
          combo.setItems(parameter.values().stream().map(AllowedValue::name).toArray(String[]::new));
          combo.addListener(SWT.Modify, e -> changed(row, combo.getText()));
          row.control = combo;
          GridDataFactory.swtDefaults().align(SWT.BEGINNING, SWT.BEGINNING).hint(170, SWT.DEFAULT).applyTo(combo);
        }
        case LIST -> createOverrides(toolkit, row);
        default -> {
          Text text = toolkit.createText(composite, "", SWT.BORDER | SWT.SINGLE);
          text.setMessage("default");
          text.addListener(SWT.Modify, e -> changed(row, text.getText()));
          row.control = text;
          GridDataFactory.swtDefaults().align(SWT.FILL, SWT.BEGINNING).hint(170, SWT.DEFAULT).applyTo(text);
        }
      }
      row.control.setData(PARAMETER_KEY, parameter.name());
      row.control.setToolTipText(parameter.description());
      if (parameter.kind() != org.cacheflow.workflow.descriptor.ValueKind.LIST) {
        row.effect = toolkit.createLabel(composite, "", SWT.WRAP);
        row.effect.setData(PARAMETER_KEY, parameter.name() + ".effect");
        GridDataFactory.fillDefaults().grab(true, false).hint(320, SWT.DEFAULT).applyTo(row.effect);
      }
      rows.put(parameter.name(), row);
    }
  }

  private void createOverrides(FormToolkit toolkit, Row row) {
    Composite box = toolkit.createComposite(composite);
    GridDataFactory.fillDefaults().grab(true, false).span(2, 1).applyTo(box);
    GridLayoutFactory.fillDefaults().numColumns(2).applyTo(box);
    Table table = toolkit.createTable(box, SWT.BORDER | SWT.FULL_SELECTION | SWT.SINGLE);
    table.setHeaderVisible(true);
    table.setLinesVisible(true);
    GridDataFactory.fillDefaults().grab(true, false).hint(SWT.DEFAULT, 90).applyTo(table);
    TableViewer viewer = new TableViewer(table);
    viewer.setContentProvider(ArrayContentProvider.getInstance());
    TableViewerColumn kind = new TableViewerColumn(viewer, SWT.NONE);
    kind.getColumn().setText("Kind");
    kind.getColumn().setWidth(70);
    kind.setLabelProvider(ColumnLabelProvider.createTextProvider(entry -> OverrideRows.kind((String[]) entry)));
    TableViewerColumn fifo = new TableViewerColumn(viewer, SWT.NONE);
    fifo.getColumn().setText("FIFO end (actor.port; * and ? match) or setting (slots, pipelining)");
    fifo.getColumn().setWidth(300);
    fifo.setLabelProvider(ColumnLabelProvider.createTextProvider(entry -> ((String[]) entry)[0]));
    fifo.setEditingSupport(new EntryEditing(viewer, row, 0));
    TableViewerColumn strategy = new TableViewerColumn(viewer, SWT.NONE);
    strategy.getColumn().setText("Strategy or value");
    strategy.getColumn().setWidth(150);
    strategy.setLabelProvider(ColumnLabelProvider.createTextProvider(entry -> ((String[]) entry)[1]));
    strategy.setEditingSupport(new EntryEditing(viewer, row, 1));
    Composite buttons = toolkit.createComposite(box);
    GridLayoutFactory.fillDefaults().applyTo(buttons);
    GridDataFactory.swtDefaults().align(SWT.BEGINNING, SWT.BEGINNING).applyTo(buttons);
    Button add = toolkit.createButton(buttons, "Add", SWT.PUSH);
    GridDataFactory.fillDefaults().applyTo(add);
    add.addListener(SWT.Selection, e -> {
      row.entries.add(new String[] {"Actor.port", "cow"});
      viewer.refresh();
      overridesChanged(row);
      viewer.editElement(row.entries.get(row.entries.size() - 1), 0);
    });
    Button remove = toolkit.createButton(buttons, "Remove", SWT.PUSH);
    GridDataFactory.fillDefaults().applyTo(remove);
    remove.addListener(SWT.Selection, e -> {
      int index = table.getSelectionIndex();
      if (index >= 0) {
        row.entries.remove(index);
        viewer.refresh();
        overridesChanged(row);
      }
    });
    add.setData(PARAMETER_KEY, row.parameter.name() + ".add");
    remove.setData(PARAMETER_KEY, row.parameter.name() + ".remove");
    Label help = toolkit.createLabel(box, row.parameter.description(), SWT.WRAP);
    GridDataFactory.fillDefaults().grab(true, false).span(2, 1).hint(440, SWT.DEFAULT).applyTo(help);
    row.overrides = viewer;
    viewer.setInput(row.entries);
    row.control = table;
  }

  /** Edits one cell of the overrides table. */
  private final class EntryEditing extends EditingSupport {
    private final TableViewer viewer;
    private final Row row;
    private final int column;
    private final CellEditor editor;
    /** A setting's value (slots=K, pipelining=on|off) is typed: the strategies do not apply. */
    private final CellEditor typedEditor;

    EntryEditing(TableViewer viewer, Row row, int column) {
      super(viewer);
      this.viewer = viewer;
      this.row = row;
      this.column = column;
      this.typedEditor = new TextCellEditor(viewer.getTable());
      this.editor = column == 0 ? typedEditor : new ComboBoxCellEditor(viewer.getTable(), OVERRIDE_STRATEGIES,
          SWT.NONE);
    }

    private boolean typed(Object element) {
      return column == 0 || OverrideRows.isSetting((String[]) element);
    }

    @Override
    protected CellEditor getCellEditor(Object element) {
      return typed(element) ? typedEditor : editor;
    }

    @Override
    protected boolean canEdit(Object element) {
      return true;
    }

    @Override
    protected Object getValue(Object element) {
      String value = ((String[]) element)[column];
      if (typed(element)) {
        return value;
      }
      return List.of(OVERRIDE_STRATEGIES).indexOf(value);
    }

    @Override
    protected void setValue(Object element, Object value) {
      String text;
      if (value instanceof String typedValue) {
        text = typedValue;
      } else {
        // the drop-down also takes typed values such as channel:4
        int index = value instanceof Integer i ? i : -1;
        text = index >= 0 ? OVERRIDE_STRATEGIES[index] : editorText(editor, ((String[]) element)[1]);
      }
      ((String[]) element)[column] = text.trim();
      viewer.update(element, null);
      overridesChanged(row);
    }

    private String editorText(CellEditor cellEditor, String fallback) {
      return cellEditor.getControl() instanceof CCombo combo && !combo.getText().isBlank() ? combo.getText() : fallback;
    }
  }

  public Composite control() {
    return composite;
  }

  /** Shows the values of {@code task} (defaults for the variables it lacks) without reporting changes. */
  public void show(Task task) {
    updating = true;
    try {
      for (Row row : rows.values()) {
        String written = task.value(row.parameter.name());
        String value = written == null || written.isBlank() ? row.parameter.defaultValue() : written;
        switch (row.parameter.kind()) {
          case CHOICE -> {
            Combo combo = (Combo) row.control;
            Optional<AllowedValue> allowed = row.parameter.value(value);
            if (allowed.isPresent()) {
              if (!combo.getText().equals(allowed.get().name())) {
                combo.select(row.parameter.values().indexOf(allowed.get()));
              }
            } else {
              combo.deselectAll();
            }
          }
          case BOOLEAN -> ((Button) row.control).setSelection(value.trim().equalsIgnoreCase("true"));
          case NAME_OR_FILE -> setText((Combo) row.control, written == null ? value : written);
          case LIST -> {
            List<String[]> entries = OverrideRows.rows(written);
            if (!sameEntries(entries, row.entries)) {
              row.entries.clear();
              row.entries.addAll(entries);
              row.overrides.refresh();
            }
          }
          default -> {
            Text text = (Text) row.control;
            String shown = written == null ? "" : written;
            if (!text.getText().equals(shown)) {
              text.setText(shown);
            }
          }
        }
        describe(row, written == null ? value : written);
      }
    } finally {
      updating = false;
    }
    composite.layout(true, true);
  }

  private static void setText(Combo combo, String text) {
    if (!combo.getText().equals(text)) {
      combo.setText(text);
    }
  }

  private static boolean sameEntries(List<String[]> a, List<String[]> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (!Arrays.equals(a.get(i), b.get(i))) {
        return false;
      }
    }
    return true;
  }

  private void changed(Row row, String value) {
    describe(row, value);
    if (!updating) {
      onChange.accept(row.parameter.name(), value);
    }
  }

  private void overridesChanged(Row row) {
    String value = OverrideRows.text(row.entries);
    if (!updating) {
      onChange.accept(row.parameter.name(), value);
    }
  }

  /** The effect of the value beside it, or what is wrong with it (in red). */
  private void describe(Row row, String value) {
    if (row.effect == null) {
      return;
    }
    Optional<String> problem = row.parameter.problem(value);
    String text;
    if (problem.isPresent()) {
      text = problem.get();
    } else if (value == null || value.isBlank()) {
      text = "Default: " + row.parameter.defaultMeaning() + ".";
    } else {
      text = row.parameter.value(value).map(AllowedValue::effect).orElse(row.parameter.kind()
          == org.cacheflow.workflow.descriptor.ValueKind.NAME_OR_FILE ? "A target file: " + row.parameter.syntax()
              + "." : row.parameter.description());
    }
    row.effect.setText(text);
    row.effect.setForeground(problem.isPresent() ? row.effect.getDisplay().getSystemColor(SWT.COLOR_RED) : null);
  }
}
