package org.cacheflow.codegen.build;

/**
 * One job of code-model building: reads what earlier passes decided in the {@link BuildContext} and records its
 * own decisions there. {@link CodeModelBuilder#PASSES} lists them in order.
 */
interface Pass {

  void run(BuildContext context);
}
