package org.cacheflow.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;

import org.cacheflow.codegen.model.Argument;
import org.cacheflow.codegen.model.BufferRef;
import org.cacheflow.codegen.model.Channel;
import org.cacheflow.codegen.model.CodeProject;
import org.cacheflow.codegen.model.CopyKind;
import org.cacheflow.codegen.model.Core;
import org.cacheflow.codegen.model.CowBuffer;
import org.cacheflow.codegen.model.Flag;
import org.cacheflow.codegen.model.Sink;
import org.cacheflow.codegen.model.Statement;
import org.cacheflow.codegen.model.StaticBuffer;
import org.cacheflow.codegen.model.SyntheticActor;
import org.cacheflow.codegen.model.SyntheticActor.Use;
import org.cacheflow.codegen.printer.CorePrinter;
import org.cacheflow.codegen.printer.HeaderPrinter;
import org.cacheflow.codegen.printer.MainPrinter;
import org.cacheflow.codegen.printer.SyntheticActorsPrinter;
import org.cacheflow.plan.strategy.PrestoreKind;
import org.junit.jupiter.api.Test;

/** Template unit tests: one code model element in, its C text out. */
class PrinterTest {

  private static final Channel CHANNEL = new Channel(0, "ch_buf3", 0, 1, 4, 128, false, "A_0.out -> B_0.in, 128 bytes");
  private static final CowBuffer COW = new CowBuffer(0, "cow5", 65536, 2,
      List.of(new CowBuffer.Range(0, 65536), new CowBuffer.Range(4196, 8192)), 2, "broadcast input");

  private static CodeProject project(boolean synthetic, boolean barrier, List<Statement> loop) {
    StaticBuffer buffer = new StaticBuffer("buf1", 64, 1, 0, "A_0.out -> B_0.in, 64 bytes");
    Core core = new Core(0, List.of("p_buf3"), List.of(buffer), List.of(CHANNEL), List.of(), loop);
    SyntheticActor actor = new SyntheticActor("synth_B", "B", 2, List.of(
        new SyntheticActor.Parameter("n", Use.CONFIG, 0), new SyntheticActor.Parameter("in", Use.READ_SCRIBBLE, 64),
        new SyntheticActor.Parameter("ro", Use.READ, 8), new SyntheticActor.Parameter("out", Use.WRITE, 32)));
    return new CodeProject("my graph", "my_graph", "test", synthetic, barrier, barrier ? List.of(0, 0) : List.of(),
        List.of("b.h"),
        List.of(actor), List.of(buffer), 1 << 24, List.of(CHANNEL), List.of(COW),
        List.of(new Sink(0, "B.out -> C.in", 2, 0)), List.of(core));
  }

  private static String loopOf(CodeProject project) {
    return new CorePrinter(project, project.cores().get(0)).print().toString();
  }

  @Test
  void realCallCastsBuffersToThePrototypeTypesAndPassesConfigValues() {
    Statement call = new Statement.ActorCall("B_0", "g.pi:12", "filter", List.of(
        new Argument.Constant("n", "int", 42),
        new Argument.Data("in", "const float", new BufferRef("buf1", 16), 64, true),
        new Argument.Data("out", "unsigned char", null, 0, false)), 0);
    String text = loopOf(project(false, false, List.of(call)));
    assertTrue(text.contains("/* B_0 (g.pi:12) */\n"), text);
    assertTrue(text.contains("filter(42 /* n */, (const float *)(buf1 + 16), NULL);"), text);
  }

  @Test
  void syntheticCallPassesIterationFiringAndBytePointers() {
    Statement call = new Statement.ActorCall("B_3", "g.pi:12", "synth_B", List.of(new Argument.Constant("n", "long",
        7), new Argument.Data("in", null, BufferRef.of("p_buf3"), 64, true)), 3);
    assertTrue(loopOf(project(true, false, List.of(call))).contains("synth_B(iteration, 3, 7L, p_buf3);"));
  }

