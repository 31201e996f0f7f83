package org.cacheflow.ui.launch;

import org.eclipse.core.runtime.CoreException;
import org.eclipse.debug.ui.AbstractLaunchConfigurationTab;
import org.eclipse.debug.core.ILaunchConfiguration;
import org.eclipse.debug.core.ILaunchConfigurationWorkingCopy;
import org.eclipse.jface.layout.GridDataFactory;
import org.eclipse.jface.layout.GridLayoutFactory;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Text;

/** The workflow and (optionally) the scenario a configuration runs. */
final class GenerateMainTab extends AbstractLaunchConfigurationTab {

  private Text workflow;
  private Text scenario;

  @Override
  public void createControl(Composite parent) {
    Composite composite = new Composite(parent, SWT.NONE);
    GridLayoutFactory.swtDefaults().numColumns(2).applyTo(composite);
    new Label(composite, SWT.NONE).setText("Workflow:");
    workflow = new Text(composite, SWT.BORDER);
    workflow.setMessage("/project/Workflows/Codegen.workflow");
    GridDataFactory.fillDefaults().grab(true, false).applyTo(workflow);
    new Label(composite, SWT.NONE).setText("Scenario:");
    scenario = new Text(composite, SWT.BORDER);
    scenario.setMessage("the project's .ci.yaml pairs for this workflow, else every scenario");
    GridDataFactory.fillDefaults().grab(true, false).applyTo(scenario);
    Label help = new Label(composite, SWT.WRAP);
    help.setText("The workflow's cacheflow tasks are run with their variables (edit them in the workflow "
        + "editor); a PREESM code generation task stands in for one with default settings.");
    GridDataFactory.fillDefaults().span(2, 1).grab(true, false).hint(400, SWT.DEFAULT).applyTo(help);
    workflow.addModifyListener(e -> updateLaunchConfigurationDialog());
    scenario.addModifyListener(e -> updateLaunchConfigurationDialog());
    setControl(composite);
  }

  @Override
  public void setDefaults(ILaunchConfigurationWorkingCopy configuration) {
    configuration.setAttribute(GenerateLaunchDelegate.WORKFLOW, "");
    configuration.setAttribute(GenerateLaunchDelegate.SCENARIO, "");
  }

  @Override
  public void initializeFrom(ILaunchConfiguration configuration) {
    try {
      workflow.setText(configuration.getAttribute(GenerateLaunchDelegate.WORKFLOW, ""));
      scenario.setText(configuration.getAttribute(GenerateLaunchDelegate.SCENARIO, ""));
    } catch (CoreException e) {
      setErrorMessage(e.getMessage());
    }
  }

  @Override
  public void performApply(ILaunchConfigurationWorkingCopy configuration) {
    configuration.setAttribute(GenerateLaunchDelegate.WORKFLOW, workflow.getText().trim());
    configuration.setAttribute(GenerateLaunchDelegate.SCENARIO, scenario.getText().trim());
  }

  @Override
  public boolean isValid(ILaunchConfiguration configuration) {
    setErrorMessage(null);
    try {
      GenerateLaunchDelegate.workflow(configuration);
      return true;
    } catch (CoreException e) {
      setErrorMessage(e.getStatus().getMessage());
      return false;
    }
  }

  @Override
  public String getName() {
    return "Main";
  }
}
