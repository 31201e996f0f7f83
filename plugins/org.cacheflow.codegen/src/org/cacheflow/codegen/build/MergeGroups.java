package org.cacheflow.codegen.build;

/**
 * Pass 3: the plan's aliasing. Every buffer of a memory-script merge group lives in its root's memory at the
 * merger's offset (in pieces when the merger divided it); copy-on-write views keep their own.
 */
final class MergeGroups implements Pass {

  private BuildContext c;

  @Override
  public void run(BuildContext context) {
    this.c = context;
    for (int e = 0; e < c.edges; e++) {
      int r = c.plan.mergeRoot(e);
      if (r >= 0 && c.cowOfView[e] < 0) {
        c.offsetInRoot[e] = c.plan.mergeOffset(e);
        c.pieces[e] = c.plan.mergePieces(e);
        if (r == e) {
          c.groupBytes[e] = c.plan.groupBytes(e);
        } else {
          c.host[e] = r;
        }
      }
    }
  }

}