  @Test
  void syntheticBodiesKeepTheirOwnNamesApartFromThePorts() {
    // ports named like the body's own variables must not shadow or clash with them
    SyntheticActor actor = new SyntheticActor("synth_S", "S", 3, List.of(
        new SyntheticActor.Parameter("seed", Use.CONFIG, 0), new SyntheticActor.Parameter("iteration", Use.READ, 8),
        new SyntheticActor.Parameter("firing", Use.WRITE, 8)));
    CodeProject base = project(true, false, List.of());
    CodeProject project = new CodeProject(base.graphName(), base.identifier(), base.strategy(), true, false,
        List.of(), base.headers(), List.of(actor), base.buffers(), base.heapBytes(), base.channels(),
        base.cowBuffers(), base.sinks(), base.cores());
    String text = new SyntheticActorsPrinter(project).print().toString();
    assertTrue(text.contains("void synth_S(long cf_iteration, long cf_firing, long seed, void *iteration, void "
        + "*firing)"),
        text);
    assertTrue(text.contains("uint64_t cf_seed = cf_synth_seed(3u, cf_iteration, cf_firing);"), text);
    assertTrue(text.contains("cf_seed = cf_synth_mix(cf_seed, (uint64_t)seed);"), text);
    assertTrue(text.contains("cf_seed = cf_synth_absorb(cf_seed, iteration, 8u);"), text);
  }

  @Test
  void copiesUseTheRuntimeCallOfTheirKind() {
    BufferRef dst = BufferRef.of("buf1");
    BufferRef src = new BufferRef("buf2", 8);
    String text = loopOf(project(false, false, List.of(new Statement.Copy(dst, src, 24, CopyKind.MEMCPY, "fork"),
        new Statement.Copy(dst, src, 24, CopyKind.NON_TEMPORAL, "fork"),
        new Statement.Copy(dst, src, 24, CopyKind.SKIP, "fork"), new Statement.Fence(),
        new Statement.Prestore(dst, 64, PrestoreKind.DEMOTE), new Statement.Zero(dst, 4, "init"))));
    assertTrue(text.contains("cf_copy(buf1, (buf2 + 8), 24u); /* fork */"), text);
    assertTrue(text.contains("cf_ntm_copy(buf1, (buf2 + 8), 24u);"), text);
    assertTrue(text.contains("(void)cf_prestore_write(buf1, (buf2 + 8), 24u, CF_SKIP);"), text);
    assertTrue(text.contains("cf_prestore_fence();"), text);
    assertTrue(text.contains("(void)cf_prestore(buf1, 64u, CF_DEMOTE);"), text);
    assertTrue(text.contains("memset(buf1, 0, 4u); /* init */"), text);
  }

  /** Typed buffer bases and pre-store kinds become the C the runtime expects. */
  @Test
  void slotsDelayCopiesAndPrestoreKindsArePrinted() {
    BufferRef slot = new BufferRef(new BufferRef.IterationSlot("buf4", 3, 128), 16);
    BufferRef read = BufferRef.of(new BufferRef.DelayCopy("delay0", 4, false));
    BufferRef next = BufferRef.of(new BufferRef.DelayCopy("delay0", 4, true));
    String text = loopOf(project(false, false, List.of(new Statement.Copy(read, slot, 4, CopyKind.MEMCPY, "fork"),
        new Statement.Copy(next, read, 4, CopyKind.MEMCPY, "end"), new Statement.Prestore(slot, 8, PrestoreKind.CLEAN),
        new Statement.Prestore(slot, 8, PrestoreKind.BYPASS))));
    assertTrue(text.contains("cf_copy((delay0 + (iteration & 1) * 4u), ((buf4 + (iteration % 3u) * 128u) + 16), 4u);"),
        text);
    assertTrue(text.contains("cf_copy((delay0 + ((iteration + 1) & 1) * 4u), (delay0 + (iteration & 1) * 4u), 4u);"),
        text);
    assertTrue(text.contains("(void)cf_prestore(((buf4 + (iteration % 3u) * 128u) + 16), 8u, CF_CLEAN);"), text);
    assertTrue(text.contains("(void)cf_prestore(((buf4 + (iteration % 3u) * 128u) + 16), 8u, CF_EVICT);"), text);
  }

