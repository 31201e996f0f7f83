package org.cacheflow.ui.editor;

import org.cacheflow.ui.CacheflowUi;
import org.cacheflow.ui.markers.WorkflowMarkers;
import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.WorkspaceJob;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.Status;
import org.eclipse.jface.text.IDocument;
import org.eclipse.ui.IEditorInput;
import org.eclipse.ui.IEditorSite;
import org.eclipse.ui.IFileEditorInput;
import org.eclipse.ui.PartInitException;
import org.eclipse.ui.editors.text.TextEditor;
import org.eclipse.ui.forms.editor.FormEditor;

/**
 * The editor of PREESM {@code .workflow} files: a form page listing the tasks, with the cacheflow task's settings
 * (memory strategy with the effect of each choice, cores, target, per-FIFO overrides...), and the XML source
 * page. Both show one document — the source page's — so they are always in sync, undo covers both, and the
 * form changes nothing but the variable values it edits.
 */
public final class WorkflowEditor extends FormEditor {

  /** The form page's id. */
  public static final String TASKS_PAGE_ID = "tasks";

  private TextEditor source;
  private WorkflowFormPage tasksPage;

  @Override
  public void init(IEditorSite site, IEditorInput input) throws PartInitException {
    if (!(input instanceof IFileEditorInput)) {
      throw new PartInitException("the cacheflow workflow editor edits workflow files of the workspace; import "
          + "the PREESM project (File > Import > Existing Projects into Workspace) first");
    }
    super.init(site, input);
    setPartName(input.getName());
    scheduleMarkerUpdate();
  }

  @Override
  protected void addPages() {
    try {
      tasksPage = new WorkflowFormPage(this);
      addPage(tasksPage);
      source = new TextEditor();
      int sourceIndex = addPage(source, getEditorInput());
      setPageText(sourceIndex, "Source");
      tasksPage.connect(document());
    } catch (PartInitException e) {
      org.eclipse.core.runtime.ILog.of(WorkflowEditor.class).log(e.getStatus());
    }
  }

  /** The file edited. */
  public IFile file() {
    return ((IFileEditorInput) getEditorInput()).getFile();
  }

  /** The document both pages show. */
  public IDocument document() {
    return source.getDocumentProvider().getDocument(getEditorInput());
  }

  /** The form page. */
  public WorkflowFormPage tasksPage() {
    return tasksPage;
  }

  @Override
  public void doSave(IProgressMonitor monitor) {
    source.doSave(monitor);
    editorDirtyStateChanged();
    scheduleMarkerUpdate();
  }

  @Override
  public void doSaveAs() {
    // not offered: a workflow is saved where it is
  }

  @Override
  public boolean isSaveAsAllowed() {
    return false;
  }

  @Override
  public void dispose() {
    if (tasksPage != null) {
      tasksPage.disconnect();
    }
    super.dispose();
  }

  /** Problem markers follow the saved file (a run reads the saved file too). */
  private void scheduleMarkerUpdate() {
    IFile file = file();
    WorkspaceJob job = new WorkspaceJob("Checking " + file.getName()) {
      @Override
      public IStatus runInWorkspace(IProgressMonitor monitor) throws CoreException {
        WorkflowMarkers.update(file);
        return Status.OK_STATUS;
      }

      @Override
      public boolean belongsTo(Object family) {
        return family == CacheflowUi.MARKER_TYPE;
      }
    };
    job.setSystem(true);
    job.schedule();
  }
}
