package org.cacheflow.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.codegen.build.CodeModelBuilder;
import org.cacheflow.codegen.build.ExecutionPlan;
import org.cacheflow.codegen.build.PlannedExecution;
import org.cacheflow.codegen.build.CodePreset;
import org.cacheflow.codegen.model.BufferRef;
import org.cacheflow.codegen.model.CodeProject;
import org.cacheflow.codegen.model.Core;
import org.cacheflow.codegen.model.StaticBuffer;
import org.cacheflow.codegen.model.Statement;
import org.cacheflow.plan.strategy.TargetCache;
import org.cacheflow.report.DecisionText;
import org.cacheflow.plan.strategy.GroupSlots;
import org.junit.jupiter.api.Test;

/** The code model of pipelined loops (iteration offsets): flag counts, buffers used across passes, refused offsets. */
class PipelinedModelTest {

  private static final Srdag TINY = TestInputs.srdag(TestInputs.TINY.resolve("Algo/tiny.pi"), null);

  private static PlannedExecution plan(int cores, String strategy) {
    return PlannedExecution.plan(TINY, cores, CodePreset.named(strategy), TargetCache.ZEN4_VM);
  }

  private static CodeProject skewedFromSink(int cores, String strategy, int skew) {
    PlannedExecution plan = plan(cores, strategy);
    return CodeModelBuilder.build(new SkewedPlan(plan, v -> TINY.vertexName(v).endsWith("/Collect_0"), skew), true);
  }

  /** Offset 1 from core 1's scaling firings on: they wait for core 0's broadcast a pass later. */
  private static CodeProject skewedFromCore1(String strategy) {
    PlannedExecution plan = plan(2, strategy);
    return CodeModelBuilder.build(new SkewedPlan(plan, v -> TINY.vertexName(v).matches(".*/Scale_\\d+")
        && plan.coreOf(v) == 1, 1), true);
  }

  /**
   * A block with offset r prints its counts in terms of its graph iteration (pass - r), so a wait, wherever its poster
   * runs, prints the poster's printed count for the same graph iteration (a data hand-off) or minus k iterations'
   * events
   * (a free slot of a group with k slots) -- as without offsets; and a raise in a block with offset r prints r events
   * per pass more than the same raise without offsets.
   */
  @Test
  void flagConstantsCountPassesAndPrintGraphIterations() {
    for (String choice : List.of("homeforward sink", "auto sink", "homeforward core1", "auto core1")) {
      String strategy = choice.split(" ")[0];
      CodeProject plain = CodeModelBuilder.build(plan(2, strategy), true);
      CodeProject skewed = choice.endsWith("sink") ? skewedFromSink(2, strategy, 1) : skewedFromCore1(strategy);
      Map<String, Long> plainRaise = new HashMap<>();
      for (Core core : plain.cores()) {
        for (Statement statement : core.loop()) {
          if (statement instanceof Statement.FlagRaise raise) {
            for (String why : raise.why().split("; ")) {
              plainRaise.put(raise.flag() + why, raise.count());
            }
          }
        }
      }
      Map<String, Long> printed = new HashMap<>();
      Map<String, Integer> posterSkew = new HashMap<>();
      int shiftedRaises = 0;
      for (Core core : skewed.cores()) {
        for (Statement statement : core.loop()) {
          Statement.Pipelined block = (Statement.Pipelined) statement;
          for (Statement inner : block.body()) {
            if (inner instanceof Statement.FlagRaise raise) {
              for (String why : raise.why().split("; ")) {
                printed.put(raise.flag() + why, raise.count());
                posterSkew.put(raise.flag() + why, block.skew());
                assertEquals(plainRaise.get(raise.flag() + why) + block.skew() * raise.perIteration(), raise.count(),
                    why);
              }
              shiftedRaises += block.skew();
            }
          }
        }
      }
      int acrossOffsets = 0;
      int skewedWaits = 0;
      for (Core core : skewed.cores()) {
        for (Statement statement : core.loop()) {
          Statement.Pipelined block = (Statement.Pipelined) statement;
          for (Statement inner : block.body()) {
            if (inner instanceof Statement.FlagWait wait) {
              long expected = Long.MIN_VALUE;
              for (String why : wait.why().split("; ")) {
                long slots = why.startsWith("core ") && why.contains(" done with the slot of ") ? 2 : 0;
                expected = Math.max(expected, printed.get(wait.flag() + why) - slots * wait.perIteration());
                acrossOffsets += posterSkew.get(wait.flag() + why) != block.skew() ? 1 : 0;
              }
              assertEquals(expected, wait.offset(), choice + ": " + wait.why());
              skewedWaits += block.skew();
            }
          }
        }
      }
      assertTrue(shiftedRaises > 0, choice + ": no raise in a block with an offset");
      assertTrue(acrossOffsets > 0, choice + ": no wait for a poster of another offset");
      if (choice.endsWith("core1")) {
        assertTrue(skewedWaits > 0, choice + ": no wait in a block with an offset");
      }
    }
  }

