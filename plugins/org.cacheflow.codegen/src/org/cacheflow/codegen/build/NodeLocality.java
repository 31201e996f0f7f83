package org.cacheflow.codegen.build;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.cacheflow.codegen.model.BufferRef;
import org.cacheflow.codegen.model.Channel;
import org.cacheflow.codegen.model.CodeProject;
import org.cacheflow.codegen.model.Core;
import org.cacheflow.codegen.model.Statement;
import org.cacheflow.codegen.model.StaticBuffer;
import org.cacheflow.codegen.model.Transfer;

/**
 * Checks a multi-node code model: cores of different nodes share no memory, so the only dependency between them
 * may be an inter-node transfer. Every semaphore, rdy-ack flag, channel and copy-on-write buffer must connect
 * cores of one node, every static buffer a statement reads or writes must be allocated on the statement's node,
 * and each transfer's statements must run on its sender's and receiver's cores. A violation is a defect of the
 * model builder: {@link IllegalStateException}.
 */
public final class NodeLocality {

  private NodeLocality() {
  }

  /**
   * @throws IllegalStateException naming the mechanism and cores when something connects cores of different nodes
   */
  public static void check(CodeProject project) {
    Map<Integer, List<Integer>> semaphoreCores = new HashMap<>();
    Map<String, List<Integer>> cowCores = new HashMap<>();
    Map<String, StaticBuffer> buffers = new HashMap<>();
    for (StaticBuffer buffer : project.buffers()) {
      buffers.put(buffer.name(), buffer);
    }
    for (Channel channel : project.channels()) {
      sameNode(project, "channel " + channel.name(), List.of(channel.sender(), channel.receiver()));
    }
    for (Core core : project.cores()) {
      List<Statement> statements = new ArrayList<>(core.init());
      statements.addAll(Statement.flatten(core.loop()));
      for (int i = 0; i < statements.size(); i++) {
        Statement statement = statements.get(i);
        int c = core.index();
        if (statement instanceof Statement.FirstIteration first) {
          statements.add(first.statement());
        } else if (statement instanceof Statement.SemaphorePost post) {
          semaphoreCores.computeIfAbsent(post.semaphore(), k -> new ArrayList<>()).add(c);
        } else if (statement instanceof Statement.SemaphoreWait wait) {
          semaphoreCores.computeIfAbsent(wait.semaphore(), k -> new ArrayList<>()).add(c);
        } else if (statement instanceof Statement.FlagRaise raise) {
          sameNode(project, "flag " + raise.flag().from() + " -> " + raise.flag().to(), List.of(raise.flag().from(),
              raise.flag().to()));
        } else if (statement instanceof Statement.FlagWait wait) {
          sameNode(project, "flag " + wait.flag().from() + " -> " + wait.flag().to(), List.of(wait.flag().from(),
              wait.flag().to()));
        } else if (cowName(statement) != null) {
          cowCores.computeIfAbsent(cowName(statement), k -> new ArrayList<>()).add(c);
        } else if (statement instanceof Statement.TransferSendWait s) {
          onCore(s.transfer(), c, s.transfer().sender());
        } else if (statement instanceof Statement.TransferSend s) {
          onCore(s.transfer(), c, s.transfer().sender());
        } else if (statement instanceof Statement.TransferReceiveWait s) {
          onCore(s.transfer(), c, s.transfer().receiver());
        } else if (statement instanceof Statement.TransferReceivePost s) {
          onCore(s.transfer(), c, s.transfer().receiver());
        }
        for (BufferRef ref : Statement.buffersOf(statement)) {
          StaticBuffer buffer = buffers.get(ref.name());
          if (buffer != null && project.nodeOf(buffer.home()) != project.nodeOf(c)) {
            throw new IllegalStateException("core " + c + " (node " + project.nodeOf(c) + ") uses buffer "
                + buffer.name() + " of core " + buffer.home() + " (node " + project.nodeOf(buffer.home()) + "): "
                + buffer.description());
          }
        }
      }
    }
    semaphoreCores.forEach((semaphore, cores) -> sameNode(project, "semaphore " + semaphore, cores));
    cowCores.forEach((cow, cores) -> sameNode(project, "copy-on-write buffer " + cow, cores));
    for (Transfer transfer : project.transfers()) {
      if (project.nodeOf(transfer.sender()) != transfer.senderNode()
          || project.nodeOf(transfer.receiver()) != transfer.receiverNode()) {
        throw new IllegalStateException("transfer " + transfer.name() + " names nodes its cores are not on");
      }
    }
  }

  /** The copy-on-write buffer a statement opens, publishes, acquires or releases; null for other statements. */
  private static String cowName(Statement statement) {
    if (statement instanceof Statement.CowWriteBegin s) {
      return s.buffer().name();
    } else if (statement instanceof Statement.CowPublish s) {
      return s.buffer().name();
    } else if (statement instanceof Statement.CowAcquire s) {
      return s.buffer().name();
    } else if (statement instanceof Statement.CowRelease s) {
      return s.buffer().name();
    }
    return null;
  }

  private static void onCore(Transfer transfer, int core, int expected) {
    if (core != expected) {
      throw new IllegalStateException("transfer " + transfer.name() + " is used on core " + core + ", not on core "
          + expected);
    }
  }

  private static void sameNode(CodeProject project, String what, List<Integer> cores) {
    for (int core : cores) {
      if (project.nodeOf(core) != project.nodeOf(cores.get(0))) {
        throw new IllegalStateException(what + " connects cores " + cores + " of different nodes");
      }
    }
  }
}
