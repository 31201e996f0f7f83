package org.cacheflow.codegen.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.cacheflow.plan.memoryplan.ProgramMemory;

/**
 * Everything the printers need to write a generated project. Built by
 * {@link org.cacheflow.codegen.build.CodeModelBuilder}; immutable.
 *
 * @param graphName the graph's name as read
 * @param identifier the graph's name as a C identifier: the executable's and CMake project's name
 * @param strategy the strategy name, for the provenance comments
 * @param synthetic whether actor bodies are generated ({@code --synthetic-actors})
 * @param barrier whether cores meet at a barrier after every iteration (the baseline)
 * @param semaphoreStarts the initial value of every semaphore (the baseline's signalling; other strategies signal
 * through
 *     rdy-ack flags, see {@link #flags()})
 * @param headers refinement headers to include (file names), in first-use order
 * @param declarations actor functions to declare in synthetic mode (real mode: the headers declare them)
 * @param buffers static buffers
 * @param heapBytes address space the buffer allocator reserves (every buffer plus per-core slack)
 * @param channels rdy-ack channels
 * @param cowBuffers copy-on-write buffers
 * @param sinks digested FIFOs
 * @param cores one program per core
 * @param nodeSplit how the program is split over several nodes ({@link NodeSplit#ONE} for one shared-memory machine)
 */