  /**
   * A core frees the slot of a merge group several cores use after its last use of the graph iteration's slot: the
   * greatest (offset, position) among its blocks that use the group, not the last by position. Offset 1 from
   * Scale_0 on: its core uses the frame group after it at offset 0 (Scale_2), and frees the slot a pass later.
   */
  @Test
  void aSharedSlotIsFreedAfterTheLastUseByOffsetThenPosition() {
    for (String strategy : List.of("homeforward", "auto")) {
      PlannedExecution plan = plan(2, strategy);
      CodeProject project = CodeModelBuilder.build(new SkewedPlan(plan, v -> TINY.vertexName(v).endsWith(
          "/Scale_0"), 1), true);
      Set<String> shared = new HashSet<>();
      project.buffers().stream().filter(b -> b.description().contains("merge group used by cores")).forEach(
          b -> shared.add(b.name()));
      int checked = 0;
      int beforeByPosition = 0;
      for (Core core : project.cores()) {
        List<Statement> loop = core.loop();
        for (String name : shared) {
          int last = -1;
          int lastByPosition = -1;
          for (int i = 0; i < loop.size(); i++) {
            Statement.Pipelined block = (Statement.Pipelined) loop.get(i);
            if (block.body().stream().anyMatch(s -> Statement.buffersOf(s).stream().anyMatch(r -> r.name().equals(
                name)))) {
              lastByPosition = i;
              if (last < 0 || block.skew() >= ((Statement.Pipelined) loop.get(last)).skew()) {
                last = i;
              }
            }
          }
          for (int i = 0; i < loop.size(); i++) {
            for (Statement inner : ((Statement.Pipelined) loop.get(i)).body()) {
              if (inner instanceof Statement.FlagRaise raise && raise.why().contains("core " + core.index()
                  + " done with the slot of " + name)) {
                assertEquals(last, i, strategy + " core " + core.index() + ": " + raise.why());
                checked++;
                beforeByPosition += last != lastByPosition ? 1 : 0;
              }
            }
          }
        }
      }
      assertTrue(checked > 0, strategy);
      assertTrue(beforeByPosition > 0, strategy + ": no group whose last use by offset is not its last by position");
    }
  }

  /** On one core the sink's input slices are written one pass and read the next: offsets spread + 1 copies. */
  @Test
  void aBufferUsedAcrossPassesHasACopyPerIterationInUse() {
    for (int skew : new int[] {1, 2}) {
      CodeProject project = skewedFromSink(1, "auto", skew);
      List<StaticBuffer> pipelined = project.buffers().stream().filter(b -> b.description().contains(
          "across passes")).toList();
      // the slices and the accumulator's total, both written at offset 0 and read by the sink
      assertEquals(2, pipelined.size(), project.buffers().toString());
      for (StaticBuffer buffer : pipelined) {
        assertEquals(skew + 1, buffer.copies());
        assertTrue(buffer.allocated(), "never pooled");
        Map<Integer, Integer> refsBySkew = new HashMap<>();
        for (Statement statement : project.cores().get(0).loop()) {
          Statement.Pipelined block = (Statement.Pipelined) statement;
          for (Statement inner : block.body()) {
            for (BufferRef ref : refs(inner)) {
              if (ref.name().equals(buffer.name())) {
                BufferRef.IterationSlot slot = (BufferRef.IterationSlot) ref.base();
                assertEquals(skew + 1, slot.slots());
                assertEquals(buffer.bytes(), slot.slotBytes());
                refsBySkew.merge(block.skew(), 1, Integer::sum);
              }
            }
          }
        }
        assertEquals(Set.of(0, skew), refsBySkew.keySet(), "written at offset 0, read at " + skew);
      }
    }
  }

  private static List<BufferRef> refs(Statement statement) {
    return Statement.buffersOf(statement);
  }

