package org.cacheflow.codegen.build;

import java.util.Set;

import org.cacheflow.codegen.model.CodeProject;
import org.cacheflow.model.diagnostics.InputException;

/**
 * Turns a plan into the code model by ordered passes, each one job that takes what the earlier ones decided and
 * returns its own decisions; {@link ProjectAssembly} then makes the {@link CodeProject}. All decisions are made
 * here; printers only print (C syntax is only in their templates).
 *
 * <p>
 * On several nodes (one SPMD program over MPI, rank = node), a buffer written on one node and read on another is
 * an inter-node transfer (persistent MPI requests, k slots on each side); every other mechanism (semaphores, flags,
 * channels, merge groups, copy-on-write views, delay states, the iteration barrier) stays within one node, and a plan
 * that would need one across nodes is refused with the reason.
 */
public final class CodeModelBuilder {

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
    BuildInput in = new BuildInput(plan, synthetic);
    // the single-rate graph has no cycle
    AcyclicCheck.topologicalOrder(in.srdag);
    // the plan's copy-on-write views and their buffers
    CowViews views = CopyOnWriteViews.of(in);
    // the plan's aliasing: where each edge lies in its merge root's memory
    Roots roots = MergeGroups.of(in, views);
    // what special vertices still copy once aliasing is decided
    RootUses uses = new RootUses(in, roots, SpecialCopies.of(in, roots, views));
    Set<BufferId> initRoots = uses.ofInitCalls();
    // per root: static, channel, semaphore, shared group, copy-on-write, delay state, transfer
    StorageChoice.Choice choice = StorageChoice.choose(in, roots, views, uses, initRoots);
    // iteration offsets checked; one core's buffers used across passes get a copy per iteration
    Storage storage = Pipelining.apply(in, roots, choice.cow(), uses, choice.storage(), initRoots);
    // static buffers, pools, delay states, channels, MPI transfers, semaphores, the heap
    Layout layout = BufferLayout.of(in, roots, storage, uses, initRoots, choice.signals().semaphoreStarts());
    // what validation digests
    Sinks.Digests digests = Sinks.of(in);
    // each core's program: sync before and after uses, actor calls, copies, digests
    CoreSchedules.Schedules schedules = CoreSchedules.of(in, roots, uses, choice.cow(), choice, storage, layout,
        digests);
    // except under the baseline, semaphores become coalesced rdy-ack flags
    FlagLowering.Synchronisation sync = FlagLowering.lower(in.strategy, schedules.cores(), layout.semaphoreStarts());
    return ProjectAssembly.project(in, layout, choice.cow().cows(), digests, schedules, sync);
  }
}
