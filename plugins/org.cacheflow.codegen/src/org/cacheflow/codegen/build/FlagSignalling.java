package org.cacheflow.codegen.build;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.cacheflow.codegen.model.Core;
import org.cacheflow.codegen.model.Flag;
import org.cacheflow.codegen.model.Statement;

/**
 * Turns the semaphores of the cores' loops into rdy-ack flags ({@code cf_flag}): the signalling of every
 * strategy but the baseline. The model builder states each cross-core dependency as a semaphore posted once
 * per iteration by one core and waited on once per iteration by another, starting at s (0: "the data of this
 * iteration is ready"; k: "the slot used k iterations ago is free"). Here:
 * <ul>
 * <li>all dependencies from core a to core b share one flag, homed at b: a's events for b are counted in its
 * program order, so "event c of iteration i" is the count {@code i * P + c}, P being a's events for b per
 * iteration, and a semaphore starting at s becomes a wait for {@code (i - s) * P + c};
 * <li>posts next to each other (the dependencies one firing meets, with nothing in between) are one event per
 * waiting core: one store, one line transfer, at most one wake-up;
 * <li>waits next to each other on one flag are one wait for the largest count, and a wait already met by an
 * earlier wait of the same iteration on that flag is left out.
 * </ul>
 * No semaphore, no barrier per iteration: a hand-off costs the two line transfers of the flag's line.
 */
final class FlagSignalling {

  private FlagSignalling() {
  }

  /**
   * The cores with every semaphore statement replaced.
   *
   * @param cores the cores as built, semaphore statements at the top level of their loops
   * @param starts the semaphores' initial values
   * @throws IllegalStateException when a semaphore is not posted once and waited once per iteration, by two
   *     different cores (the model builder never makes one)
   */
  static List<Core> lower(List<Core> cores, List<Integer> starts) {
    Ends ends = ends(cores, starts.size());
    Raised raised = raise(cores, ends);
    List<Core> lowered = new ArrayList<>();
    for (int c = 0; c < cores.size(); c++) {
      Core core = cores.get(c);
      List<Item> loop = waits(core.index(), raised.loops().get(c), raised, ends, starts);
      lowered.add(new Core(core.index(), core.pointers(), core.buffers(), core.homes(), core.init(), blocks(loop)));
    }
    return lowered;
  }

  /** Per semaphore, the core that posts it and the core that waits on it. */
  private record Ends(int[] poster, int[] waiter) {
  }

  /**
   * The cores that post and wait on each semaphore, checked: once per iteration each, by two different cores, in the
   * loop only.
   */
  private static Ends ends(List<Core> cores, int semaphores) {
    int[] poster = new int[semaphores];
    int[] waiter = new int[semaphores];
    Arrays.fill(poster, -1);
    Arrays.fill(waiter, -1);
    for (Core core : cores) {
      for (Statement statement : core.init()) {
        if (statement instanceof Statement.SemaphorePost || statement instanceof Statement.SemaphoreWait) {
          throw new IllegalStateException("semaphore used in the start-up of core " + core.index());
        }
      }
      for (Statement statement : Statement.flatten(core.loop())) {
        if (statement instanceof Statement.SemaphorePost post) {
          poster[post.semaphore()] = once(poster[post.semaphore()], core.index(), post.semaphore(), "posted");
        } else if (statement instanceof Statement.SemaphoreWait wait) {
          waiter[wait.semaphore()] = once(waiter[wait.semaphore()], core.index(), wait.semaphore(), "waited on");
        }
      }
    }
    for (int s = 0; s < semaphores; s++) {
      if (poster[s] < 0 || waiter[s] < 0 || poster[s] == waiter[s]) {
        throw new IllegalStateException("semaphore " + s + " is posted on core " + poster[s] + " and waited on on core "
            + waiter[s] + ": not a dependency between two cores");
      }
    }
    return new Ends(poster, waiter);
  }

  /**
   * The loops with their posts raised, and what the waits need to know of them.
   *
   * @param loops per core, its loop with each run of posts replaced by pending raises
   * @param countOf per semaphore, the count its post's event has within a pass
   * @param skewOf per semaphore, the iteration offset of the block that posts it
   * @param perIteration per flag, its events per pass
   */
  private record Raised(List<List<Item>> loops, long[] countOf, int[] skewOf, Map<Flag, Long> perIteration) {
  }

  /**
   * Raises: per posting core, runs of adjacent posts (of one block of a pipelined loop) become one event per waiting
   * core; counts are per pass of the loop.
   */
  private static Raised raise(List<Core> cores, Ends ends) {
    Raised raised = new Raised(new ArrayList<>(), new long[ends.poster().length], new int[ends.poster().length],
        new HashMap<>());
    for (Core core : cores) {
      List<Item> loop = new ArrayList<>();
      List<Item> body = items(core.loop());
      for (int i = 0; i < body.size(); ) {
        Item first = body.get(i);
        if (!(first.statement() instanceof Statement.SemaphorePost)) {
          loop.add(body.get(i++));
          continue;
        }
        Map<Flag, List<Statement.SemaphorePost>> run = new LinkedHashMap<>();
        for (; i < body.size() && body.get(i).statement() instanceof Statement.SemaphorePost post
            && body.get(i).block() == first.block(); i++) {
          run.computeIfAbsent(new Flag(core.index(), ends.waiter()[post.semaphore()]), f -> new ArrayList<>())
              .add(post);
        }
        run.forEach((flag, posts) -> loop.add(first.with(raiseOnce(flag, posts, first.skew(), raised))));
      }
      raised.loops().add(loop);
    }
    return raised;
  }