  /**
   * The printed loop: passes up to N + S, the stop check of pipelined loops (an actor or a signal may stop them, with
   * real or synthetic actors), each block's graph iteration, flag statements outside the guard of the others.
   */
  @Test
  void aPipelinedLoopPrintsPassesBlocksAndGuards() {
    PlannedExecution plan = plan(2, "auto");
    SkewedPlan skewed = new SkewedPlan(plan, v -> TINY.vertexName(v).endsWith("/Collect_0"), 1);
    for (boolean synthetic : new boolean[] {true, false}) {
      CodeProject project = CodeModelBuilder.build(skewed, synthetic);
      for (Core core : project.cores()) {
        String text = new org.cacheflow.codegen.printer.CorePrinter(project, core).print().toString();
        assertTrue(text.contains("for (long pass = 0; pass < cf_iterations + 1 && cf_gen_keep_running_pipelined("
            + core.index() + ", pass, 1); pass++) {"), text);
        assertTrue(text.contains("const long iteration = pass - 0;"), text);
        String guard = "if (iteration >= 0 && iteration < live_end) {";
        assertTrue(text.contains(guard), text);
        // the end of the live iterations is read once per pass, at its start, not in every guard
        assertEquals(1, text.split("cf_gen_iteration_end\\(", -1).length - 1, text);
        assertTrue(text.indexOf("const long live_end = cf_gen_iteration_end(cf_iterations);")
            < text.indexOf("const long iteration = pass - "), text);
        // consecutive vertices of one offset share one block
        for (int skew = 0; skew <= 1; skew++) {
          String[] lines = text.lines().toArray(String[]::new);
          for (int i = 1; i < lines.length; i++) {
            if (lines[i].trim().equals("const long iteration = pass - " + skew + ";")) {
              int j = i - 2; // lines[i - 1] is the block's "{": the line before it
              while (j >= 0 && lines[j].trim().isEmpty()) {
                j--;
              }
              assertFalse(j >= 0 && lines[j].trim().equals("}") && blockSkewEndingAt(lines, j) == skew,
                  "two consecutive blocks of offset " + skew + ":\n" + text);
            }
          }
        }
        for (String line : text.lines().toList()) {
          if (line.contains("cf_flag_raise(") || line.contains("cf_flag_wait(")) {
            // at the block's level: 12 spaces (loop 4, pass loop 8, block 12), not inside a guard
            assertTrue(line.startsWith("            cf_flag_"), line);
          }
        }
      }
      String all = project.cores().stream().map(core -> new org.cacheflow.codegen.printer.CorePrinter(project,
          core).print().toString()).reduce("", String::concat);
      assertTrue(all.contains("const long iteration = pass - 1;"), all);
    }
  }

  /** Without offsets, nothing is pipelined: no blocks, loops as before (GoldenFilesTest checks the text). */
  @Test
  void noOffsetsNoBlocks() {
    CodeProject project = CodeModelBuilder.build(plan(2, "auto"), true);
    assertEquals(0, project.maxSkew());
    for (Core core : project.cores()) {
      assertTrue(core.loop().stream().noneMatch(s -> s instanceof Statement.Pipelined));
    }
  }

  /** The comment of a 16-byte group with {@code slots} slots on {@code target}, checked to be by {@code rule}. */
  private static String slotsWhy(GroupSlots.Reason.Rule rule, TargetCache target, int slots) {
    GroupSlots.Reason reason = GroupSlots.why(target, 16, slots);
    assertEquals(rule, reason.rule());
    return DecisionText.groupSlots(reason);
  }