  @Test
  void channelAndCopyOnWriteCallsPairUp() {
    String text = loopOf(project(false, false, List.of(new Statement.ChannelReserve(CHANNEL, "p_buf3"),
        new Statement.ChannelCommit(CHANNEL), new Statement.ChannelAcquire(CHANNEL, "p_buf3"),
        new Statement.ChannelRelease(CHANNEL), new Statement.CowWriteBegin(COW, 0, "p_cow5"),
        new Statement.CowPublish(COW, 0), new Statement.CowAcquire(COW, 1, "p_cow5_v1"), new Statement.CowRelease(COW,
            1))));
    assertTrue(text.contains("p_buf3 = cf_gen_reserve(ch_buf3, \"reserve ch_buf3\");"), text);
    assertTrue(text.contains("cf_gen_commit(ch_buf3, 128u, \"commit ch_buf3\");"), text);
    assertTrue(text.contains("p_buf3 = cf_gen_acquire(ch_buf3, \"acquire ch_buf3\");"), text);
    assertTrue(text.contains("cf_gen_release(ch_buf3, \"release ch_buf3\");"), text);
    // two slots: iteration i uses buffer and views i % 2, so the producer writes i + 1 while views of i are out
    assertTrue(text.contains("p_cow5 = cf_gen_cow_write_begin(cow5[iteration % 2],"), text);
    assertTrue(text.contains("cf_gen_cow_publish(cow5[iteration % 2],"), text);
    assertTrue(text.contains("p_cow5_v1 = cf_gen_cow_acquire(cow5_views[iteration % 2][1],"), text);
    assertTrue(text.contains("cf_gen_cow_release(cow5_views[iteration % 2][1],"), text);
  }

  @Test
  void coreHomesItsChannelsAllocatesItsBuffersAndPipelinesWithoutABarrier() {
    String text = loopOf(project(false, false, List.of()));
    assertTrue(text.contains("uint8_t *p_buf3 = NULL;"), text);
    assertTrue(text.contains("buf1 = cf_gen_alloc(heap, 64u, \"buf1\");"), text);
    assertTrue(text.indexOf("cf_channel_home_here(ch_buf3)") < text.indexOf("cf_gen_barrier_wait(&cf_start_barrier)"));
    assertFalse(text.contains("cf_iteration_barrier"), text);
    assertTrue(text.contains("cf_heap_free(cf_buffer_heap, heap, buf1)"), text);
  }

  @Test
  void baselineMeetsAtABarrierAfterEveryIterationAndSignalsWithSemaphores() {
    String text = loopOf(project(false, true, List.of(new Statement.SemaphoreWait(1, "x"),
        new Statement.SemaphorePost(0, "y"))));
    assertTrue(text.contains("cf_gen_sem_wait(&cf_semaphores[1]); /* x */"), text);
    assertTrue(text.contains("cf_gen_sem_post(&cf_semaphores[0]); /* y */"), text);
    int loop = text.indexOf("for (long iteration");
    assertTrue(text.indexOf("cf_gen_barrier_wait(&cf_iteration_barrier);", loop) > loop, text);
  }

  @Test
  void flagsAreDefinedAndHomedByTheWaitingCoreAndCountedPerIteration() {
    Flag in = new Flag(1, 0);
    Flag out = new Flag(0, 1);
    String text = loopOf(project(false, false, List.of(new Statement.FlagWait(in, 2, -2, "slot free"),
        new Statement.FlagRaise(out, 3, 1, "data ready"), new Statement.FlagWait(in, 1, 0, "x"))));
    assertTrue(text.contains("cf_flag cf_flag_1_to_0 = CF_FLAG_INIT;"), text);
    assertTrue(text.contains("extern cf_flag cf_flag_0_to_1;"), text);
    assertFalse(text.contains("cf_flag_init(&cf_flag_0_to_1"), "homed by the other core:\n" + text);
    int home = text.indexOf("cf_gen_check(cf_flag_init(&cf_flag_1_to_0, 0, 0)");
    assertTrue(home > 0 && home < text.indexOf("cf_gen_barrier_wait(&cf_start_barrier)"), text);
    assertTrue(text.contains("cf_flag_wait(&cf_flag_1_to_0, (int64_t)iteration * 2 - 2); /* slot free */"), text);
    assertTrue(text.contains("cf_flag_raise(&cf_flag_0_to_1, (int64_t)iteration * 3 + 1); /* data ready */"), text);
    assertTrue(text.contains("cf_flag_wait(&cf_flag_1_to_0, (int64_t)iteration); /* x */"), text);
    assertFalse(text.contains("cf_gen_sem_"), text);
  }

  @Test
  void digestsGoToTheSinkPartOfTheFiring() {
    CodeProject project = project(true, false, List.of(new Statement.Digest(0, 1, BufferRef.of("buf1"), 64)));
    assertTrue(loopOf(project).contains("if (cf_validate) cf_md5_update(&cf_sink_parts[1], buf1, 64u);"));
    String main = new MainPrinter(project).print().toString();
    assertTrue(main.contains("cf_gen_print_digest(\"B.out -> C.in\", &cf_sink_parts[0], 2);"), main);
  }