public record CodeProject(String graphName, String identifier, String strategy, boolean synthetic, boolean barrier,
    List<Integer> semaphoreStarts, List<String> headers, List<SyntheticActor> declarations, List<StaticBuffer> buffers,
        long heapBytes,
    List<Channel> channels, List<CowBuffer> cowBuffers, List<Sink> sinks, List<Core> cores, NodeSplit nodeSplit) {

  /**
   * How a program over several nodes (one SPMD program over MPI, rank = node) is split; all empty on one machine.
   *
   * @param coreNodes per core, its node (MPI rank); empty for one shared-memory machine (no MPI anywhere)
   * @param transfers inter-node transfers (empty on one node)
   * @param partNodes per sink part (in the order of the generated array of all sinks' contexts), the node whose
   *     core digests it; empty on one node
   */
  public record NodeSplit(List<Integer> coreNodes, List<Transfer> transfers, List<Integer> partNodes) {

    /** One shared-memory machine. */
    public static final NodeSplit ONE = new NodeSplit(List.of(), List.of(), List.of());

    public NodeSplit {
      coreNodes = List.copyOf(coreNodes);
      transfers = List.copyOf(transfers);
      partNodes = List.copyOf(partNodes);
    }
  }

  /** A project for one shared-memory machine. */
  public CodeProject(String graphName, String identifier, String strategy, boolean synthetic, boolean barrier,
      List<Integer> semaphoreStarts, List<String> headers, List<SyntheticActor> declarations,
      List<StaticBuffer> buffers, long heapBytes, List<Channel> channels, List<CowBuffer> cowBuffers, List<Sink> sinks,
      List<Core> cores) {
    this(graphName, identifier, strategy, synthetic, barrier, semaphoreStarts, headers, declarations, buffers,
        heapBytes, channels, cowBuffers, sinks, cores, NodeSplit.ONE);
  }

  /** A project over several nodes: per core its node, the inter-node transfers, per sink part its node. */
  public CodeProject(String graphName, String identifier, String strategy, boolean synthetic, boolean barrier,
      List<Integer> semaphoreStarts, List<String> headers, List<SyntheticActor> declarations,
      List<StaticBuffer> buffers, long heapBytes, List<Channel> channels, List<CowBuffer> cowBuffers, List<Sink> sinks,
      List<Core> cores, List<Integer> coreNodes, List<Transfer> transfers, List<Integer> partNodes) {
    this(graphName, identifier, strategy, synthetic, barrier, semaphoreStarts, headers, declarations, buffers,
        heapBytes, channels, cowBuffers, sinks, cores, new NodeSplit(coreNodes, transfers, partNodes));
  }

  public CodeProject {
    if (!nodeSplit.coreNodes().isEmpty() && nodeSplit.coreNodes().size() != cores.size()) {
      throw new IllegalArgumentException(cores.size() + " cores but " + nodeSplit.coreNodes().size() + " core nodes");
    }
    semaphoreStarts = List.copyOf(semaphoreStarts);
    headers = List.copyOf(headers);
    declarations = List.copyOf(declarations);
    buffers = List.copyOf(buffers);
    channels = List.copyOf(channels);
    cowBuffers = List.copyOf(cowBuffers);
    sinks = List.copyOf(sinks);
    cores = List.copyOf(cores);
  }
  /** This program with other channels (e.g. those its memory counts). */
  public CodeProject withChannels(List<Channel> value) {
    return new CodeProject(graphName, identifier, strategy, synthetic, barrier, semaphoreStarts, headers, declarations,
        buffers, heapBytes, value, cowBuffers, sinks, cores, nodeSplit);
  }

  /** This program with other copy-on-write buffers (e.g. those counted in its memory). */
  public CodeProject withCowBuffers(List<CowBuffer> value) {
    return new CodeProject(graphName, identifier, strategy, synthetic, barrier, semaphoreStarts, headers, declarations,
        buffers, heapBytes, channels, value, sinks, cores, nodeSplit);
  }

  /** This program with other sinks (e.g. with notes). */
  public CodeProject withSinks(List<Sink> value) {
    return new CodeProject(graphName, identifier, strategy, synthetic, barrier, semaphoreStarts, headers, declarations,
        buffers, heapBytes, channels, cowBuffers, value, cores, nodeSplit);
  }


  /** Per core, its node (MPI rank); empty for one shared-memory machine (no MPI anywhere). */
  public List<Integer> coreNodes() {
    return nodeSplit.coreNodes();
  }

  /** Inter-node transfers (empty on one node). */
  public List<Transfer> transfers() {
    return nodeSplit.transfers();
  }

  /**
   * Per sink part (in the order of the generated array of all sinks' contexts), the node whose core digests it;
   * empty on one node.
   */
  public List<Integer> partNodes() {
    return nodeSplit.partNodes();
  }

  /** How many nodes (MPI ranks) the program runs on; 1 for one shared-memory machine. */
  public int nodes() {
    return coreNodes().stream().mapToInt(Integer::intValue).max().orElse(0) + 1;
  }

  /** Whether the program runs on several nodes: one SPMD program over MPI, rank = node. */
  public boolean multiNode() {
    return nodes() > 1;
  }

  /** The node of a core (0 on one machine). */
  public int nodeOf(int core) {
    return coreNodes().isEmpty() ? 0 : coreNodes().get(core);
  }

  /** The cores of a node, in index order. */
  public List<Core> coresOf(int node) {
    return cores.stream().filter(core -> nodeOf(core.index()) == node).toList();
  }

  /**
   * A line of {@code --validate=preesm}: a sink buffer as PREESM names it, and its context in the generated array of
   * all sinks' contexts.
   */
  public record PreesmDigest(String buffer, int part) {
  }

  /**
   * The lines of {@code --validate=preesm}, sorted by buffer name as PREESM's CI sorts the program's lines before
   * comparing them with a project's {@code .validation.hash} (byte order: {@code sort} in the C locale).
   */
  public List<PreesmDigest> preesmDigests() {
    List<PreesmDigest> digests = new ArrayList<>();
    for (Sink sink : sinks) {
      for (int i = 0; i < sink.preesmNames().size(); i++) {
        digests.add(new PreesmDigest(sink.preesmNames().get(i), sink.firstPart() + i));
      }
    }
    digests.sort(Comparator.comparing(PreesmDigest::buffer));
    return digests;
  }

  /** The number of semaphores. */
  public int semaphores() {
    return semaphoreStarts.size();
  }

  /**
   * The largest iteration offset of any vertex (software pipelining): every core's loop runs this many passes
   * more than there are graph iterations; 0 when nothing is pipelined.
   */
  public int maxSkew() {
    int result = 0;
    for (Core core : cores) {
      result = Math.max(result, Statement.maxSkew(core.loop()));
    }
    return result;
  }

  /** The rdy-ack flags the cores raise and wait on, ordered by raising core, then waiting core. */
  public List<Flag> flags() {
    Set<Flag> flags = new TreeSet<>(
        Comparator.comparingInt(Flag::from).thenComparingInt(Flag::to));
    for (Core core : cores) {
      for (Statement statement : Statement.flatten(core.loop())) {
        if (statement instanceof Statement.FlagRaise raise) {
          flags.add(raise.flag());
        } else if (statement instanceof Statement.FlagWait wait) {
          flags.add(wait.flag());
        }
      }
    }
    return List.copyOf(flags);
  }

  /** Whether every semaphore starts at zero. */
  public boolean semaphoresStartAtZero() {
    return semaphoreStarts.stream().allMatch(start -> start == 0);
  }

  /** The memory the program holds while it runs: per core, pools, copies in flight, its largest buffers. */
  public ProgramMemory memory() {
    return MemoryOfProgram.of(this);
  }

  /**
   * Per core, the bytes of the buffers it allocates (those with an allocation of their own, pools included and their
   * members not), each rounded up to the allocator's 64-byte alignment and times its copies, as
   * {@link #memory()} counts them; channel slots and copy-on-write buffers not included.
   */
  public List<Long> bufferBytesPerCore() {
    long[] perCore = new long[Math.max(1, cores.size())];
    for (StaticBuffer buffer : buffers) {
      if (buffer.allocated()) {
        int core = Math.min(buffer.home(), perCore.length - 1);
        perCore[core] = ProgramMemory.saturatedAdd(perCore[core], alignedBytes(buffer));
      }
    }
    return Arrays.stream(perCore).boxed().toList();
  }

  /**
   * Per core, the bytes of the slots of the channels it receives (their home), as {@link #memory()} counts them,
   * without primed channels (those carrying initial tokens): what a program holding several variants shares between
   * them ({@link VariantProgram#memory()}).
   */
  public List<Long> channelBytesPerCore() {
    long[] perCore = new long[Math.max(1, cores.size())];
    for (Channel channel : channels) {
      if (!channel.primed()) {
        int core = Math.min(channel.receiver(), perCore.length - 1);
        perCore[core] = ProgramMemory.saturatedAdd(perCore[core], channel.slotBytes());
      }
    }
    return Arrays.stream(perCore).boxed().toList();
  }

  /** A buffer's bytes as the allocator takes them: one copy rounded up to 64 bytes, times the copies. */
  public static long alignedBytes(StaticBuffer buffer) {
    long one = buffer.bytes() > Long.MAX_VALUE - 63 ? Long.MAX_VALUE : (buffer.bytes() + 63) / 64 * 64;
    return ProgramMemory.saturatedMultiply(one, buffer.copies());
  }

  /**
   * The bytes the generated program allocates for data: buffers with an allocation of their own (pools
   * included, their members not; each rounded up to the allocator's 64-byte alignment), every channel slot,
   * copy-on-write buffers once.
   */
  public long allocatedBytes() {
    return allocatedBytes(true);
  }

  /**
   * The same if every buffer had an allocation of its own (pools not used): what the program allocated before
   * buffers shared memory across lifetimes.
   */
  public long allocatedBytesWithoutPools() {
    return allocatedBytes(false);
  }

  private long allocatedBytes(boolean pooled) {
    Set<String> pools = new HashSet<>();
    for (StaticBuffer buffer : buffers) {
      if (!buffer.allocated()) {
        pools.add(buffer.pool());
      }
    }
    long total = 0;
    for (StaticBuffer buffer : buffers) {
      boolean counted = pooled ? buffer.allocated() : !pools.contains(buffer.name());
      // the allocator hands out 64-byte aligned blocks
      total += counted ? (buffer.totalBytes() + 63) / 64 * 64 : 0;
    }
    for (Channel channel : channels) {
      total = ProgramMemory.saturatedAdd(total, channel.slotBytes());
    }
    // transfers' send and receive slots are static buffers, counted above
    for (CowBuffer cow : cowBuffers) {
      total = ProgramMemory.saturatedAdd(total, cow.totalBytes());
    }
    return total;
  }
}