  /** One event of a flag for a run of posts: counted, and each post's semaphore given the event's count. */
  private static PendingRaise raiseOnce(Flag flag, List<Statement.SemaphorePost> posts, int skew, Raised raised) {
    long count = raised.perIteration().merge(flag, 1L, Long::sum);
    List<String> why = new ArrayList<>();
    for (Statement.SemaphorePost post : posts) {
      raised.countOf()[post.semaphore()] = count;
      raised.skewOf()[post.semaphore()] = skew;
      why.add(post.why());
    }
    return new PendingRaise(flag, count, String.join("; ", why));
  }

  /**
   * A core's loop with its raises final and its waits lowered: adjacent waits on one flag wait once, for the largest
   * count; waits already met are left out. A wait in pass p of a block with offset r_w for a post of offset r_p
   * (semaphore starting at s) is for the event of pass p - s - r_w + r_p; a block prints counts in terms of its graph
   * iteration, pass - r: r * P more.
   */
  private static List<Item> waits(int core, List<Item> body, Raised raised, Ends ends, List<Integer> starts) {
    List<Item> loop = new ArrayList<>();
    Map<Flag, Long> waitedSoFar = new HashMap<>();
    for (int i = 0; i < body.size(); ) {
      Item item = body.get(i);
      if (item.statement() instanceof PendingRaise raise) {
        long per = raised.perIteration().get(raise.flag());
        loop.add(item.with(new Statement.FlagRaise(raise.flag(), per, raise.count() + item.skew() * per,
            raise.why())));
        i++;
        continue;
      }
      if (!(item.statement() instanceof Statement.SemaphoreWait)) {
        loop.add(item);
        i++;
        continue;
      }
      Map<Flag, Long> run = new LinkedHashMap<>();
      Map<Flag, List<String>> whys = new HashMap<>();
      for (; i < body.size() && body.get(i).statement() instanceof Statement.SemaphoreWait wait
          && body.get(i).block() == item.block(); i++) {
        Flag flag = new Flag(ends.poster()[wait.semaphore()], core);
        run.merge(flag, waitedCount(wait, flag, item.skew(), raised, starts), Math::max);
        whys.computeIfAbsent(flag, f -> new ArrayList<>()).add(wait.why());
      }
      run.forEach((flag, offset) -> {
        Long before = waitedSoFar.get(flag);
        if (before == null || before < offset) {
          waitedSoFar.put(flag, offset);
          long per = raised.perIteration().get(flag);
          loop.add(item.with(new Statement.FlagWait(flag, per, offset + item.skew() * per,
              String.join("; ", whys.get(flag)))));
        }
      });
    }
    return loop;
  }

  /** The count of its flag a wait on a semaphore waits for, within a pass of a block of the given offset. */
  private static long waitedCount(Statement.SemaphoreWait wait, Flag flag, int skew, Raised raised,
      List<Integer> starts) {
    int s = wait.semaphore();
    long per = raised.perIteration().get(flag);
    long passes = starts.get(s) + skew - raised.skewOf()[s];
    if (passes < 0) {
      throw new IllegalStateException("semaphore " + s + " (" + wait.why() + ") is waited on " + -passes
          + " passes before it is posted");
    }
    return raised.countOf()[s] - passes * per;
  }

  /** A loop's statements, those of a pipelined block with its offset and the block's number (-1: none). */
  private static List<Item> items(List<Statement> loop) {
    List<Item> items = new ArrayList<>();
    int block = 0;
    for (Statement statement : loop) {
      if (statement instanceof Statement.Pipelined pipelined) {
        for (Statement inner : pipelined.body()) {
          items.add(new Item(inner, pipelined.skew(), block));
        }
        block++;
      } else {
        items.add(new Item(statement, 0, -1));
      }
    }
    return items;
  }

  /** The statements again, those of one block in its pipelined block. */
  private static List<Statement> blocks(List<Item> items) {
    List<Statement> loop = new ArrayList<>();
    for (int i = 0; i < items.size(); ) {
      Item first = items.get(i);
      if (first.block() < 0) {
        loop.add((Statement) first.statement());
        i++;
        continue;
      }
      List<Statement> body = new ArrayList<>();
      for (; i < items.size() && items.get(i).block() == first.block(); i++) {
        body.add((Statement) items.get(i).statement());
      }
      loop.add(new Statement.Pipelined(first.skew(), List.copyOf(body)));
    }
    return loop;
  }

  /** A statement (or pending raise) of a loop, with the offset and number of its pipelined block (-1: none). */
  private record Item(Object statement, int skew, int block) {

    Item with(Object other) {
      return new Item(other, skew, block);
    }
  }

  private static int once(int seen, int core, int semaphore, String what) {
    if (seen >= 0) {
      throw new IllegalStateException("semaphore " + semaphore + " is " + what + " more than once per iteration (cores "
          + seen + " and " + core + ")");
    }
    return core;
  }

  /** A raise whose flag's events per iteration (per pass) are not known until every core has been seen. */
  private record PendingRaise(Flag flag, long count, String why) {
  }
}
