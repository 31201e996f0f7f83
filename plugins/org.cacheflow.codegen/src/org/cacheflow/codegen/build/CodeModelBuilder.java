package org.cacheflow.codegen.build;

import java.util.List;
import java.util.function.Supplier;

import org.cacheflow.codegen.model.CodeProject;
import org.cacheflow.model.diagnostics.InputException;

/**
 * Turns a plan into the code model by ordered passes, each one job (a fresh instance per build), each recording
 * its decisions in a {@link BuildContext} for the later ones; {@link ProjectAssembly} then makes the
 * {@link CodeProject}. All decisions are made here; printers only print (C syntax is only in their templates).
 *
 * <p>
 * On several nodes (one SPMD program over MPI, rank = node), a buffer written on one node and read on another is
 * an inter-node transfer (persistent MPI requests, k slots on each side); every other mechanism (semaphores, flags,
 * channels, merge groups, copy-on-write views, delay states, the iteration barrier) stays within one node, and a plan
 * that would need one across nodes is refused with the reason.
 */
public final class CodeModelBuilder {

  /** The passes, in the order they run: each reads only what the ones before it decided. */
  static final List<Supplier<Pass>> PASSES = List.of(
      AcyclicCheck::new, // the single-rate graph has no cycle
      CopyOnWriteViews::new, // the plan's copy-on-write views and their buffers
      MergeGroups::new, // the plan's aliasing: where each edge lies in its merge root's memory
      SpecialCopies::new, // what special vertices still copy once aliasing is decided
      StorageChoice::new, // per root: static, channel, semaphore, shared group, copy-on-write, delay state, transfer
      Pipelining::new, // iteration offsets checked; one core's buffers used across passes get a copy per iteration
      BufferLayout::new, // static buffers, pools, delay states, channels, MPI transfers, semaphores, the heap
      Sinks::new, // what validation digests
      CoreSchedules::new, // each core's program: sync before and after uses, actor calls, copies, digests
      FlagLowering::new); // except under the baseline, semaphores become coalesced rdy-ack flags

  private CodeModelBuilder() {
  }

  /**
   * Builds the code model.
   *
   * @param plan mapping, schedule and strategy
   * @param synthetic generate actor bodies instead of calling the actors' prototypes
   * @throws InputException when an actor cannot be called (no prototype, a prototype parameter without a port
   *     or config value)
   */
  public static CodeProject build(ExecutionPlan plan, boolean synthetic) {
    BuildContext context = new BuildContext(plan, synthetic);
    for (Supplier<Pass> pass : PASSES) {
      pass.get().run(context);
    }
    return ProjectAssembly.project(context);
  }
}
