package org.cacheflow.codegen.build;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.cacheflow.codegen.model.Channel;
import org.cacheflow.codegen.model.Core;
import org.cacheflow.codegen.model.Statement;
import org.cacheflow.codegen.model.StaticBuffer;
import org.cacheflow.codegen.model.SyntheticActor;

/**
 * Each core's program. Per core, the vertices in plan order, with reserve/acquire (or waits) before a root's first
 * use on that core and commit/release (or posts, pre-stores, sends) after its last use ({@link Handoffs}); what
 * each vertex does ({@link Firings}). In a pipelined loop, consecutive vertices of one iteration offset form a
 * block.
 */
final class CoreSchedules {

  /**
   * The cores' programs and what they need.
   *
   * @param cores one program per core, semaphores still at the top level of their loops
   * @param declarations the synthetic actor bodies to declare, by actor
   * @param headers the refinement headers to include, in first-use order
   */
  record Schedules(List<Core> cores, List<SyntheticActor> declarations, List<String> headers) {
  }

  /** The positions in a core's order of a root's first and last use for one graph iteration. */
  private record Span(int first, int last) {
  }

  private final BuildInput in;
  private final RootUses uses;
  private final Storage storage;
  private final CowViews cow;
  private final Signals signals;
  private final Layout layout;
  private final Handoffs handoffs;
  private final Firings firings;

  private CoreSchedules(BuildInput in, RootUses uses, Storage storage, CowViews cow, Signals signals, Layout layout,
      Handoffs handoffs, Firings firings) {
    this.in = in;
    this.uses = uses;
    this.storage = storage;
    this.cow = cow;
    this.signals = signals;
    this.layout = layout;
    this.handoffs = handoffs;
    this.firings = firings;
  }

  /**
   * Every core's program.
   *
   * @param cow the copy-on-write buffers with their writer counts ({@link StorageChoice})
   */
  static Schedules of(BuildInput in, Roots roots, RootUses uses, CowViews cow, StorageChoice.Choice choice,
      Storage storage, Layout layout, Sinks.Digests digests) {
    Addresses addresses = new Addresses(in, roots, cow, storage, layout);
    ActorCalls calls = new ActorCalls(in, roots, addresses);
    CoreSchedules schedules = new CoreSchedules(in, uses, storage, cow, choice.signals(), layout,
        new Handoffs(in, roots, cow, storage, choice.signals(), layout, addresses),
        new Firings(in, roots, storage, uses, digests, calls, addresses));
    List<Core> cores = new ArrayList<>();
    for (int core = 0; core < in.plan.cores(); core++) {
      cores.add(schedules.core(core));
    }
    return new Schedules(List.copyOf(cores), calls.declarations(), calls.headers());
  }

  private Core core(int core) {
    int[] order = in.plan.order(core);
    List<RootUses.Uses> used = new ArrayList<>(order.length);
    for (int vertex : order) {
      used.add(uses.of(vertex));
    }
    Map<BufferId, Span> span = spans(order, used);
    Map<BufferId, Integer> publishAt = earlyPublications(core, used);
    Set<String> declared = new LinkedHashSet<>();
    List<Statement> init = new ArrayList<>();
    List<Statement> loop = new ArrayList<>();
    for (int i = 0; i < order.length; i++) {
      List<Statement> block = new ArrayList<>();
      // a root the vertex both reads and writes (an in-place merge) starts once
      for (BufferId r : usedAt(used.get(i), span, i, true)) {
        handoffs.before(r, core, block, declared);
      }
      for (Signals.Ready ready : signals.waitsBefore().getOrDefault(order[i], List.of())) {
        block.add(new Statement.SemaphoreWait(ready.semaphore(), ready.why()));
      }
      firings.fire(order[i], init, block);
      for (Signals.Ready ready : signals.postsAfter().getOrDefault(order[i], List.of())) {
        block.add(new Statement.SemaphorePost(ready.semaphore(), ready.why()));
      }
      for (BufferId r : endsAt(used.get(i), span, publishAt, i)) {
        handoffs.after(r, core, block);
      }
      if (in.maxSkew == 0) {
        loop.addAll(block);
      } else {
        appendPipelined(loop, in.skew(order[i]), block);
      }
    }
    List<StaticBuffer> owned = layout.buffers().stream().filter(b -> b.home() == core).toList();
    return new Core(core, new ArrayList<>(declared), owned, homes(core), init, loop);
  }

