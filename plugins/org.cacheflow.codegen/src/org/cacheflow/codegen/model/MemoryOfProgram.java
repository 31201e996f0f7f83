package org.cacheflow.codegen.model;

import static org.cacheflow.plan.memoryplan.ProgramMemory.saturatedAdd;
import static org.cacheflow.plan.memoryplan.ProgramMemory.saturatedMultiply;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.cacheflow.plan.memoryplan.ProgramMemory;
import org.cacheflow.plan.memoryplan.ProgramMemory.Buffer;

/**
 * Adds up the memory a code model's program holds: the allocations of each core (buffers with an allocation of
 * their own, pools included and their members not, each rounded up to the allocator's 64-byte alignment; a
 * channel's slots at its receiver, which homes them), copies in flight, copy-on-write sources. Sizes saturate at
 * {@link Long#MAX_VALUE} rather than overflow, so that absurd parameters are reported as such.
 */
final class MemoryOfProgram {

  private static final long ALIGNMENT = 64;

  private MemoryOfProgram() {
  }

  static ProgramMemory of(CodeProject project) {
    long[] perCore = new long[Math.max(1, project.cores().size())];
    long[] pools = new long[perCore.length];
    long inFlight = 0;
    List<Buffer> named = new ArrayList<>();
    for (StaticBuffer buffer : project.buffers()) {
      if (!buffer.allocated()) {
        continue;
      }
      long one = aligned(buffer.bytes());
      long all = saturatedMultiply(one, buffer.copies());
      int core = Math.min(buffer.home(), perCore.length - 1);
      perCore[core] = saturatedAdd(perCore[core], all);
      if (buffer.copies() > 1) {
        inFlight = saturatedAdd(inFlight, all - one);
      }
      if (buffer.name().equals("pool" + buffer.home())) {
        pools[core] = saturatedAdd(pools[core], all);
      }
      named.add(new Buffer(buffer.name(), all, buffer.copies(), buffer.description()));
    }
    for (Channel channel : project.channels()) {
      long all = channel.slotBytes();
      int core = Math.min(channel.receiver(), perCore.length - 1);
      perCore[core] = saturatedAdd(perCore[core], all);
      inFlight = saturatedAdd(inFlight, all);
      named.add(new Buffer(channel.name(), all, channel.slots(), channel.description()));
    }
    long cow = 0;
    for (CowBuffer buffer : project.cowBuffers()) {
      long all = buffer.totalBytes();
      cow = saturatedAdd(cow, all);
      named.add(new Buffer(buffer.name(), all, buffer.slots(), buffer.description()));
    }
    return new ProgramMemory(boxed(perCore), boxed(pools), inFlight, cow, project.heapBytes(),
        ProgramMemory.largestOf(named));
  }

  private static long aligned(long bytes) {
    return bytes > Long.MAX_VALUE - ALIGNMENT ? Long.MAX_VALUE : (bytes + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
  }

  private static List<Long> boxed(long[] values) {
    return Arrays.stream(values).boxed().toList();
  }
}
