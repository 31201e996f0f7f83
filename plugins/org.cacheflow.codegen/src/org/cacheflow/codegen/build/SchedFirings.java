package org.cacheflow.codegen.build;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.cacheflow.codegen.model.Argument;
import org.cacheflow.codegen.model.BufferRef;
import org.cacheflow.codegen.model.CodeProject;
import org.cacheflow.codegen.model.Core;
import org.cacheflow.codegen.model.SchedTable;
import org.cacheflow.codegen.model.SchedTable.SchedFiring;
import org.cacheflow.codegen.model.StaticBuffer;
import org.cacheflow.codegen.model.Statement;
import org.cacheflow.plan.schedule.RunSchedule;

/**
 * The firing table of a dynamic or hybrid schedule, from the program of one core: each step of its iteration (an
 * actor call, a copy, a zero-fill, a digest) becomes a firing, and a firing follows every earlier one whose memory
 * it touches (read after write, write after read or write, by byte ranges of the same allocation: steps touching
 * sub-ranges of one merge group's memory conflict only where their ranges overlap). An actor argument counts as
 * written unless the actor only reads it (an input annotated read-only or unused, {@link Argument.Data#readOnly}),
 * since actors may write their inputs: the consumers of one merged broadcast that only read it do not wait for each
 * other. The one-core order is a topological order of these edges, so any placement of the firings of one
 * iteration computes what the one-core program computes.
 *
 * <p>Iterations overlap up to the table's slots ({@link #slotted}): every buffer an iteration uses on its own gets
 * one copy per slot (iteration i in copy i % slots), and the runtime admits iteration i only once iteration
 * i - slots has completed, so no firing overwrites a copy still being read. What the iterations share is ordered
 * across them by edges to the next iteration: an actor call, the first step (which checks for a stop) and a digest
 * (its sink's checksum is updated in iteration order) follow their own firing of the previous iteration (an actor
 * may keep state), and steps touching memory every iteration uses (a persistent delay's two copies, a buffer an
 * init prototype is given) follow those of the previous iteration they conflict with.
 */
public final class SchedFirings {

  /** Scenario-free costs: an actor call is worth this many copies (priorities and hybrid orders). */
  private static final long CALL_COST = 10;

  private SchedFirings() {
  }

  /** The root a digest writes: its sink part's checksum, updated in iteration order. */
  private static final String CHECKSUM = "#checksum ";

  /**
   * One byte range a step touches.
   *
   * @param shared whether every iteration uses the same bytes (else each iteration has its own copy)
   */
  private record Access(String root, long start, long end, boolean write, boolean shared) {
    boolean conflicts(Access other) {
      return root.equals(other.root) && (write || other.write) && start < other.end && other.start < end;
    }
  }

