package org.cacheflow.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.cacheflow.codegen.build.CodeModelBuilder;
import org.cacheflow.codegen.build.NodeLocality;
import org.cacheflow.codegen.build.PlannedExecution;
import org.cacheflow.codegen.build.CodePreset;
import org.cacheflow.codegen.model.ActorSources;
import org.cacheflow.codegen.model.Channel;
import org.cacheflow.codegen.model.CodeProject;
import org.cacheflow.codegen.model.Core;
import org.cacheflow.codegen.model.Statement;
import org.cacheflow.codegen.model.Transfer;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.plan.strategy.TargetCache;
import org.junit.jupiter.api.Test;

/** The code model and files of programs for several nodes: transfers only between nodes, MPI only there. */
class MultiNodeModelTest {

  private static final Path FARM = Path.of("../../bench/home-forwarding/Algo/farm.pi").toAbsolutePath().normalize();
  private static final Srdag FARM_SRDAG = TestInputs.srdag(FARM, null, Map.of("size", "16", "tasks", "4",
      "elemFloat", "0"));

  private static CodeProject farm(String strategy, int nodes, int cores) {
    return CodeModelBuilder.build(PlannedExecution.plan(FARM_SRDAG, nodes, cores, CodePreset.named(strategy),
        TargetCache.ZEN4_VM, null), true);
  }

  @Test
  void buffersCrossingNodesBecomeTransfersWithSlotsOnBothSides() {
    CodeProject project = farm("baseline", 2, 1);
    assertEquals(2, project.nodes());
    assertTrue(project.multiNode());
    assertFalse(project.transfers().isEmpty(), "the workers run on both nodes");
    Set<Integer> tags = new HashSet<>();
    for (Transfer transfer : project.transfers()) {
      assertNotEquals(transfer.senderNode(), transfer.receiverNode());
      assertEquals(transfer.senderNode(), project.nodeOf(transfer.sender()));
      assertEquals(transfer.receiverNode(), project.nodeOf(transfer.receiver()));
      assertTrue(transfer.slots() >= 2, "the sender fills the next slot while a message is on its way");
      assertTrue(tags.add(transfer.tag()));
      // each side has its own k slots, allocated by its own core
      assertTrue(project.buffers().stream().anyMatch(b -> b.name().equals(transfer.sendBuffer())
          && b.home() == transfer.sender() && b.copies() == transfer.slots()));
      assertTrue(project.buffers().stream().anyMatch(b -> b.name().equals(transfer.receiveBuffer())
          && b.home() == transfer.receiver() && b.copies() == transfer.slots()));
      // sender: wait for the slot, write, start; receiver: wait, read, post again; once per iteration each
      assertEquals(List.of(Statement.TransferSendWait.class, Statement.TransferSend.class), transferSteps(
          project.cores().get(transfer.sender()), transfer));
      assertEquals(List.of(Statement.TransferReceiveWait.class, Statement.TransferReceivePost.class), transferSteps(
          project.cores().get(transfer.receiver()), transfer));
    }
    assertEquals(List.copyOf(tags), IntStream.range(0, tags.size()).boxed().toList(),
        "tags are dense");
    // no semaphore between the nodes: with one core per node, none at all
    assertEquals(0, project.semaphores());
    NodeLocality.check(project);
  }

  private static List<Class<?>> transferSteps(Core core, Transfer transfer) {
    return core.loop().stream().filter(s -> s instanceof Statement.TransferSendWait w && w.transfer() == transfer
        || s instanceof Statement.TransferSend t && t.transfer() == transfer
        || s instanceof Statement.TransferReceiveWait r && r.transfer() == transfer
        || s instanceof Statement.TransferReceivePost p && p.transfer() == transfer)
        .<Class<?>>map(Object::getClass).toList();
  }

  @Test
  void withinANodeTheUsualSignallingStays() {
    CodeProject project = farm("channels", 2, 2);
    for (Channel channel : project.channels()) {
      assertEquals(project.nodeOf(channel.sender()), project.nodeOf(channel.receiver()), channel.name());
    }
    assertFalse(project.transfers().isEmpty());
    NodeLocality.check(project);
  }

  @Test
  void sinkPartsAreGatheredFromTheNodeThatDigestsThem() {
    CodeProject project = farm("baseline", 3, 1);
    int parts = project.sinks().stream().mapToInt(s -> s.parts()).sum();
    assertEquals(parts, project.partNodes().size());
    for (Core core : project.cores()) {
      for (Statement statement : core.loop()) {
        if (statement instanceof Statement.Digest digest) {
          assertEquals(project.nodeOf(core.index()), project.partNodes().get(project.sinks().get(digest.sink())
              .firstPart() + digest.part()));
        }
      }
    }
  }