  /** The channels a core receives whose memory it holds (all but a delay's primed ones), by index. */
  private List<Channel> homes(int core) {
    List<Channel> homes = new ArrayList<>();
    for (Channel channel : layout.channelOfRoot().values()) {
      if (channel.receiver() == core && !channel.primed()) {
        homes.add(channel);
      }
    }
    homes.sort(Comparator.comparingInt(Channel::index));
    return homes;
  }

  /**
   * Adds a vertex's statements to a pipelined loop: consecutive vertices of one offset share a block (and its
   * guards).
   */
  private static void appendPipelined(List<Statement> loop, int skew, List<Statement> statements) {
    if (statements.isEmpty()) {
      return;
    }
    int last = loop.size() - 1;
    if (last >= 0 && loop.get(last) instanceof Statement.Pipelined previous && previous.skew() == skew) {
      List<Statement> body = new ArrayList<>(previous.body());
      body.addAll(statements);
      loop.set(last, new Statement.Pipelined(skew, List.copyOf(body)));
    } else {
      loop.add(new Statement.Pipelined(skew, List.copyOf(statements)));
    }
  }

  /**
   * Per root the core uses, its first and last use for one graph iteration: a vertex of a smaller offset runs
   * earlier for an iteration (in an earlier pass), and within one offset, the order's earlier position.
   */
  private Map<BufferId, Span> spans(int[] order, List<RootUses.Uses> used) {
    Map<BufferId, Span> span = new HashMap<>();
    for (int i = 0; i < order.length; i++) {
      int at = i;
      for (BufferId r : used.get(i).both()) {
        span.merge(r, new Span(at, at), (old, x) -> new Span(runsEarlier(order, at, old.first()) ? at : old.first(),
            runsEarlier(order, old.last(), at) ? at : old.last()));
      }
    }
    return span;
  }

  /** Whether position {@code a} of the order runs before position {@code b} for one graph iteration. */
  private boolean runsEarlier(int[] order, int a, int b) {
    int skewA = in.skew(order[a]);
    int skewB = in.skew(order[b]);
    return skewA != skewB ? skewA < skewB : a < b;
  }

  /**
   * Copy-on-write buffers this core alone writes: the position in its order of its last write of each, where its
   * part is published (not after its last use). The reads after it on this core still precede its next iteration's
   * writes in this order, and no other core writes the memory; the views, which wait for the publication, can then
   * be read on this core between its last write and its last read (the plan counts on it, CowSources).
   */
  private Map<BufferId, Integer> earlyPublications(int core, List<RootUses.Uses> used) {
    Map<BufferId, Integer> at = new TreeMap<>();
    for (int i = 0; i < used.size(); i++) {
      for (BufferId r : used.get(i).writes()) {
        if (cow.isSource(r) && storage.writers(r) == 1L << core) {
          at.put(r, i);
        }
      }
    }
    return at;
  }

  /** The roots a vertex uses whose first (or last) use on the core for one graph iteration is at position i. */
  private static Set<BufferId> usedAt(RootUses.Uses uses, Map<BufferId, Span> span, int i, boolean first) {
    Set<BufferId> found = new LinkedHashSet<>();
    for (BufferId r : uses.both()) {
      if ((first ? span.get(r).first() : span.get(r).last()) == i) {
        found.add(r);
      }
    }
    return found;
  }

  /** The roots handed on after position i: those last used there, and the early publications made there. */
  private static Set<BufferId> endsAt(RootUses.Uses uses, Map<BufferId, Span> span, Map<BufferId, Integer> publishAt,
      int i) {
    Set<BufferId> ends = usedAt(uses, span, i, false);
    ends.removeAll(publishAt.keySet());
    publishAt.forEach((r, at) -> {
      if (at == i) {
        ends.add(r);
      }
    });
    return ends;
  }
}