  /**
   * A merge group several cores use gets as many slots as span the target's L2 (tiny's 16-byte groups: the most, 64;
   * on a target whose L2 is 64 bytes, 4), its comment says why, and the slot semaphores (flags) start at that count;
   * {@code --override slots=K} gives every group K; the baseline's barrier keeps one.
   */
  @Test
  void aGroupSeveralCoresUseHasSlotsSpanningTheL2UnlessAsked() {
    BiFunction<CodePreset, TargetCache, List<StaticBuffer>> groups = (strategy, target) ->
        CodeModelBuilder.build(PlannedExecution.plan(TINY, 2, strategy, target), true).buffers().stream()
            .filter(b -> b.description().contains("merge group used by cores")).toList();
    List<StaticBuffer> byL2 = groups.apply(CodePreset.named("homeforward"), TargetCache.ZEN4_VM);
    assertFalse(byL2.isEmpty());
    for (StaticBuffer b : byL2) {
      assertEquals(16, b.bytes(), b.description());
      assertEquals(64, b.copies(), b.description());
      assertTrue(b.description().endsWith("; " + slotsWhy(GroupSlots.Reason.Rule.MOST, TargetCache.ZEN4_VM, 64) + ")"),
          b.description());
    }
    TargetCache tinyL2 = new TargetCache("tiny-l2", 32, 64, 1 << 20, 16, 4096, 2, TargetCache.ZEN4_VM.costs());
    for (StaticBuffer b : groups.apply(CodePreset.named("auto"), tinyL2)) {
      assertEquals(4, b.copies(), b.description());
      assertTrue(b.description().endsWith("; " + slotsWhy(GroupSlots.Reason.Rule.SPANNING, tinyL2, 4) + ")"),
          b.description());
    }
    for (StaticBuffer b : groups.apply(CodePreset.named("homeforward").withSlots(3), TargetCache.ZEN4_VM)) {
      assertEquals(3, b.copies(), b.description());
      String asked = DecisionText.groupSlots(GroupSlots.asked(TargetCache.ZEN4_VM, 16, 3));
      assertTrue(b.description().endsWith("; " + asked + ")"), b.description());
    }
    for (StaticBuffer b : groups.apply(CodePreset.named("baseline"), TargetCache.ZEN4_VM)) {
      assertEquals(1, b.copies(), b.description());
    }
    // every firing reaches a group through iteration % 64
    CodeProject project = CodeModelBuilder.build(PlannedExecution.plan(TINY, 2, CodePreset.named("homeforward"),
        TargetCache.ZEN4_VM), true);
    Set<String> names = new HashSet<>();
    byL2.forEach(b -> names.add(b.name()));
    int refsToGroups = 0;
    for (Core core : project.cores()) {
      for (Statement statement : core.loop()) {
        for (Statement inner : statement instanceof Statement.Pipelined block ? block.body() : List.of(statement)) {
          for (BufferRef ref : refs(inner)) {
            if (names.contains(ref.name())) {
              assertEquals(64, ((BufferRef.IterationSlot) ref.base()).slots(), ref.toString());
              refsToGroups++;
            }
          }
        }
      }
    }
    assertTrue(refsToGroups > 0);
  }

  @Test
  void offsetsTheGeneratedCodeCannotKeepAreRefusedNamingAVertex() {
    PlannedExecution auto = plan(2, "homeforward");
    int gen = vertex("/Gen_0");
    assertRefused(new DelegatingPlan(auto) {
      @Override
      public int skew(int vertex) {
        return vertex == gen ? -1 : 0;
      }
    }, "vertex Gen_0 has the negative iteration offset -1");
    assertRefused(new DelegatingPlan(auto) {
      @Override
      public int skew(int vertex) {
        return vertex == gen ? 1 : 0;
      }
    }, "less than its producer Gen_0's 1");
    assertRefused(new SkewedPlan(plan(2, "baseline"), v -> v == vertex("/Collect_0"), 1), "iteration barrier");
    // the merge group of the scaled slices has 2 slots: offsets 0 and 2 among its users would reuse a slot in use
    assertRefused(new SkewedPlan(auto, v -> v == vertex("/Collect_0"), 2), "which has 2 slots");
    // the accumulator's delay: its end would run an iteration after its init
    assertRefused(new SkewedPlan(auto, v -> v == vertex("/Sum_0"), 1), "all its users must have one offset");
    PlannedExecution one = plan(1, "auto");
    SkewedPlan skewed = new SkewedPlan(one, v -> v == vertex("/Collect_0"), 1);
    assertRefused(new DelegatingPlan(one) {
      @Override
      public int nodes() {
        return 2;
      }

      @Override
      public int skew(int vertex) {
        return skewed.skew(vertex);
      }
    }, "pipelined loops run on one node");
  }

  private static int vertex(String suffix) {
    for (int v = 0; v < TINY.vertexCount(); v++) {
      if (TINY.vertexName(v).endsWith(suffix)) {
        return v;
      }
    }
    throw new IllegalArgumentException(suffix);
  }

  private static void assertRefused(ExecutionPlan plan, String message) {
    IllegalStateException error = assertThrows(IllegalStateException.class, () -> CodeModelBuilder.build(plan,
        true));
    assertTrue(error.getMessage().contains(message), error.getMessage());
    assertTrue(error.getMessage().startsWith("vertex "), error.getMessage());
  }

  /** The offset of the pipelined block whose closing brace is line {@code close} (its own indentation), or -1. */
  private static int blockSkewEndingAt(String[] lines, int close) {
    String indent = lines[close].substring(0, lines[close].indexOf('}'));
    for (int i = close - 1; i >= 0; i--) {
      if (lines[i].equals(indent + "{")) {
        String first = lines[i + 1].trim();
        return first.startsWith("const long iteration = pass - ")
            ? Integer.parseInt(first.substring("const long iteration = pass - ".length(), first.length() - 1)) : -1;
      }
    }
    return -1;
  }
}
