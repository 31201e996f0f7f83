package org.cacheflow.releng.genmodel;

import java.io.File;
import java.io.OutputStream;
import java.io.PrintStream;

import org.eclipse.emf.codegen.ecore.generator.Generator;
import org.eclipse.emf.codegen.ecore.generator.GeneratorAdapterFactory;
import org.eclipse.emf.codegen.ecore.genmodel.GenModel;
import org.eclipse.emf.codegen.ecore.genmodel.GenModelPackage;
import org.eclipse.emf.codegen.ecore.genmodel.generator.GenBaseGeneratorAdapter;
import org.eclipse.emf.codegen.ecore.genmodel.generator.GenModelGeneratorAdapterFactory;
import org.eclipse.emf.common.util.BasicMonitor;
import org.eclipse.emf.common.util.Diagnostic;
import org.eclipse.emf.common.util.URI;
import org.eclipse.emf.ecore.EcorePackage;
import org.eclipse.emf.ecore.resource.Resource;
import org.eclipse.emf.ecore.resource.ResourceSet;
import org.eclipse.emf.ecore.resource.impl.ResourceSetImpl;
import org.eclipse.emf.ecore.xmi.impl.EcoreResourceFactoryImpl;
import org.eclipse.emf.ecore.xmi.impl.XMIResourceFactoryImpl;

/**
 * Generates the EMF model Java code of one bundle from its {@code .genmodel}, without Eclipse running.
 * Usage: {@code GenModelRunner <bundle-dir> <bundle-symbolic-name> <genmodel path relative to bundle-dir>}.
 * The genmodel refers to its files as {@code platform:/resource/<bundle>/...}; that prefix is mapped to
 * the bundle directory so the generator reads and writes the files in place.
 */
public final class GenModelRunner {

  private GenModelRunner() {
  }

  public static void main(String[] args) {
    if (args.length != 3) {
      System.err.println("usage: GenModelRunner <bundle-dir> <bundle-symbolic-name> <genmodel-relative-path>");
      System.exit(2);
    }
    File bundleDir = new File(args[0]).getAbsoluteFile();
    String bundleName = args[1];
    Diagnostic result = generate(bundleDir, bundleName, args[2]);
    if (result.getSeverity() == Diagnostic.ERROR) {
      System.err.println("EMF code generation failed: " + result);
      System.exit(1);
    }
  }

  static Diagnostic generate(File bundleDir, String bundleName, String genModelPath) {
    EcorePackage.eINSTANCE.eClass();
    GenModelPackage.eINSTANCE.eClass();
    GeneratorAdapterFactory.Descriptor.Registry.INSTANCE.addDescriptor(GenModelPackage.eNS_URI,
        GenModelGeneratorAdapterFactory.DESCRIPTOR);

    ResourceSet resources = new ResourceSetImpl();
    resources.getResourceFactoryRegistry().getExtensionToFactoryMap().put("ecore", new EcoreResourceFactoryImpl());
    resources.getResourceFactoryRegistry().getExtensionToFactoryMap().put("genmodel", new XMIResourceFactoryImpl());
    URI bundleUri = URI.createFileURI(bundleDir.getPath() + File.separator);
    resources.getURIConverter().getURIMap().put(URI.createPlatformResourceURI("/" + bundleName + "/", true), bundleUri);

    Resource genModelResource = resources.getResource(URI.createFileURI(new File(bundleDir, genModelPath).getPath()),
        true);
    GenModel genModel = (GenModel) genModelResource.getContents().get(0);
    genModel.reconcile();
    genModel.setCanGenerate(true);
    genModel.setValidateModel(false);

    Generator generator = new Generator();
    generator.setInput(genModel);
    return generator.generate(genModel, GenBaseGeneratorAdapter.MODEL_PROJECT_TYPE,
        new BasicMonitor.Printing(new PrintStream(OutputStream.nullOutputStream())));
  }
}