  @Test
  void mainCreatesChannelsWithTheirSlotsAndCopyOnWriteViews() {
    String main = new MainPrinter(project(true, false, List.of())).print().toString();
    assertTrue(main.contains("cf_channel_options o = {.slots = 4, .max_message = 128u};"), main);
    assertTrue(main.contains("cf_cow_create(&cow5[s], 65536u, NULL)"), main);
    assertTrue(main.contains("for (int s = 0; s < 2; s++)"), main);
    assertTrue(main.contains("static const size_t ranges[2][2] = {{0u, 65536u}, {4196u, 8192u}};"), main);
    assertTrue(main.contains("cf_gen_check(cf_cow_view_open_range(cow5[s], ranges[i][0], ranges[i][1], "
        + "&cow5_views[s][i])"),
        main);
    assertTrue(main.contains("cf_gen_parse_arguments(argc, argv, \"my_graph\", CF_DEFAULT_ITERATIONS, &options)"),
        main);
    assertTrue(main.startsWith("/* Generated by cacheflow from graph my graph (strategy test, synthetic actors)."),
        main);
  }

  /**
   * PREESM's generated main defines preesmStopThreads for the actors, and its loops end when one sets it; synthetic
   * programs stop the same way at SIGINT or SIGTERM.
   */
  @Test
  void realActorsGetPreesmsStopFlagAndLoopSize() throws IOException {
    for (boolean synthetic : new boolean[] {false, true}) {
      CodeProject project = project(synthetic, false, List.of());
      // the runtime's support of generated programs defines it; graph.h includes its header
      String support = Files.readString(TestInputs.runtime().resolve("src/support.c"));
      assertTrue(support.contains("\nint preesmStopThreads;\n"), support);
      String header = new HeaderPrinter(project).print().toString();
      assertTrue(header.contains("\n#include <cacheflow/support.h>\n"), header);
      String main = new MainPrinter(project).print().toString();
      assertTrue(main.contains("#ifdef PREESM_LOOP_SIZE\n#define CF_DEFAULT_ITERATIONS ((long)(PREESM_LOOP_SIZE))"),
          main);
      String core = new CorePrinter(project, project.cores().get(0)).print().toString();
      assertTrue(core.contains("iteration < cf_iterations && cf_gen_keep_running(0, iteration);"), core);
      assertTrue(core.contains("cf_gen_check_stop();"), core);
    }
  }

  @Test
  void headerDeclaresSyntheticBodiesOrIncludesRefinementHeaders() {
    String synthetic = new HeaderPrinter(project(true, false, List.of())).print().toString();
    assertTrue(synthetic.contains("void synth_B(long cf_iteration, long cf_firing, long n, void *in, void *ro, void "
        + "*out);"),
        synthetic);
    assertFalse(synthetic.contains("#include \"b.h\""));
    String real = new HeaderPrinter(project(false, false, List.of())).print().toString();
    assertTrue(real.contains("#include \"b.h\""), real);
    assertTrue(real.contains("extern uint8_t *buf1; /* 64 bytes, core 0: A_0.out -> B_0.in, 64 bytes */"), real);
  }

  @Test
  void syntheticBodyReadsAllReadableInputsBeforeScribblingAndWriting() {
    String body = new SyntheticActorsPrinter(project(true, false, List.of())).print().toString();
    int absorbIn = body.indexOf("cf_seed = cf_synth_absorb(cf_seed, in, 64u);");
    int absorbRo = body.indexOf("cf_seed = cf_synth_absorb(cf_seed, ro, 8u);");
    int scribble = body.indexOf("cf_synth_scribble(in, 64u, cf_seed);");
    int fill = body.indexOf("cf_synth_fill(out, 32u, cf_seed, 3u);");
    assertTrue(absorbIn > 0 && absorbRo > absorbIn && scribble > absorbRo && fill > scribble, body);
    assertFalse(body.contains("cf_synth_scribble(ro"), "READ_ONLY inputs are never written");
    assertEquals(1, body.split("cf_synth_mix\\(cf_seed, \\(uint64_t\\)n\\)", -1).length - 1);
  }
}