  @Test
  void oneNodeHasNoMpiAnywhere() {
    CodeProject project = farm("baseline", 1, 2);
    assertFalse(project.multiNode());
    assertTrue(project.transfers().isEmpty() && project.coreNodes().isEmpty() && project.partNodes().isEmpty());
    Map<String, String> files = ProjectWriter.print(project, ActorSources.NONE);
    assertFalse(files.containsKey("cacheflow_mpi.c"));
    for (Map.Entry<String, String> file : files.entrySet()) {
      assertFalse(Pattern.compile("\\bMPI\\b|\\bmpi|cf_mpi").matcher(file.getValue()).find(),
          file.getKey());
    }
    // the same program as before nodes existed
    CodeProject old = TestInputs.model(FARM_SRDAG, 2, "baseline", true);
    assertEquals(ProjectWriter.print(old, ActorSources.NONE), files);
  }

  @Test
  void severalNodesBuildWithMpiAndSayHowToRun() {
    Map<String, String> files = ProjectWriter.print(farm("baseline", 3, 1), ActorSources.NONE);
    String cmake = files.get("CMakeLists.txt");
    assertTrue(cmake.contains("find_package(MPI COMPONENTS C)"), cmake);
    assertTrue(cmake.contains("message(FATAL_ERROR \"this program was generated for 3 nodes and needs an MPI library"
        + " with C bindings, e.g. Debian's libopenmpi-dev"), cmake);
    assertTrue(cmake.contains("target_link_libraries(farm PRIVATE MPI::MPI_C)"), cmake);
    assertTrue(cmake.contains("mpirun -np 3 build/farm"), cmake);
    assertTrue(cmake.contains(" cacheflow_mpi.c)"), cmake);
    assertTrue(files.containsKey("cacheflow_mpi.h"));
    String main = files.get("main.c");
    assertTrue(main.contains("cf_mpi_init(&argc, &argv, \"farm\", CF_GRAPH_MAX_TAG)")
        && main.contains("cf_mpi_check_nodes(argv[0], CF_GRAPH_NODES)"), main);
    assertTrue(main.contains("cf_mpi_gather_digests(") && main.contains("cf_mpi_finalize();"), main);
    assertTrue(files.get("graph.h").contains("#define CF_GRAPH_NODES 3"), files.get("graph.h"));
  }

  @Test
  void aPlanThatNeedsSharedMemoryAcrossNodesIsRefusedWithTheReason() {
    // the planner keeps merge groups on one node; a one-node plan whose two cores are declared two nodes does not:
    // auto merges the emitter's output with the workers' inputs, one group read on both cores
    PlannedExecution oneNode = PlannedExecution.plan(FARM_SRDAG, 1, 2, CodePreset.named("auto"), TargetCache.ZEN4_VM,
        null);
    InputException merged = assertThrows(InputException.class, () -> CodeModelBuilder.build(new RenumberedNodes(
        oneNode, 2, core -> core), true));
    assertTrue(merged.getMessage().startsWith("cannot generate for 2 nodes: the merge group of Emitter_0.matrices"),
        merged.getMessage());
    assertTrue(merged.getMessage().contains("aliased buffers need shared memory"), merged.getMessage());
    // the planner itself gives no such plan: the same graph on two nodes generates
    assertTrue(farm("auto", 2, 1).multiNode());
    // examples/filter-bank's histogram keeps its state in a persistent delay, whose firings the one-node plan
    // spreads over both cores
    Srdag filterBank = TestInputs.srdag(Path.of("../../examples/filter-bank").toAbsolutePath().normalize(), null);
    PlannedExecution spread = PlannedExecution.plan(filterBank, 1, 2, CodePreset.named("baseline"),
        TargetCache.ZEN4_VM, null);
    InputException delay = assertThrows(InputException.class, () -> CodeModelBuilder.build(new RenumberedNodes(
        spread, 2, core -> core), true));
    assertTrue(delay.getMessage().contains("the persistent delay of Histogram.counts -> Histogram.previous crosses"
        + " nodes") && delay.getMessage().endsWith("a delay's end and its init must run on one node"),
        delay.getMessage());
    // ... and the planner keeps them on one node
    for (int nodes = 2; nodes <= 3; nodes++) {
      assertTrue(CodeModelBuilder.build(PlannedExecution.plan(filterBank, nodes, 1, CodePreset.named("baseline"),
          TargetCache.ZEN4_VM, null), true).multiNode());
    }
  }

  @Test
  void aModelConnectingNodesOtherwiseThanByTransfersIsADefect() {
    CodeProject project = farm("channels", 2, 2);
    Core first = project.cores().get(0);
    Core other = project.cores().stream().filter(c -> project.nodeOf(c.index()) != project.nodeOf(first.index()))
        .findFirst().orElseThrow();
    Channel across = new Channel(99, "ch_across", first.index(), other.index(), 2, 64, false, "made up");
    CodeProject broken = new CodeProject(project.graphName(), project.identifier(), project.strategy(),
        project.synthetic(), project.barrier(), project.semaphoreStarts(), project.headers(), project.declarations(),
        project.buffers(), project.heapBytes(), Stream.concat(project.channels().stream(),
            Stream.of(across)).toList(), project.cowBuffers(), project.sinks(), project.cores(),
        project.coreNodes(), project.transfers(), project.partNodes());
    IllegalStateException error = assertThrows(IllegalStateException.class, () -> NodeLocality.check(broken));
    assertTrue(error.getMessage().contains("channel ch_across connects cores"), error.getMessage());
  }
}