  /**
   * The table for a one-core program.
   *
   * @param project a program of one core without pipelining, channels, pre-stores or copy-on-write buffers (one
   *     built from a {@link DispatchedExecution})
   * @param schedule dynamic or hybrid, with the variable actors ({@link RunSchedule#pooled})
   * @param threads the workers
   * @param slots the iterations in flight; with more than one, {@code project} is {@link #slotted} with them
   * @throws IllegalArgumentException naming a variable actor the graph does not have (with the option that named it)
   */
  public static SchedTable of(CodeProject project, RunSchedule schedule, int threads, int slots) {
    if (project.cores().size() != 1 || project.multiNode()) {
      throw new IllegalStateException("a dispatched schedule is built from a program of one core on one node");
    }
    Core core = project.cores().get(0);
    Map<String, StaticBuffer> buffers = new HashMap<>();
    project.buffers().forEach(b -> buffers.put(b.name(), b));
    List<Statement> steps = core.loop();
    int n = steps.size();
    List<List<Access>> accesses = new ArrayList<>();
    for (Statement step : steps) {
      accesses.add(accesses(step, buffers));
    }
    List<List<Integer>> preds = predecessors(accesses);
    List<Set<Integer>> later = slots > 1 ? acrossIterations(steps, accesses) : null;
    List<List<Integer>> succs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      succs.add(new ArrayList<>());
    }
    for (int j = 0; j < n; j++) {
      for (int p : preds.get(j)) {
        succs.get(p).add(j);
      }
    }
    Set<String> used = new LinkedHashSet<>();
    List<String> pooled = schedule.pooled();
    long[] cost = new long[n];
    boolean[] variable = new boolean[n];
    for (int i = 0; i < n; i++) {
      cost[i] = steps.get(i) instanceof Statement.ActorCall ? CALL_COST : 1;
      if (schedule.kind() == RunSchedule.Kind.HYBRID) {
        // the steps of special actors (copies, zero-fills, digests) are short: pooled, they never make a core's
        // static order wait for a firing another core runs
        String vertex = steps.get(i) instanceof Statement.ActorCall call ? call.vertex() : null;
        variable[i] = vertex == null || marked(vertex, pooled) != null;
        if (vertex != null) {
          // every name that names the actor is used: --variable Tile and --cost-spread top/Tile=0.6 alike
          pooled.stream().filter(name -> marked(vertex, List.of(name)) != null).forEach(used::add);
        }
      }
    }
    for (String name : pooled) {
      if (schedule.kind() == RunSchedule.Kind.HYBRID && !used.contains(name)) {
        throw new IllegalArgumentException((schedule.variable().contains(name) ? "--variable " : "--cost-spread ")
            + name + ": the graph has no actor of that name");
      }
    }
    Chains chains = Chains.of(steps, preds, succs, variable, schedule.kind() == RunSchedule.Kind.HYBRID);
    int m = chains.members.size();
    List<List<Integer>> groupPreds = new ArrayList<>();
    List<List<Integer>> groupSuccs = new ArrayList<>();
    List<Set<Integer>> groupLater = new ArrayList<>();
    long[] groupCost = new long[m];
    for (int g = 0; g < m; g++) {
      List<Integer> members = chains.members.get(g);
      groupPreds.add(preds.get(members.get(0)).stream().map(p -> chains.group[p]).toList());
      groupSuccs.add(succs.get(members.get(members.size() - 1)).stream().map(t -> chains.group[t]).toList());
      Set<Integer> next = new TreeSet<>();
      for (int i : members) {
        groupCost[g] += cost[i];
        if (later != null) {
          later.get(i).forEach(t -> next.add(chains.group[t]));
        }
      }
      groupLater.add(next);
    }
    long[] bottom = new long[m];
    for (int g = m - 1; g >= 0; g--) {
      long below = 0;
      for (int t : groupSuccs.get(g)) {
        below = Math.max(below, bottom[t]);
      }
      bottom[g] = groupCost[g] + below;
    }
    int[] incoming = new int[m];
    groupLater.forEach(next -> next.forEach(t -> incoming[t]++));
    List<SchedFiring> firings = new ArrayList<>();
    for (int g = 0; g < m; g++) {
      List<Statement> statements = chains.members.get(g).stream().map(steps::get).toList();
      firings.add(new SchedFiring(statements, groupSuccs.get(g), List.copyOf(groupLater.get(g)),
          groupPreds.get(g).size() + incoming[g], bottom[g], chains.variable[g],
          String.join(" + ", statements.stream().map(SchedFirings::label).toList())));
    }
    boolean hybrid = schedule.kind() == RunSchedule.Kind.HYBRID;
    return new SchedTable(hybrid, threads, slots, firings, hybrid ? orders(groupPreds, groupCost, chains.variable,
        threads, slots) : List.of());
  }

  /**
   * The one-core program with every pooled buffer in an allocation of its own: a pool shares memory between buffers
   * whose lifetimes do not overlap in the one-core order, which would make firings that could run together wait for
   * each other (a write after read of the shared bytes). The allocator's reserve grows by what the pools saved.
   */
  public static CodeProject unpooled(CodeProject project) {
    Set<String> pools = new LinkedHashSet<>();
    project.buffers().stream().filter(b -> b.pool() != null).forEach(b -> pools.add(b.pool()));
    long heapBytes = project.heapBytes();
    for (StaticBuffer b : project.buffers()) {
      if (b.pool() != null) {
        long block = 2 * ((b.totalBytes() + 64 + 63) / 64 * 64);
        heapBytes = heapBytes > Long.MAX_VALUE / 2 ? heapBytes : heapBytes + block + (1L << 20);
      }
    }
    List<Core> cores = new ArrayList<>();
    for (Core core : project.cores()) {
      cores.add(new Core(core.index(), core.pointers(), own(core.buffers(), pools), core.homes(), core.init(),
          core.loop()));
    }
    return new CodeProject(project.graphName(), project.identifier(), project.strategy(), project.synthetic(),
        project.barrier(), project.semaphoreStarts(), project.headers(), project.declarations(),
        own(project.buffers(), pools), heapBytes, project.channels(), project.cowBuffers(), project.sinks(), cores,
        project.nodeSplit());
  }

  /** The buffers without the pools, their members with allocations of their own. */
  private static List<StaticBuffer> own(List<StaticBuffer> buffers, Set<String> pools) {
    return buffers.stream().filter(b -> !pools.contains(b.name())).map(b -> b.pool() == null ? b
        : new StaticBuffer(b.name(), b.bytes(), b.copies(), b.home(), b.description())).toList();
  }

  /**
   * The steps joined into firings: a step whose only predecessor is the previous step of a chain, which has no other
   * successor, runs in the same firing right after it (a fork's copy and the actor it feeds, an actor and the join's
   * copy of its output): the dispatcher would run it there anyway, and one firing costs one claim and one count
   * instead of two. In a hybrid schedule a chain holds the calls of variable actors only or of steady ones only
   * (with the copies between them), so that what is pooled stays pooled; a chain without a call is pooled.
   *
   * @param group per step, its firing
   * @param members per firing, its steps in order
   * @param variable per firing, whether a hybrid run pools it
   */
  private record Chains(int[] group, List<List<Integer>> members, boolean[] variable) {

    static Chains of(List<Statement> steps, List<List<Integer>> preds, List<List<Integer>> succs,
        boolean[] stepVariable, boolean hybrid) {
      int n = steps.size();
      int[] group = new int[n];
      List<List<Integer>> members = new ArrayList<>();
      List<Boolean> kinds = new ArrayList<>();
      for (int j = 0; j < n; j++) {
        Boolean kind = steps.get(j) instanceof Statement.ActorCall ? stepVariable[j] : null;
        if (preds.get(j).size() == 1 && succs.get(preds.get(j).get(0)).size() == 1) {
          int g = group[preds.get(j).get(0)];
          Boolean chain = kinds.get(g);
          if (kind == null || chain == null || kind.equals(chain)) {
            group[j] = g;
            members.get(g).add(j);
            kinds.set(g, chain != null ? chain : kind);
            continue;
          }
        }
        group[j] = members.size();
        members.add(new ArrayList<>(List.of(j)));
        kinds.add(kind);
      }
      boolean[] variable = new boolean[members.size()];
      for (int g = 0; g < variable.length; g++) {
        variable[g] = hybrid && (kinds.get(g) == null || kinds.get(g));
      }
      return new Chains(group, members, variable);
    }
  }

  /**
   * The name in {@code variable} that names a single-rate vertex ({@code sub/Blur_3}) or its actor, as
   * {@link org.cacheflow.plan.schedule.ActorNames#naming} matches them, or null.
   */
  static String marked(String vertex, List<String> variable) {
    return org.cacheflow.plan.schedule.ActorNames.naming(variable, vertex);
  }

  /**
   * Per step, the earlier steps it must follow, without the edges others imply; the first step precedes every
   * step that follows none (so a stop seen by the first step of an iteration holds back all of it).
   */
  private static List<List<Integer>> predecessors(List<List<Access>> accesses) {
    int n = accesses.size();
    Map<String, List<int[]>> byRoot = new HashMap<>();
    BitSet[] ancestors = new BitSet[n];
    List<List<Integer>> preds = new ArrayList<>();
    List<List<Access>> seen = new ArrayList<>();
    for (int j = 0; j < n; j++) {
      TreeSet<Integer> candidates = new TreeSet<>(Comparator.reverseOrder());
      for (Access a : accesses.get(j)) {
        for (int[] earlier : byRoot.getOrDefault(a.root(), List.of())) {
          if (seen.get(earlier[0]).get(earlier[1]).conflicts(a)) {
            candidates.add(earlier[0]);
          }
        }
      }
      if (candidates.isEmpty() && j > 0) {
        candidates.add(0);
      }
      ancestors[j] = new BitSet(n);
      List<Integer> kept = new ArrayList<>();
      for (int p : candidates) {
        if (!ancestors[j].get(p)) {
          kept.add(p);
          ancestors[j].or(ancestors[p]);
          ancestors[j].set(p);
        }
      }
      preds.add(kept);
      seen.add(accesses.get(j));
      for (int k = 0; k < accesses.get(j).size(); k++) {
        byRoot.computeIfAbsent(accesses.get(j).get(k).root(), r -> new ArrayList<>()).add(new int[] {j, k});
      }
    }
    return preds;
  }

  private static List<Access> accesses(Statement step, Map<String, StaticBuffer> buffers) {
    List<Access> list = new ArrayList<>();
    if (step instanceof Statement.ActorCall call) {
      for (Argument argument : call.arguments()) {
        if (argument instanceof Argument.Data data && data.buffer() != null) {
          list.add(access(data.buffer(), data.bytes(), !data.readOnly(), buffers));
        }
      }
    } else if (step instanceof Statement.Copy copy) {
      list.add(access(copy.destination(), copy.bytes(), true, buffers));
      list.add(access(copy.source(), copy.bytes(), false, buffers));
    } else if (step instanceof Statement.Zero zero) {
      list.add(access(zero.destination(), zero.bytes(), true, buffers));
    } else if (step instanceof Statement.Digest digest) {
      list.add(access(digest.buffer(), digest.bytes(), false, buffers));
      list.add(new Access(CHECKSUM + digest.sink() + "/" + digest.part(), 0, Long.MAX_VALUE, true, true));
    } else if (step instanceof Statement.FirstIteration first) {
      list.addAll(accesses(first.statement(), buffers));
    } else {
      throw new IllegalStateException("a dispatched schedule cannot run " + step);
    }
    return list;
  }

  /**
   * The byte range: a pool member's in its pool; a slot's within the slot; the whole root for a delay's copies. A
   * root is shared by the iterations unless the reference is an iteration's own slot.
   */
  private static Access access(BufferRef ref, long bytes, boolean write, Map<String, StaticBuffer> buffers) {
    if (ref.base() instanceof BufferRef.IterationSlot) {
      return new Access(ref.name(), ref.offset(), ref.offset() + Math.max(bytes, 1), write, false);
    }
    if (!(ref.base() instanceof BufferRef.Named)) {
      return new Access(ref.name(), 0, Long.MAX_VALUE, write, true);
    }
    StaticBuffer buffer = buffers.get(ref.name());
    if (buffer != null && buffer.pool() != null) {
      long start = buffer.offset() + ref.offset();
      return new Access(buffer.pool(), start, start + Math.max(bytes, 1), write, true);
    }
    return new Access(ref.name(), ref.offset(), ref.offset() + Math.max(bytes, 1), write, true);
  }

  /**
   * Per step, the steps of the next iteration that must wait for it: itself when it calls an actor (which may keep
   * state) or is the first step (it checks for a stop), and every step touching memory the iterations share in a
   * way that conflicts with it (itself too when it writes that memory). With these, each pair of conflicting steps of
   * iterations i and i + d is ordered: through i + 1, ..., the later's own chain of firings.
   */
  private static List<Set<Integer>> acrossIterations(List<Statement> steps, List<List<Access>> accesses) {
    int n = steps.size();
    List<Set<Integer>> later = new ArrayList<>();
    Map<String, List<int[]>> byRoot = new HashMap<>();
    for (int i = 0; i < n; i++) {
      later.add(new TreeSet<>());
      if (i == 0 || steps.get(i) instanceof Statement.ActorCall) {
        later.get(i).add(i);
      }
      for (int k = 0; k < accesses.get(i).size(); k++) {
        if (accesses.get(i).get(k).shared()) {
          byRoot.computeIfAbsent(accesses.get(i).get(k).root(), r -> new ArrayList<>()).add(new int[] {i, k});
        }
      }
    }
    for (List<int[]> uses : byRoot.values()) {
      for (int[] a : uses) {
        for (int[] b : uses) {
          if (accesses.get(a[0]).get(a[1]).conflicts(accesses.get(b[0]).get(b[1]))) {
            later.get(a[0]).add(b[0]);
          }
        }
      }
    }
    return later;
  }

  /**
   * The one-core program with {@code slots} iterations in flight: every buffer only an iteration's own steps use
   * (allocated on its own, one copy, given to no init prototype, referred to by name only; a merge group's memory is
   * one such buffer, its members at their offsets in each copy) gets {@code slots} copies,
   * and the loop refers to the iteration's copy (i % slots); the allocator's reserve grows by the copies. A delay's
   * state and a buffer an init prototype gets stay shared by the iterations. One slot: the program as it is.
   */
  public static CodeProject slotted(CodeProject project, int slots) {
    if (slots <= 1 || project.cores().size() != 1) {
      return project;
    }
    Core core = project.cores().get(0);
    Set<String> shared = new HashSet<>();
    for (Statement step : core.init()) {
      refs(step).forEach(ref -> shared.add(ref.name()));
    }
    for (Statement step : core.loop()) {
      refs(step).stream().filter(ref -> !(ref.base() instanceof BufferRef.Named)).forEach(r -> shared.add(r.name()));
    }
    Map<String, Long> slotBytes = new HashMap<>();
    long heapBytes = project.heapBytes();
    for (StaticBuffer b : project.buffers()) {
      if (b.copies() == 1 && b.allocated() && !shared.contains(b.name())) {
        slotBytes.put(b.name(), b.bytes());
        long block = 2 * (((slots - 1) * b.bytes() + 64 + 63) / 64 * 64);
        heapBytes = heapBytes > Long.MAX_VALUE / 2 ? heapBytes : heapBytes + block;
      }
    }
    List<Statement> loop = core.loop().stream().map(step -> slotted(step, slotBytes, slots)).toList();
    Core one = new Core(core.index(), core.pointers(), slotted(core.buffers(), slotBytes, slots), core.homes(),
        core.init(), loop);
    return new CodeProject(project.graphName(), project.identifier(), project.strategy(), project.synthetic(),
        project.barrier(), project.semaphoreStarts(), project.headers(), project.declarations(),
        slotted(project.buffers(), slotBytes, slots), heapBytes, project.channels(), project.cowBuffers(),
        project.sinks(), List.of(one), project.nodeSplit());
  }

  private static List<StaticBuffer> slotted(List<StaticBuffer> buffers, Map<String, Long> slotBytes, int slots) {
    return buffers.stream().map(b -> slotBytes.containsKey(b.name()) ? new StaticBuffer(b.name(), b.bytes(), slots,
        b.home(), b.description() + " (a copy per iteration in flight)") : b).toList();
  }

  /** The buffer positions of a step, a first-iteration step's included. */
  private static List<BufferRef> refs(Statement step) {
    return step instanceof Statement.FirstIteration first ? refs(first.statement()) : Statement.buffersOf(step);
  }

  private static Statement slotted(Statement step, Map<String, Long> slotBytes, int slots) {
    if (step instanceof Statement.ActorCall call) {
      List<Argument> arguments = call.arguments().stream().map(a -> a instanceof Argument.Data data
          && data.buffer() != null ? new Argument.Data(data.name(), data.type(), slotted(data.buffer(), slotBytes,
              slots), data.bytes(), data.input(), data.readOnly()) : a).toList();
      return new Statement.ActorCall(call.vertex(), call.origin(), call.function(), arguments, call.firing());
    } else if (step instanceof Statement.Copy copy) {
      return new Statement.Copy(slotted(copy.destination(), slotBytes, slots), slotted(copy.source(), slotBytes,
          slots), copy.bytes(), copy.kind(), copy.why());
    } else if (step instanceof Statement.Zero zero) {
      return new Statement.Zero(slotted(zero.destination(), slotBytes, slots), zero.bytes(), zero.why());
    } else if (step instanceof Statement.Digest digest) {
      return new Statement.Digest(digest.sink(), digest.part(), slotted(digest.buffer(), slotBytes, slots),
          digest.bytes());
    } else if (step instanceof Statement.FirstIteration first) {
      return new Statement.FirstIteration(slotted(first.statement(), slotBytes, slots));
    }
    return step;
  }

  private static BufferRef slotted(BufferRef ref, Map<String, Long> slotBytes, int slots) {
    Long bytes = slotBytes.get(ref.name());
    return bytes == null || !(ref.base() instanceof BufferRef.Named) ? ref
        : new BufferRef(new BufferRef.IterationSlot(ref.name(), slots, bytes), ref.offset());
  }

  /**
   * Hybrid: each steady firing on a core, in the one-core order with the scenario-free costs; variable ones are
   * assumed to run in the gaps. With one iteration at a time, on the core free first (list scheduling: the shortest
   * iteration); with iterations overlapping, on the core with the least steady work so far, the core free first
   * among equals: a core runs its static order iteration after iteration, so its steady work per iteration bounds
   * the period, and an iteration's first firings on one core run beside the previous iteration's last on another
   * (an emitter and a collector on two cores, not one after the other on one). Each order is a subsequence of the
   * one-core order.
   */
  private static List<List<Integer>> orders(List<List<Integer>> preds, long[] cost, boolean[] variable,
      int cores, int slots) {
    int n = cost.length;
    long[] finish = new long[n];
    long[] free = new long[cores];
    long[] load = new long[cores];
    List<List<Integer>> orders = new ArrayList<>();
    for (int c = 0; c < cores; c++) {
      orders.add(new ArrayList<>());
    }
    for (int j = 0; j < n; j++) {
      long ready = 0;
      for (int p : preds.get(j)) {
        ready = Math.max(ready, finish[p]);
      }
      if (variable[j]) {
        finish[j] = ready + cost[j];
        continue;
      }
      int best = 0;
      for (int c = 1; c < cores; c++) {
        boolean sooner = Math.max(free[c], ready) < Math.max(free[best], ready);
        if (slots > 1 ? load[c] < load[best] || load[c] == load[best] && sooner : sooner) {
          best = c;
        }
      }
      finish[j] = Math.max(free[best], ready) + cost[j];
      free[best] = finish[j];
      load[best] += cost[j];
      orders.get(best).add(j);
    }
    return orders;
  }

  private static String label(Statement step) {
    if (step instanceof Statement.ActorCall call) {
      return call.vertex();
    }
    return step.getClass().getSimpleName().toLowerCase(Locale.ROOT);
  }
}
